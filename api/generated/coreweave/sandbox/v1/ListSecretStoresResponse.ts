// Original file: proto/coreweave/sandbox/v1/settings.proto

import type { SecretStore as _coreweave_sandbox_v1_SecretStore, SecretStore__Output as _coreweave_sandbox_v1_SecretStore__Output } from '../../../coreweave/sandbox/v1/SecretStore.js';

export interface ListSecretStoresResponse {
  'secret_stores'?: (_coreweave_sandbox_v1_SecretStore)[];
  'next_page_token'?: (string);
}

export interface ListSecretStoresResponse__Output {
  'secret_stores'?: (_coreweave_sandbox_v1_SecretStore__Output)[];
  'next_page_token'?: (string);
}
