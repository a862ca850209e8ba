// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { CidrBlock as _coreweave_sandbox_v1_CidrBlock, CidrBlock__Output as _coreweave_sandbox_v1_CidrBlock__Output } from '../../../coreweave/sandbox/v1/CidrBlock.js';
import type { TenantScope as _coreweave_sandbox_v1_TenantScope, TenantScope__Output as _coreweave_sandbox_v1_TenantScope__Output } from '../../../coreweave/sandbox/v1/TenantScope.js';
import type { PortRange as _coreweave_sandbox_v1_PortRange, PortRange__Output as _coreweave_sandbox_v1_PortRange__Output } from '../../../coreweave/sandbox/v1/PortRange.js';
import type { SelectorBlock as _coreweave_sandbox_v1_SelectorBlock, SelectorBlock__Output as _coreweave_sandbox_v1_SelectorBlock__Output } from '../../../coreweave/sandbox/v1/SelectorBlock.js';

export interface EgressRule {
  'cidr'?: (_coreweave_sandbox_v1_CidrBlock | null);
  'https_hostname'?: (string);
  'tenant'?: (_coreweave_sandbox_v1_TenantScope);
  'any'?: (boolean);
  'ports'?: (_coreweave_sandbox_v1_PortRange)[];
  'selector'?: (_coreweave_sandbox_v1_SelectorBlock | null);
  'https_hostname_except'?: (string)[];
  'destination'?: "cidr"|"https_hostname"|"tenant"|"any"|"selector";
}

export interface EgressRule__Output {
  'cidr'?: (_coreweave_sandbox_v1_CidrBlock__Output);
  'https_hostname'?: (string);
  'tenant'?: (_coreweave_sandbox_v1_TenantScope__Output);
  'any'?: (boolean);
  'ports'?: (_coreweave_sandbox_v1_PortRange__Output)[];
  'selector'?: (_coreweave_sandbox_v1_SelectorBlock__Output);
  'https_hostname_except'?: (string)[];
  'destination'?: "cidr"|"https_hostname"|"tenant"|"any"|"selector";
}
