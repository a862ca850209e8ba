// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface WriteFileResponse {
}

export interface WriteFileResponse__Output {
}
