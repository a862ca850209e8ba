// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface FileMount {
  'path'?: (string);
  'content'?: (Buffer | Uint8Array | string);
}

export interface FileMount__Output {
  'path'?: (string);
  'content'?: (Buffer);
}
