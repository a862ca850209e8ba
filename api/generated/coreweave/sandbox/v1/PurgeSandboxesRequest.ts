// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface PurgeSandboxesRequest {
  'tags'?: (string)[];
  'dry_run'?: (boolean);
  'request_id'?: (string);
  'purge_all'?: (boolean);
}

export interface PurgeSandboxesRequest__Output {
  'tags'?: (string)[];
  'dry_run'?: (boolean);
  'request_id'?: (string);
  'purge_all'?: (boolean);
}
