// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface GetFileSystemSnapshotRequest {
  'file_system_snapshot_id'?: (string);
}

export interface GetFileSystemSnapshotRequest__Output {
  'file_system_snapshot_id'?: (string);
}
