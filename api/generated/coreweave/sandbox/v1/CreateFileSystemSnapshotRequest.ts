// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface CreateFileSystemSnapshotRequest {
  'sandbox_id'?: (string);
  'request_id'?: (string);
  'scratch_volume_name'?: (string);
}

export interface CreateFileSystemSnapshotRequest__Output {
  'sandbox_id'?: (string);
  'request_id'?: (string);
  'scratch_volume_name'?: (string);
}
