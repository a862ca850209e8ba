// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const StorageMedium = {
  STORAGE_MEDIUM_UNSPECIFIED: 'STORAGE_MEDIUM_UNSPECIFIED',
  STORAGE_MEDIUM_DISK: 'STORAGE_MEDIUM_DISK',
  STORAGE_MEDIUM_MEMORY: 'STORAGE_MEDIUM_MEMORY',
} as const;

export type StorageMedium =
  | 'STORAGE_MEDIUM_UNSPECIFIED'
  | 0
  | 'STORAGE_MEDIUM_DISK'
  | 1
  | 'STORAGE_MEDIUM_MEMORY'
  | 2

export type StorageMedium__Output = typeof StorageMedium[keyof typeof StorageMedium]
