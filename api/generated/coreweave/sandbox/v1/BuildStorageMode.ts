// Original file: proto/coreweave/sandbox/v1/settings.proto

export const BuildStorageMode = {
  BUILD_STORAGE_MODE_UNSPECIFIED: 'BUILD_STORAGE_MODE_UNSPECIFIED',
  BUILD_STORAGE_MODE_MANAGED: 'BUILD_STORAGE_MODE_MANAGED',
  BUILD_STORAGE_MODE_CUSTOMER_OWNED: 'BUILD_STORAGE_MODE_CUSTOMER_OWNED',
} as const;

export type BuildStorageMode =
  | 'BUILD_STORAGE_MODE_UNSPECIFIED'
  | 0
  | 'BUILD_STORAGE_MODE_MANAGED'
  | 1
  | 'BUILD_STORAGE_MODE_CUSTOMER_OWNED'
  | 2

export type BuildStorageMode__Output = typeof BuildStorageMode[keyof typeof BuildStorageMode]
