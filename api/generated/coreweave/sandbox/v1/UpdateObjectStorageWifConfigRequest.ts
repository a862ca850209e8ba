// Original file: proto/coreweave/sandbox/v1/settings.proto

import type { ObjectStorageWifConfig as _coreweave_sandbox_v1_ObjectStorageWifConfig, ObjectStorageWifConfig__Output as _coreweave_sandbox_v1_ObjectStorageWifConfig__Output } from '../../../coreweave/sandbox/v1/ObjectStorageWifConfig.js';
import type { FieldMask as _google_protobuf_FieldMask, FieldMask__Output as _google_protobuf_FieldMask__Output } from '../../../google/protobuf/FieldMask.js';

export interface UpdateObjectStorageWifConfigRequest {
  'object_storage_wif_config'?: (_coreweave_sandbox_v1_ObjectStorageWifConfig | null);
  'update_mask'?: (_google_protobuf_FieldMask | null);
}

export interface UpdateObjectStorageWifConfigRequest__Output {
  'object_storage_wif_config'?: (_coreweave_sandbox_v1_ObjectStorageWifConfig__Output);
  'update_mask'?: (_google_protobuf_FieldMask__Output);
}
