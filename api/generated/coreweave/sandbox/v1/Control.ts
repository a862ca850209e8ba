// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const Control = {
  CONTROL_UNSPECIFIED: 'CONTROL_UNSPECIFIED',
  CONTROL_PLATFORM: 'CONTROL_PLATFORM',
  CONTROL_CONTAINER_ENGINE: 'CONTROL_CONTAINER_ENGINE',
} as const;

export type Control =
  | 'CONTROL_UNSPECIFIED'
  | 0
  | 'CONTROL_PLATFORM'
  | 1
  | 'CONTROL_CONTAINER_ENGINE'
  | 2

export type Control__Output = typeof Control[keyof typeof Control]
