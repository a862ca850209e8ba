// Original file: proto/coreweave/sandbox/v1/volume.proto

import type { Volume as _coreweave_sandbox_v1_Volume, Volume__Output as _coreweave_sandbox_v1_Volume__Output } from '../../../coreweave/sandbox/v1/Volume.js';

export interface ListVolumesResponse {
  'volumes'?: (_coreweave_sandbox_v1_Volume)[];
  'next_page_token'?: (string);
}

export interface ListVolumesResponse__Output {
  'volumes'?: (_coreweave_sandbox_v1_Volume__Output)[];
  'next_page_token'?: (string);
}
