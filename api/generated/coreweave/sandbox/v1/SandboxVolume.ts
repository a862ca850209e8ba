// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { ScratchVolume as _coreweave_sandbox_v1_ScratchVolume, ScratchVolume__Output as _coreweave_sandbox_v1_ScratchVolume__Output } from '../../../coreweave/sandbox/v1/ScratchVolume.js';

export interface SandboxVolume {
  'name'?: (string);
  'scratch'?: (_coreweave_sandbox_v1_ScratchVolume | null);
  'volume_id'?: (string);
  'source'?: "scratch"|"volume_id";
}

export interface SandboxVolume__Output {
  'name'?: (string);
  'scratch'?: (_coreweave_sandbox_v1_ScratchVolume__Output);
  'volume_id'?: (string);
  'source'?: "scratch"|"volume_id";
}
