// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface GetSandboxBuildLogsRequest {
  'sandbox_id'?: (string);
  'service'?: (string);
}

export interface GetSandboxBuildLogsRequest__Output {
  'sandbox_id'?: (string);
  'service'?: (string);
}
