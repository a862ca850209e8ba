// Original file: proto/coreweave/sandbox/v1/volume.proto

import type { Volume as _coreweave_sandbox_v1_Volume, Volume__Output as _coreweave_sandbox_v1_Volume__Output } from '../../../coreweave/sandbox/v1/Volume.js';
import type { FieldMask as _google_protobuf_FieldMask, FieldMask__Output as _google_protobuf_FieldMask__Output } from '../../../google/protobuf/FieldMask.js';

export interface UpdateVolumeRequest {
  'volume_id'?: (string);
  'volume'?: (_coreweave_sandbox_v1_Volume | null);
  'update_mask'?: (_google_protobuf_FieldMask | null);
}

export interface UpdateVolumeRequest__Output {
  'volume_id'?: (string);
  'volume'?: (_coreweave_sandbox_v1_Volume__Output);
  'update_mask'?: (_google_protobuf_FieldMask__Output);
}
