// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface ExecStreamError {
  'message'?: (string);
  'code'?: (string);
}

export interface ExecStreamError__Output {
  'message'?: (string);
  'code'?: (string);
}
