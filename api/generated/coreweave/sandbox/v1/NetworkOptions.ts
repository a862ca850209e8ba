// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { IngressRule as _coreweave_sandbox_v1_IngressRule, IngressRule__Output as _coreweave_sandbox_v1_IngressRule__Output } from '../../../coreweave/sandbox/v1/IngressRule.js';
import type { EgressRule as _coreweave_sandbox_v1_EgressRule, EgressRule__Output as _coreweave_sandbox_v1_EgressRule__Output } from '../../../coreweave/sandbox/v1/EgressRule.js';
import type { DNSEgressMode as _coreweave_sandbox_v1_DNSEgressMode, DNSEgressMode__Output as _coreweave_sandbox_v1_DNSEgressMode__Output } from '../../../coreweave/sandbox/v1/DNSEgressMode.js';

export interface NetworkOptions {
  'ingress'?: (_coreweave_sandbox_v1_IngressRule)[];
  'egress'?: (_coreweave_sandbox_v1_EgressRule)[];
  'deny_egress'?: (boolean);
  'deny_ingress'?: (boolean);
  'dns_egress'?: (_coreweave_sandbox_v1_DNSEgressMode);
  '_deny_egress'?: "deny_egress";
  '_deny_ingress'?: "deny_ingress";
}

export interface NetworkOptions__Output {
  'ingress'?: (_coreweave_sandbox_v1_IngressRule__Output)[];
  'egress'?: (_coreweave_sandbox_v1_EgressRule__Output)[];
  'deny_egress'?: (boolean);
  'deny_ingress'?: (boolean);
  'dns_egress'?: (_coreweave_sandbox_v1_DNSEgressMode__Output);
  '_deny_egress'?: "deny_egress";
  '_deny_ingress'?: "deny_ingress";
}
