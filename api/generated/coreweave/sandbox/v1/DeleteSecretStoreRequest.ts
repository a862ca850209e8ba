// Original file: proto/coreweave/sandbox/v1/settings.proto


export interface DeleteSecretStoreRequest {
  'name'?: (string);
  'allow_missing'?: (boolean);
}

export interface DeleteSecretStoreRequest__Output {
  'name'?: (string);
  'allow_missing'?: (boolean);
}
