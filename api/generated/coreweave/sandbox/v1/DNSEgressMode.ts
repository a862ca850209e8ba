// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const DNSEgressMode = {
  DNS_EGRESS_MODE_UNSPECIFIED: 'DNS_EGRESS_MODE_UNSPECIFIED',
  DNS_EGRESS_MODE_ALLOW: 'DNS_EGRESS_MODE_ALLOW',
  DNS_EGRESS_MODE_DENY: 'DNS_EGRESS_MODE_DENY',
} as const;

export type DNSEgressMode =
  | 'DNS_EGRESS_MODE_UNSPECIFIED'
  | 0
  | 'DNS_EGRESS_MODE_ALLOW'
  | 1
  | 'DNS_EGRESS_MODE_DENY'
  | 2

export type DNSEgressMode__Output = typeof DNSEgressMode[keyof typeof DNSEgressMode]
