// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const SandboxFileType = {
  SANDBOX_FILE_TYPE_UNSPECIFIED: 'SANDBOX_FILE_TYPE_UNSPECIFIED',
  SANDBOX_FILE_TYPE_COMPOSE: 'SANDBOX_FILE_TYPE_COMPOSE',
} as const;

export type SandboxFileType =
  | 'SANDBOX_FILE_TYPE_UNSPECIFIED'
  | 0
  | 'SANDBOX_FILE_TYPE_COMPOSE'
  | 1

export type SandboxFileType__Output = typeof SandboxFileType[keyof typeof SandboxFileType]
