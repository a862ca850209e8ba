// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const ServiceProtocol = {
  SERVICE_PROTOCOL_UNSPECIFIED: 'SERVICE_PROTOCOL_UNSPECIFIED',
  SERVICE_PROTOCOL_TCP: 'SERVICE_PROTOCOL_TCP',
  SERVICE_PROTOCOL_UDP: 'SERVICE_PROTOCOL_UDP',
  SERVICE_PROTOCOL_SCTP: 'SERVICE_PROTOCOL_SCTP',
} as const;

export type ServiceProtocol =
  | 'SERVICE_PROTOCOL_UNSPECIFIED'
  | 0
  | 'SERVICE_PROTOCOL_TCP'
  | 1
  | 'SERVICE_PROTOCOL_UDP'
  | 2
  | 'SERVICE_PROTOCOL_SCTP'
  | 3

export type ServiceProtocol__Output = typeof ServiceProtocol[keyof typeof ServiceProtocol]
