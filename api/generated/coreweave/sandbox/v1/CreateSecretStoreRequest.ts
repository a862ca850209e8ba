// Original file: proto/coreweave/sandbox/v1/settings.proto

import type { SecretStore as _coreweave_sandbox_v1_SecretStore, SecretStore__Output as _coreweave_sandbox_v1_SecretStore__Output } from '../../../coreweave/sandbox/v1/SecretStore.js';

export interface CreateSecretStoreRequest {
  'secret_store'?: (_coreweave_sandbox_v1_SecretStore | null);
  'request_id'?: (string);
}

export interface CreateSecretStoreRequest__Output {
  'secret_store'?: (_coreweave_sandbox_v1_SecretStore__Output);
  'request_id'?: (string);
}
