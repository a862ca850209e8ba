// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface ExecStreamClose {
}

export interface ExecStreamClose__Output {
}
