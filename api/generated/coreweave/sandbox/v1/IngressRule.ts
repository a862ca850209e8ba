// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { CidrBlock as _coreweave_sandbox_v1_CidrBlock, CidrBlock__Output as _coreweave_sandbox_v1_CidrBlock__Output } from '../../../coreweave/sandbox/v1/CidrBlock.js';
import type { TenantScope as _coreweave_sandbox_v1_TenantScope, TenantScope__Output as _coreweave_sandbox_v1_TenantScope__Output } from '../../../coreweave/sandbox/v1/TenantScope.js';
import type { PortRange as _coreweave_sandbox_v1_PortRange, PortRange__Output as _coreweave_sandbox_v1_PortRange__Output } from '../../../coreweave/sandbox/v1/PortRange.js';

export interface IngressRule {
  'cidr'?: (_coreweave_sandbox_v1_CidrBlock | null);
  'tenant'?: (_coreweave_sandbox_v1_TenantScope);
  'any'?: (boolean);
  'ports'?: (_coreweave_sandbox_v1_PortRange)[];
  'source'?: "cidr"|"tenant"|"any";
}

export interface IngressRule__Output {
  'cidr'?: (_coreweave_sandbox_v1_CidrBlock__Output);
  'tenant'?: (_coreweave_sandbox_v1_TenantScope__Output);
  'any'?: (boolean);
  'ports'?: (_coreweave_sandbox_v1_PortRange__Output)[];
  'source'?: "cidr"|"tenant"|"any";
}
