// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const SandboxMode = {
  SANDBOX_MODE_UNSPECIFIED: 'SANDBOX_MODE_UNSPECIFIED',
  SANDBOX_MODE_SERVERLESS: 'SANDBOX_MODE_SERVERLESS',
  SANDBOX_MODE_CKS: 'SANDBOX_MODE_CKS',
} as const;

export type SandboxMode =
  | 'SANDBOX_MODE_UNSPECIFIED'
  | 0
  | 'SANDBOX_MODE_SERVERLESS'
  | 1
  | 'SANDBOX_MODE_CKS'
  | 2

export type SandboxMode__Output = typeof SandboxMode[keyof typeof SandboxMode]
