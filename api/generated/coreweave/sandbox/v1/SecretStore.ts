// Original file: proto/coreweave/sandbox/v1/settings.proto

import type { SecretStoreProviderType as _coreweave_sandbox_v1_SecretStoreProviderType, SecretStoreProviderType__Output as _coreweave_sandbox_v1_SecretStoreProviderType__Output } from '../../../coreweave/sandbox/v1/SecretStoreProviderType.js';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';
import type { WandBStoreConfig as _coreweave_sandbox_v1_WandBStoreConfig, WandBStoreConfig__Output as _coreweave_sandbox_v1_WandBStoreConfig__Output } from '../../../coreweave/sandbox/v1/WandBStoreConfig.js';

export interface SecretStore {
  'name'?: (string);
  'provider_type'?: (_coreweave_sandbox_v1_SecretStoreProviderType);
  'create_time'?: (_google_protobuf_Timestamp | null);
  'update_time'?: (_google_protobuf_Timestamp | null);
  'wandb'?: (_coreweave_sandbox_v1_WandBStoreConfig | null);
  'provider_config'?: "wandb";
}

export interface SecretStore__Output {
  'name'?: (string);
  'provider_type'?: (_coreweave_sandbox_v1_SecretStoreProviderType__Output);
  'create_time'?: (_google_protobuf_Timestamp__Output);
  'update_time'?: (_google_protobuf_Timestamp__Output);
  'wandb'?: (_coreweave_sandbox_v1_WandBStoreConfig__Output);
  'provider_config'?: "wandb";
}
