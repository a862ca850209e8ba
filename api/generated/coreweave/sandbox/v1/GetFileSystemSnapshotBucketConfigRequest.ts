// Original file: proto/coreweave/sandbox/v1/settings.proto


export interface GetFileSystemSnapshotBucketConfigRequest {
}

export interface GetFileSystemSnapshotBucketConfigRequest__Output {
}
