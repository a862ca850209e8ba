// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface LogStreamError {
  'message'?: (string);
  'code'?: (string);
}

export interface LogStreamError__Output {
  'message'?: (string);
  'code'?: (string);
}
