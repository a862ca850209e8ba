// Original file: proto/coreweave/sandbox/v1/discovery.proto

export const RunnerView = {
  RUNNER_VIEW_UNSPECIFIED: 'RUNNER_VIEW_UNSPECIFIED',
  RUNNER_VIEW_BASIC: 'RUNNER_VIEW_BASIC',
  RUNNER_VIEW_FULL: 'RUNNER_VIEW_FULL',
} as const;

export type RunnerView =
  | 'RUNNER_VIEW_UNSPECIFIED'
  | 0
  | 'RUNNER_VIEW_BASIC'
  | 1
  | 'RUNNER_VIEW_FULL'
  | 2

export type RunnerView__Output = typeof RunnerView[keyof typeof RunnerView]
