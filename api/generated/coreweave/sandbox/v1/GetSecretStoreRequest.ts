// Original file: proto/coreweave/sandbox/v1/settings.proto


export interface GetSecretStoreRequest {
  'name'?: (string);
}

export interface GetSecretStoreRequest__Output {
  'name'?: (string);
}
