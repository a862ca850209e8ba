// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const Visibility = {
  VISIBILITY_UNSPECIFIED: 'VISIBILITY_UNSPECIFIED',
  VISIBILITY_PUBLIC: 'VISIBILITY_PUBLIC',
  VISIBILITY_PRIVATE: 'VISIBILITY_PRIVATE',
  VISIBILITY_CUSTOM: 'VISIBILITY_CUSTOM',
} as const;

export type Visibility =
  | 'VISIBILITY_UNSPECIFIED'
  | 0
  | 'VISIBILITY_PUBLIC'
  | 1
  | 'VISIBILITY_PRIVATE'
  | 2
  | 'VISIBILITY_CUSTOM'
  | 3

export type Visibility__Output = typeof Visibility[keyof typeof Visibility]
