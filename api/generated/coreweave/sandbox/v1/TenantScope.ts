// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const TenantScope = {
  TENANT_SCOPE_UNSPECIFIED: 'TENANT_SCOPE_UNSPECIFIED',
  TENANT_SCOPE_SAME_USER: 'TENANT_SCOPE_SAME_USER',
  TENANT_SCOPE_SAME_ORG: 'TENANT_SCOPE_SAME_ORG',
  TENANT_SCOPE_SANDBOX_NETWORK: 'TENANT_SCOPE_SANDBOX_NETWORK',
} as const;

export type TenantScope =
  | 'TENANT_SCOPE_UNSPECIFIED'
  | 0
  | 'TENANT_SCOPE_SAME_USER'
  | 1
  | 'TENANT_SCOPE_SAME_ORG'
  | 2
  | 'TENANT_SCOPE_SANDBOX_NETWORK'
  | 3

export type TenantScope__Output = typeof TenantScope[keyof typeof TenantScope]
