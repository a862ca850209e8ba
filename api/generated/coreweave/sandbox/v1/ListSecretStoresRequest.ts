// Original file: proto/coreweave/sandbox/v1/settings.proto


export interface ListSecretStoresRequest {
  'page_size'?: (number);
  'page_token'?: (string);
}

export interface ListSecretStoresRequest__Output {
  'page_size'?: (number);
  'page_token'?: (string);
}
