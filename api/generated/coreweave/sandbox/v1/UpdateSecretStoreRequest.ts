// Original file: proto/coreweave/sandbox/v1/settings.proto

import type { SecretStore as _coreweave_sandbox_v1_SecretStore, SecretStore__Output as _coreweave_sandbox_v1_SecretStore__Output } from '../../../coreweave/sandbox/v1/SecretStore.js';
import type { FieldMask as _google_protobuf_FieldMask, FieldMask__Output as _google_protobuf_FieldMask__Output } from '../../../google/protobuf/FieldMask.js';

export interface UpdateSecretStoreRequest {
  'secret_store'?: (_coreweave_sandbox_v1_SecretStore | null);
  'update_mask'?: (_google_protobuf_FieldMask | null);
}

export interface UpdateSecretStoreRequest__Output {
  'secret_store'?: (_coreweave_sandbox_v1_SecretStore__Output);
  'update_mask'?: (_google_protobuf_FieldMask__Output);
}
