// Original file: proto/coreweave/sandbox/v1/settings.proto


export interface WandBStoreConfig {
  'api_url'?: (string);
  'team'?: (string);
}

export interface WandBStoreConfig__Output {
  'api_url'?: (string);
  'team'?: (string);
}
