// Original file: proto/coreweave/sandbox/v1/volume.proto

export const VolumeState = {
  VOLUME_STATE_UNSPECIFIED: 'VOLUME_STATE_UNSPECIFIED',
  VOLUME_STATE_VALIDATING: 'VOLUME_STATE_VALIDATING',
  VOLUME_STATE_READY: 'VOLUME_STATE_READY',
  VOLUME_STATE_ERROR: 'VOLUME_STATE_ERROR',
  VOLUME_STATE_DELETING: 'VOLUME_STATE_DELETING',
} as const;

export type VolumeState =
  | 'VOLUME_STATE_UNSPECIFIED'
  | 0
  | 'VOLUME_STATE_VALIDATING'
  | 1
  | 'VOLUME_STATE_READY'
  | 2
  | 'VOLUME_STATE_ERROR'
  | 3
  | 'VOLUME_STATE_DELETING'
  | 4

export type VolumeState__Output = typeof VolumeState[keyof typeof VolumeState]
