// Original file: proto/coreweave/sandbox/v1/volume.proto

import type { VolumeState as _coreweave_sandbox_v1_VolumeState, VolumeState__Output as _coreweave_sandbox_v1_VolumeState__Output } from '../../../coreweave/sandbox/v1/VolumeState.js';
import type { VolumeLocality as _coreweave_sandbox_v1_VolumeLocality, VolumeLocality__Output as _coreweave_sandbox_v1_VolumeLocality__Output } from '../../../coreweave/sandbox/v1/VolumeLocality.js';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';

export interface VolumeStatus {
  'state'?: (_coreweave_sandbox_v1_VolumeState);
  'state_reason'?: (string);
  'locality'?: (_coreweave_sandbox_v1_VolumeLocality);
  'create_time'?: (_google_protobuf_Timestamp | null);
  'update_time'?: (_google_protobuf_Timestamp | null);
  'last_validated_time'?: (_google_protobuf_Timestamp | null);
  'access_modes'?: (string)[];
  'capacity'?: (string);
  'attached_sandbox_count'?: (number);
}

export interface VolumeStatus__Output {
  'state'?: (_coreweave_sandbox_v1_VolumeState__Output);
  'state_reason'?: (string);
  'locality'?: (_coreweave_sandbox_v1_VolumeLocality__Output);
  'create_time'?: (_google_protobuf_Timestamp__Output);
  'update_time'?: (_google_protobuf_Timestamp__Output);
  'last_validated_time'?: (_google_protobuf_Timestamp__Output);
  'access_modes'?: (string)[];
  'capacity'?: (string);
  'attached_sandbox_count'?: (number);
}
