// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const ObjectStoragePermission = {
  OBJECT_STORAGE_PERMISSION_UNSPECIFIED: 'OBJECT_STORAGE_PERMISSION_UNSPECIFIED',
  OBJECT_STORAGE_PERMISSION_READ: 'OBJECT_STORAGE_PERMISSION_READ',
  OBJECT_STORAGE_PERMISSION_READ_WRITE: 'OBJECT_STORAGE_PERMISSION_READ_WRITE',
} as const;

export type ObjectStoragePermission =
  | 'OBJECT_STORAGE_PERMISSION_UNSPECIFIED'
  | 0
  | 'OBJECT_STORAGE_PERMISSION_READ'
  | 1
  | 'OBJECT_STORAGE_PERMISSION_READ_WRITE'
  | 2

export type ObjectStoragePermission__Output = typeof ObjectStoragePermission[keyof typeof ObjectStoragePermission]
