// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface ListFileSystemSnapshotsRequest {
  'page_size'?: (number);
  'page_token'?: (string);
  'source_sandbox_id'?: (string);
}

export interface ListFileSystemSnapshotsRequest__Output {
  'page_size'?: (number);
  'page_token'?: (string);
  'source_sandbox_id'?: (string);
}
