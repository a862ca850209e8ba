// Original file: proto/coreweave/sandbox/v1/settings.proto

export const FileSystemSnapshotBucketMode = {
  FILE_SYSTEM_SNAPSHOT_BUCKET_MODE_UNSPECIFIED: 'FILE_SYSTEM_SNAPSHOT_BUCKET_MODE_UNSPECIFIED',
  FILE_SYSTEM_SNAPSHOT_BUCKET_MODE_CW_MANAGED: 'FILE_SYSTEM_SNAPSHOT_BUCKET_MODE_CW_MANAGED',
  FILE_SYSTEM_SNAPSHOT_BUCKET_MODE_BRING_YOUR_OWN: 'FILE_SYSTEM_SNAPSHOT_BUCKET_MODE_BRING_YOUR_OWN',
} as const;

export type FileSystemSnapshotBucketMode =
  | 'FILE_SYSTEM_SNAPSHOT_BUCKET_MODE_UNSPECIFIED'
  | 0
  | 'FILE_SYSTEM_SNAPSHOT_BUCKET_MODE_CW_MANAGED'
  | 1
  | 'FILE_SYSTEM_SNAPSHOT_BUCKET_MODE_BRING_YOUR_OWN'
  | 2

export type FileSystemSnapshotBucketMode__Output = typeof FileSystemSnapshotBucketMode[keyof typeof FileSystemSnapshotBucketMode]
