// Original file: proto/coreweave/sandbox/v1/settings.proto


export interface GetBuildStorageConfigRequest {
}

export interface GetBuildStorageConfigRequest__Output {
}
