// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface SecretSource {
  'store_name'?: (string);
  'path'?: (string);
  'field'?: (string);
}

export interface SecretSource__Output {
  'store_name'?: (string);
  'path'?: (string);
  'field'?: (string);
}
