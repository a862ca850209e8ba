// Original file: proto/coreweave/sandbox/v1/volume.proto

import type { Volume as _coreweave_sandbox_v1_Volume, Volume__Output as _coreweave_sandbox_v1_Volume__Output } from '../../../coreweave/sandbox/v1/Volume.js';

export interface CreateVolumeRequest {
  'volume'?: (_coreweave_sandbox_v1_Volume | null);
  'request_id'?: (string);
}

export interface CreateVolumeRequest__Output {
  'volume'?: (_coreweave_sandbox_v1_Volume__Output);
  'request_id'?: (string);
}
