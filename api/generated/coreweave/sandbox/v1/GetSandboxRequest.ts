// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface GetSandboxRequest {
  'sandbox_id'?: (string);
}

export interface GetSandboxRequest__Output {
  'sandbox_id'?: (string);
}
