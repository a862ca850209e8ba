// Original file: proto/coreweave/sandbox/v1/sandbox.proto


export interface Probe {
  'exec'?: (string)[];
  'period_seconds'?: (number);
  'timeout_seconds'?: (number);
  'failure_threshold'?: (number);
  'initial_delay_seconds'?: (number);
}

export interface Probe__Output {
  'exec'?: (string)[];
  'period_seconds'?: (number);
  'timeout_seconds'?: (number);
  'failure_threshold'?: (number);
  'initial_delay_seconds'?: (number);
}
