// Original file: proto/coreweave/sandbox/v1/settings.proto

import type { FileSystemSnapshotBucketMode as _coreweave_sandbox_v1_FileSystemSnapshotBucketMode, FileSystemSnapshotBucketMode__Output as _coreweave_sandbox_v1_FileSystemSnapshotBucketMode__Output } from '../../../coreweave/sandbox/v1/FileSystemSnapshotBucketMode.js';

export interface FileSystemSnapshotBucketConfig {
  'bucket_name'?: (string);
  'region'?: (string);
  'mode'?: (_coreweave_sandbox_v1_FileSystemSnapshotBucketMode);
  'effective_bucket_name'?: (string);
}

export interface FileSystemSnapshotBucketConfig__Output {
  'bucket_name'?: (string);
  'region'?: (string);
  'mode'?: (_coreweave_sandbox_v1_FileSystemSnapshotBucketMode__Output);
  'effective_bucket_name'?: (string);
}
