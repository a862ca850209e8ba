// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { ObjectStoragePermission as _coreweave_sandbox_v1_ObjectStoragePermission, ObjectStoragePermission__Output as _coreweave_sandbox_v1_ObjectStoragePermission__Output } from '../../../coreweave/sandbox/v1/ObjectStoragePermission.js';

export interface ObjectStorageAccess {
  'buckets'?: (string)[];
  'permission'?: (_coreweave_sandbox_v1_ObjectStoragePermission);
  'object_prefix'?: (string);
}

export interface ObjectStorageAccess__Output {
  'buckets'?: (string)[];
  'permission'?: (_coreweave_sandbox_v1_ObjectStoragePermission__Output);
  'object_prefix'?: (string);
}
