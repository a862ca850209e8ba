// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface WriteFileRequest {
  'sandbox_id'?: (string);
  'path'?: (string);
  'content'?: (Buffer | Uint8Array | string);
  'container'?: (string);
}

export interface WriteFileRequest__Output {
  'sandbox_id'?: (string);
  'path'?: (string);
  'content'?: (Buffer);
  'container'?: (string);
}
