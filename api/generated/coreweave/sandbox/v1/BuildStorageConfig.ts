// Original file: proto/coreweave/sandbox/v1/settings.proto

import type { BuildStorageMode as _coreweave_sandbox_v1_BuildStorageMode, BuildStorageMode__Output as _coreweave_sandbox_v1_BuildStorageMode__Output } from '../../../coreweave/sandbox/v1/BuildStorageMode.js';
import type { Long } from '@grpc/proto-loader';

export interface BuildStorageConfig {
  'enabled'?: (boolean);
  'mode'?: (_coreweave_sandbox_v1_BuildStorageMode);
  'bucket_name'?: (string);
  'location'?: (string);
  'registry_namespace'?: (string);
  'billing_reference'?: (string);
  'etag'?: (string);
  'revision'?: (number | string | Long);
  'effective_bucket_name'?: (string);
}

export interface BuildStorageConfig__Output {
  'enabled'?: (boolean);
  'mode'?: (_coreweave_sandbox_v1_BuildStorageMode__Output);
  'bucket_name'?: (string);
  'location'?: (string);
  'registry_namespace'?: (string);
  'billing_reference'?: (string);
  'etag'?: (string);
  'revision'?: (string);
  'effective_bucket_name'?: (string);
}
