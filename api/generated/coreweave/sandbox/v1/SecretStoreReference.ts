// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { SecretMapping as _coreweave_sandbox_v1_SecretMapping, SecretMapping__Output as _coreweave_sandbox_v1_SecretMapping__Output } from '../../../coreweave/sandbox/v1/SecretMapping.js';

export interface SecretStoreReference {
  'store_name'?: (string);
  'secrets'?: (_coreweave_sandbox_v1_SecretMapping)[];
}

export interface SecretStoreReference__Output {
  'store_name'?: (string);
  'secrets'?: (_coreweave_sandbox_v1_SecretMapping__Output)[];
}
