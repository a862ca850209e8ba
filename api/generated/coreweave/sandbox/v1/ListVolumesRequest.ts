// Original file: proto/coreweave/sandbox/v1/volume.proto

import type { VolumeState as _coreweave_sandbox_v1_VolumeState, VolumeState__Output as _coreweave_sandbox_v1_VolumeState__Output } from '../../../coreweave/sandbox/v1/VolumeState.js';

export interface ListVolumesRequest {
  'page_size'?: (number);
  'page_token'?: (string);
  'states'?: (_coreweave_sandbox_v1_VolumeState)[];
  'runner_ids'?: (string)[];
}

export interface ListVolumesRequest__Output {
  'page_size'?: (number);
  'page_token'?: (string);
  'states'?: (_coreweave_sandbox_v1_VolumeState__Output)[];
  'runner_ids'?: (string)[];
}
