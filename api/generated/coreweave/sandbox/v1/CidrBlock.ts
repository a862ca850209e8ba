// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface CidrBlock {
  'cidr'?: (string);
  'except'?: (string)[];
}

export interface CidrBlock__Output {
  'cidr'?: (string);
  'except'?: (string)[];
}
