// Original file: proto/coreweave/sandbox/v1/volume.proto

import type { VolumeSpec as _coreweave_sandbox_v1_VolumeSpec, VolumeSpec__Output as _coreweave_sandbox_v1_VolumeSpec__Output } from '../../../coreweave/sandbox/v1/VolumeSpec.js';
import type { VolumeStatus as _coreweave_sandbox_v1_VolumeStatus, VolumeStatus__Output as _coreweave_sandbox_v1_VolumeStatus__Output } from '../../../coreweave/sandbox/v1/VolumeStatus.js';

export interface Volume {
  'volume_id'?: (string);
  'spec'?: (_coreweave_sandbox_v1_VolumeSpec | null);
  'status'?: (_coreweave_sandbox_v1_VolumeStatus | null);
}

export interface Volume__Output {
  'volume_id'?: (string);
  'spec'?: (_coreweave_sandbox_v1_VolumeSpec__Output);
  'status'?: (_coreweave_sandbox_v1_VolumeStatus__Output);
}
