// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface ReadFileResponse {
  'content'?: (Buffer | Uint8Array | string);
}

export interface ReadFileResponse__Output {
  'content'?: (Buffer);
}
