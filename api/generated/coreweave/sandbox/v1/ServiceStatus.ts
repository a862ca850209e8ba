// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { ServiceProtocol as _coreweave_sandbox_v1_ServiceProtocol, ServiceProtocol__Output as _coreweave_sandbox_v1_ServiceProtocol__Output } from '../../../coreweave/sandbox/v1/ServiceProtocol.js';
import type { Visibility as _coreweave_sandbox_v1_Visibility, Visibility__Output as _coreweave_sandbox_v1_Visibility__Output } from '../../../coreweave/sandbox/v1/Visibility.js';
import type { EndpointStatus as _coreweave_sandbox_v1_EndpointStatus, EndpointStatus__Output as _coreweave_sandbox_v1_EndpointStatus__Output } from '../../../coreweave/sandbox/v1/EndpointStatus.js';

export interface ServiceStatus {
  'port'?: (number);
  'name'?: (string);
  'protocol'?: (_coreweave_sandbox_v1_ServiceProtocol);
  'visibility'?: (_coreweave_sandbox_v1_Visibility);
  'endpoint'?: (_coreweave_sandbox_v1_EndpointStatus | null);
  'url'?: (string);
}

export interface ServiceStatus__Output {
  'port'?: (number);
  'name'?: (string);
  'protocol'?: (_coreweave_sandbox_v1_ServiceProtocol__Output);
  'visibility'?: (_coreweave_sandbox_v1_Visibility__Output);
  'endpoint'?: (_coreweave_sandbox_v1_EndpointStatus__Output);
  'url'?: (string);
}
