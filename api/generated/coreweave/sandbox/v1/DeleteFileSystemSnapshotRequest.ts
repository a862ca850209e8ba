// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface DeleteFileSystemSnapshotRequest {
  'file_system_snapshot_id'?: (string);
  'allow_missing'?: (boolean);
}

export interface DeleteFileSystemSnapshotRequest__Output {
  'file_system_snapshot_id'?: (string);
  'allow_missing'?: (boolean);
}
