// Original file: proto/coreweave/sandbox/v1/settings.proto

export const SecretStoreProviderType = {
  SECRET_STORE_PROVIDER_TYPE_UNSPECIFIED: 'SECRET_STORE_PROVIDER_TYPE_UNSPECIFIED',
  SECRET_STORE_PROVIDER_TYPE_WANDB: 'SECRET_STORE_PROVIDER_TYPE_WANDB',
} as const;

export type SecretStoreProviderType =
  | 'SECRET_STORE_PROVIDER_TYPE_UNSPECIFIED'
  | 0
  | 'SECRET_STORE_PROVIDER_TYPE_WANDB'
  | 1

export type SecretStoreProviderType__Output = typeof SecretStoreProviderType[keyof typeof SecretStoreProviderType]
