// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const SandboxDataTransport = {
  SANDBOX_DATA_TRANSPORT_UNSPECIFIED: 'SANDBOX_DATA_TRANSPORT_UNSPECIFIED',
  SANDBOX_DATA_TRANSPORT_DIRECT_MTLS: 'SANDBOX_DATA_TRANSPORT_DIRECT_MTLS',
} as const;

export type SandboxDataTransport =
  | 'SANDBOX_DATA_TRANSPORT_UNSPECIFIED'
  | 0
  | 'SANDBOX_DATA_TRANSPORT_DIRECT_MTLS'
  | 1

export type SandboxDataTransport__Output = typeof SandboxDataTransport[keyof typeof SandboxDataTransport]
