// Original file: proto/coreweave/sandbox/v1/volume.proto

export const VolumeLocality = {
  VOLUME_LOCALITY_UNSPECIFIED: 'VOLUME_LOCALITY_UNSPECIFIED',
  VOLUME_LOCALITY_CLUSTER_LOCAL: 'VOLUME_LOCALITY_CLUSTER_LOCAL',
  VOLUME_LOCALITY_GLOBAL: 'VOLUME_LOCALITY_GLOBAL',
} as const;

export type VolumeLocality =
  | 'VOLUME_LOCALITY_UNSPECIFIED'
  | 0
  | 'VOLUME_LOCALITY_CLUSTER_LOCAL'
  | 1
  | 'VOLUME_LOCALITY_GLOBAL'
  | 2

export type VolumeLocality__Output = typeof VolumeLocality[keyof typeof VolumeLocality]
