// Original file: proto/coreweave/sandbox/v1/settings.proto

import type { BuildStorageConfig as _coreweave_sandbox_v1_BuildStorageConfig, BuildStorageConfig__Output as _coreweave_sandbox_v1_BuildStorageConfig__Output } from '../../../coreweave/sandbox/v1/BuildStorageConfig.js';
import type { FieldMask as _google_protobuf_FieldMask, FieldMask__Output as _google_protobuf_FieldMask__Output } from '../../../google/protobuf/FieldMask.js';

export interface UpdateBuildStorageConfigRequest {
  'build_storage_config'?: (_coreweave_sandbox_v1_BuildStorageConfig | null);
  'update_mask'?: (_google_protobuf_FieldMask | null);
}

export interface UpdateBuildStorageConfigRequest__Output {
  'build_storage_config'?: (_coreweave_sandbox_v1_BuildStorageConfig__Output);
  'update_mask'?: (_google_protobuf_FieldMask__Output);
}
