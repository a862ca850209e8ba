// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const SnapshotState = {
  SNAPSHOT_STATE_UNSPECIFIED: 'SNAPSHOT_STATE_UNSPECIFIED',
  SNAPSHOT_STATE_CREATING: 'SNAPSHOT_STATE_CREATING',
  SNAPSHOT_STATE_READY: 'SNAPSHOT_STATE_READY',
  SNAPSHOT_STATE_FAILED: 'SNAPSHOT_STATE_FAILED',
  SNAPSHOT_STATE_DELETING: 'SNAPSHOT_STATE_DELETING',
} as const;

export type SnapshotState =
  | 'SNAPSHOT_STATE_UNSPECIFIED'
  | 0
  | 'SNAPSHOT_STATE_CREATING'
  | 1
  | 'SNAPSHOT_STATE_READY'
  | 2
  | 'SNAPSHOT_STATE_FAILED'
  | 3
  | 'SNAPSHOT_STATE_DELETING'
  | 4

export type SnapshotState__Output = typeof SnapshotState[keyof typeof SnapshotState]
