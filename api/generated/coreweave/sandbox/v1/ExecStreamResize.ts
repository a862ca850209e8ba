// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface ExecStreamResize {
  'width'?: (number);
  'height'?: (number);
}

export interface ExecStreamResize__Output {
  'width'?: (number);
  'height'?: (number);
}
