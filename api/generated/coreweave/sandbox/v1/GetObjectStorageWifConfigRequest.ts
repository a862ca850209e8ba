// Original file: proto/coreweave/sandbox/v1/settings.proto


export interface GetObjectStorageWifConfigRequest {
}

export interface GetObjectStorageWifConfigRequest__Output {
}
