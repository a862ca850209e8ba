// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { State as _coreweave_sandbox_v1_State, State__Output as _coreweave_sandbox_v1_State__Output } from '../../../coreweave/sandbox/v1/State.js';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';
import type { ServiceStatus as _coreweave_sandbox_v1_ServiceStatus, ServiceStatus__Output as _coreweave_sandbox_v1_ServiceStatus__Output } from '../../../coreweave/sandbox/v1/ServiceStatus.js';
import type { ResourceUsage as _coreweave_sandbox_v1_ResourceUsage, ResourceUsage__Output as _coreweave_sandbox_v1_ResourceUsage__Output } from '../../../coreweave/sandbox/v1/ResourceUsage.js';
import type { Resources as _coreweave_sandbox_v1_Resources, Resources__Output as _coreweave_sandbox_v1_Resources__Output } from '../../../coreweave/sandbox/v1/Resources.js';
import type { ContainerStatus as _coreweave_sandbox_v1_ContainerStatus, ContainerStatus__Output as _coreweave_sandbox_v1_ContainerStatus__Output } from '../../../coreweave/sandbox/v1/ContainerStatus.js';
import type { IngressRule as _coreweave_sandbox_v1_IngressRule, IngressRule__Output as _coreweave_sandbox_v1_IngressRule__Output } from '../../../coreweave/sandbox/v1/IngressRule.js';
import type { EgressRule as _coreweave_sandbox_v1_EgressRule, EgressRule__Output as _coreweave_sandbox_v1_EgressRule__Output } from '../../../coreweave/sandbox/v1/EgressRule.js';
import type { ResourceRequirements as _coreweave_sandbox_v1_ResourceRequirements, ResourceRequirements__Output as _coreweave_sandbox_v1_ResourceRequirements__Output } from '../../../coreweave/sandbox/v1/ResourceRequirements.js';
import type { DNSEgressMode as _coreweave_sandbox_v1_DNSEgressMode, DNSEgressMode__Output as _coreweave_sandbox_v1_DNSEgressMode__Output } from '../../../coreweave/sandbox/v1/DNSEgressMode.js';

export interface SandboxStatus {
  'state'?: (_coreweave_sandbox_v1_State);
  'state_reason'?: (string);
  'create_time'?: (_google_protobuf_Timestamp | null);
  'start_time'?: (_google_protobuf_Timestamp | null);
  'end_time'?: (_google_protobuf_Timestamp | null);
  'services'?: (_coreweave_sandbox_v1_ServiceStatus)[];
  'resource_usage'?: (_coreweave_sandbox_v1_ResourceUsage | null);
  'exit_code'?: (number);
  'effective_resources'?: (_coreweave_sandbox_v1_Resources | null);
  'effective_max_lifetime_seconds'?: (number);
  'container_statuses'?: (_coreweave_sandbox_v1_ContainerStatus)[];
  'runner_id'?: (string);
  'runner_group_id'?: (string);
  'effective_ingress'?: (_coreweave_sandbox_v1_IngressRule)[];
  'effective_egress'?: (_coreweave_sandbox_v1_EgressRule)[];
  'effective_resource_requirements'?: (_coreweave_sandbox_v1_ResourceRequirements | null);
  'attached_volume_ids'?: (string)[];
  'effective_runtime_class'?: (string);
  'effective_dns_egress'?: (_coreweave_sandbox_v1_DNSEgressMode);
  '_exit_code'?: "exit_code";
}

export interface SandboxStatus__Output {
  'state'?: (_coreweave_sandbox_v1_State__Output);
  'state_reason'?: (string);
  'create_time'?: (_google_protobuf_Timestamp__Output);
  'start_time'?: (_google_protobuf_Timestamp__Output);
  'end_time'?: (_google_protobuf_Timestamp__Output);
  'services'?: (_coreweave_sandbox_v1_ServiceStatus__Output)[];
  'resource_usage'?: (_coreweave_sandbox_v1_ResourceUsage__Output);
  'exit_code'?: (number);
  'effective_resources'?: (_coreweave_sandbox_v1_Resources__Output);
  'effective_max_lifetime_seconds'?: (number);
  'container_statuses'?: (_coreweave_sandbox_v1_ContainerStatus__Output)[];
  'runner_id'?: (string);
  'runner_group_id'?: (string);
  'effective_ingress'?: (_coreweave_sandbox_v1_IngressRule__Output)[];
  'effective_egress'?: (_coreweave_sandbox_v1_EgressRule__Output)[];
  'effective_resource_requirements'?: (_coreweave_sandbox_v1_ResourceRequirements__Output);
  'attached_volume_ids'?: (string)[];
  'effective_runtime_class'?: (string);
  'effective_dns_egress'?: (_coreweave_sandbox_v1_DNSEgressMode__Output);
  '_exit_code'?: "exit_code";
}
