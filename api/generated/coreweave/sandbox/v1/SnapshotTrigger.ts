// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const SnapshotTrigger = {
  SNAPSHOT_TRIGGER_UNSPECIFIED: 'SNAPSHOT_TRIGGER_UNSPECIFIED',
  SNAPSHOT_TRIGGER_MANUAL: 'SNAPSHOT_TRIGGER_MANUAL',
  SNAPSHOT_TRIGGER_ON_DELETE: 'SNAPSHOT_TRIGGER_ON_DELETE',
} as const;

export type SnapshotTrigger =
  | 'SNAPSHOT_TRIGGER_UNSPECIFIED'
  | 0
  | 'SNAPSHOT_TRIGGER_MANUAL'
  | 1
  | 'SNAPSHOT_TRIGGER_ON_DELETE'
  | 2

export type SnapshotTrigger__Output = typeof SnapshotTrigger[keyof typeof SnapshotTrigger]
