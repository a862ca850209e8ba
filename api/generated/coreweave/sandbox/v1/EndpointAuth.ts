// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const EndpointAuth = {
  ENDPOINT_AUTH_UNSPECIFIED: 'ENDPOINT_AUTH_UNSPECIFIED',
  ENDPOINT_AUTH_OPEN: 'ENDPOINT_AUTH_OPEN',
  ENDPOINT_AUTH_SHARE_TOKEN: 'ENDPOINT_AUTH_SHARE_TOKEN',
} as const;

export type EndpointAuth =
  | 'ENDPOINT_AUTH_UNSPECIFIED'
  | 0
  | 'ENDPOINT_AUTH_OPEN'
  | 1
  | 'ENDPOINT_AUTH_SHARE_TOKEN'
  | 2

export type EndpointAuth__Output = typeof EndpointAuth[keyof typeof EndpointAuth]
