// Original file: proto/coreweave/sandbox/v1/volume.proto

import type { PvcVolumeSource as _coreweave_sandbox_v1_PvcVolumeSource, PvcVolumeSource__Output as _coreweave_sandbox_v1_PvcVolumeSource__Output } from '../../../coreweave/sandbox/v1/PvcVolumeSource.js';

export interface VolumeSpec {
  'pvc'?: (_coreweave_sandbox_v1_PvcVolumeSource | null);
  'read_only'?: (boolean);
  'description'?: (string);
  'source'?: "pvc";
}

export interface VolumeSpec__Output {
  'pvc'?: (_coreweave_sandbox_v1_PvcVolumeSource__Output);
  'read_only'?: (boolean);
  'description'?: (string);
  'source'?: "pvc";
}
