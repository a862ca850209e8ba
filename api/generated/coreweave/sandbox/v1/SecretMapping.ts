// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface SecretMapping {
  'path'?: (string);
  'field'?: (string);
  'env_var'?: (string);
}

export interface SecretMapping__Output {
  'path'?: (string);
  'field'?: (string);
  'env_var'?: (string);
}
