// Original file: proto/coreweave/sandbox/v1/settings.proto

import type { FileSystemSnapshotBucketConfig as _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig, FileSystemSnapshotBucketConfig__Output as _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output } from '../../../coreweave/sandbox/v1/FileSystemSnapshotBucketConfig.js';
import type { FieldMask as _google_protobuf_FieldMask, FieldMask__Output as _google_protobuf_FieldMask__Output } from '../../../google/protobuf/FieldMask.js';

export interface UpdateFileSystemSnapshotBucketConfigRequest {
  'file_system_snapshot_bucket_config'?: (_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig | null);
  'update_mask'?: (_google_protobuf_FieldMask | null);
}

export interface UpdateFileSystemSnapshotBucketConfigRequest__Output {
  'file_system_snapshot_bucket_config'?: (_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output);
  'update_mask'?: (_google_protobuf_FieldMask__Output);
}
