// Original file: proto/coreweave/sandbox/v1/settings.proto

import type { ObjectStoragePermission as _coreweave_sandbox_v1_ObjectStoragePermission, ObjectStoragePermission__Output as _coreweave_sandbox_v1_ObjectStoragePermission__Output } from '../../../coreweave/sandbox/v1/ObjectStoragePermission.js';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';

export interface ObjectStorageWifConfig {
  'wif_config_id'?: (string);
  'enabled'?: (boolean);
  'allowed_buckets'?: (string)[];
  'max_permission'?: (_coreweave_sandbox_v1_ObjectStoragePermission);
  'create_time'?: (_google_protobuf_Timestamp | null);
  'update_time'?: (_google_protobuf_Timestamp | null);
}

export interface ObjectStorageWifConfig__Output {
  'wif_config_id'?: (string);
  'enabled'?: (boolean);
  'allowed_buckets'?: (string)[];
  'max_permission'?: (_coreweave_sandbox_v1_ObjectStoragePermission__Output);
  'create_time'?: (_google_protobuf_Timestamp__Output);
  'update_time'?: (_google_protobuf_Timestamp__Output);
}
