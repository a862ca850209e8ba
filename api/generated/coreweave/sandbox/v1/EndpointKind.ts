// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const EndpointKind = {
  ENDPOINT_KIND_UNSPECIFIED: 'ENDPOINT_KIND_UNSPECIFIED',
  ENDPOINT_KIND_HTTPS: 'ENDPOINT_KIND_HTTPS',
  ENDPOINT_KIND_TLS_PASSTHROUGH: 'ENDPOINT_KIND_TLS_PASSTHROUGH',
} as const;

export type EndpointKind =
  | 'ENDPOINT_KIND_UNSPECIFIED'
  | 0
  | 'ENDPOINT_KIND_HTTPS'
  | 1
  | 'ENDPOINT_KIND_TLS_PASSTHROUGH'
  | 2

export type EndpointKind__Output = typeof EndpointKind[keyof typeof EndpointKind]
