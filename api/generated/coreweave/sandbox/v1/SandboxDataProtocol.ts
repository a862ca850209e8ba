// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const SandboxDataProtocol = {
  SANDBOX_DATA_PROTOCOL_UNSPECIFIED: 'SANDBOX_DATA_PROTOCOL_UNSPECIFIED',
  SANDBOX_DATA_PROTOCOL_CONNECT_H2_V1: 'SANDBOX_DATA_PROTOCOL_CONNECT_H2_V1',
} as const;

export type SandboxDataProtocol =
  | 'SANDBOX_DATA_PROTOCOL_UNSPECIFIED'
  | 0
  | 'SANDBOX_DATA_PROTOCOL_CONNECT_H2_V1'
  | 1

export type SandboxDataProtocol__Output = typeof SandboxDataProtocol[keyof typeof SandboxDataProtocol]
