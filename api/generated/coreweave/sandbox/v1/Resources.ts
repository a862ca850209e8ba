// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Gpu as _coreweave_sandbox_v1_Gpu, Gpu__Output as _coreweave_sandbox_v1_Gpu__Output } from '../../../coreweave/sandbox/v1/Gpu.js';

export interface Resources {
  'cpu'?: (string);
  'memory'?: (string);
  'gpu'?: (_coreweave_sandbox_v1_Gpu | null);
}

export interface Resources__Output {
  'cpu'?: (string);
  'memory'?: (string);
  'gpu'?: (_coreweave_sandbox_v1_Gpu__Output);
}
