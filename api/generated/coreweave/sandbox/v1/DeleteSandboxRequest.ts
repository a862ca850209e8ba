// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface DeleteSandboxRequest {
  'sandbox_id'?: (string);
  'grace_period_seconds'?: (number);
  'snapshot_volumes'?: (string)[];
  'request_id'?: (string);
  'allow_missing'?: (boolean);
}

export interface DeleteSandboxRequest__Output {
  'sandbox_id'?: (string);
  'grace_period_seconds'?: (number);
  'snapshot_volumes'?: (string)[];
  'request_id'?: (string);
  'allow_missing'?: (boolean);
}
