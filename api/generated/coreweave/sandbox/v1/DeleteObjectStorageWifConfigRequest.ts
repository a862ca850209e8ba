// Original file: proto/coreweave/sandbox/v1/settings.proto


export interface DeleteObjectStorageWifConfigRequest {
  'allow_missing'?: (boolean);
}

export interface DeleteObjectStorageWifConfigRequest__Output {
  'allow_missing'?: (boolean);
}
