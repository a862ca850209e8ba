// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Resources as _coreweave_sandbox_v1_Resources, Resources__Output as _coreweave_sandbox_v1_Resources__Output } from '../../../coreweave/sandbox/v1/Resources.js';

export interface ResourceRequirements {
  'requests'?: (_coreweave_sandbox_v1_Resources | null);
  'limits'?: (_coreweave_sandbox_v1_Resources | null);
}

export interface ResourceRequirements__Output {
  'requests'?: (_coreweave_sandbox_v1_Resources__Output);
  'limits'?: (_coreweave_sandbox_v1_Resources__Output);
}
