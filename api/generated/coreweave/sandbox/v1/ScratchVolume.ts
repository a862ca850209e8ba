// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { StorageMedium as _coreweave_sandbox_v1_StorageMedium, StorageMedium__Output as _coreweave_sandbox_v1_StorageMedium__Output } from '../../../coreweave/sandbox/v1/StorageMedium.js';

export interface ScratchVolume {
  'size'?: (string);
  'medium'?: (_coreweave_sandbox_v1_StorageMedium);
  'restore_from_snapshot_id'?: (string);
}

export interface ScratchVolume__Output {
  'size'?: (string);
  'medium'?: (_coreweave_sandbox_v1_StorageMedium__Output);
  'restore_from_snapshot_id'?: (string);
}
