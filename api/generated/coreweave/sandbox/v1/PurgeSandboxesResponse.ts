// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface PurgeSandboxesResponse {
  'purge_count'?: (number);
  'failed_sandbox_ids'?: (string)[];
  'retryable_failed_sandbox_ids'?: (string)[];
}

export interface PurgeSandboxesResponse__Output {
  'purge_count'?: (number);
  'failed_sandbox_ids'?: (string)[];
  'retryable_failed_sandbox_ids'?: (string)[];
}
