// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface ReadFileRequest {
  'sandbox_id'?: (string);
  'path'?: (string);
  'container'?: (string);
}

export interface ReadFileRequest__Output {
  'sandbox_id'?: (string);
  'path'?: (string);
  'container'?: (string);
}
