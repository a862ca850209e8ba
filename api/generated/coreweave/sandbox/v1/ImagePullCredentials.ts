// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { SecretSource as _coreweave_sandbox_v1_SecretSource, SecretSource__Output as _coreweave_sandbox_v1_SecretSource__Output } from '../../../coreweave/sandbox/v1/SecretSource.js';

export interface ImagePullCredentials {
  'registry'?: (string);
  'credentials'?: (_coreweave_sandbox_v1_SecretSource | null);
}

export interface ImagePullCredentials__Output {
  'registry'?: (string);
  'credentials'?: (_coreweave_sandbox_v1_SecretSource__Output);
}
