// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const State = {
  STATE_UNSPECIFIED: 'STATE_UNSPECIFIED',
  STATE_CREATING: 'STATE_CREATING',
  STATE_RUNNING: 'STATE_RUNNING',
  STATE_COMPLETED: 'STATE_COMPLETED',
  STATE_FAILED: 'STATE_FAILED',
  STATE_TERMINATING: 'STATE_TERMINATING',
  STATE_TERMINATED: 'STATE_TERMINATED',
  STATE_PENDING: 'STATE_PENDING',
  STATE_PAUSED: 'STATE_PAUSED',
} as const;

export type State =
  | 'STATE_UNSPECIFIED'
  | 0
  | 'STATE_CREATING'
  | 1
  | 'STATE_RUNNING'
  | 2
  | 'STATE_COMPLETED'
  | 3
  | 'STATE_FAILED'
  | 4
  | 'STATE_TERMINATING'
  | 5
  | 'STATE_TERMINATED'
  | 6
  | 'STATE_PENDING'
  | 7
  | 'STATE_PAUSED'
  | 8

export type State__Output = typeof State[keyof typeof State]
