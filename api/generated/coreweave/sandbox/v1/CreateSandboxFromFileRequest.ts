// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { SandboxFileType as _coreweave_sandbox_v1_SandboxFileType, SandboxFileType__Output as _coreweave_sandbox_v1_SandboxFileType__Output } from '../../../coreweave/sandbox/v1/SandboxFileType.js';
import type { ResourceRequirements as _coreweave_sandbox_v1_ResourceRequirements, ResourceRequirements__Output as _coreweave_sandbox_v1_ResourceRequirements__Output } from '../../../coreweave/sandbox/v1/ResourceRequirements.js';
import type { SandboxMode as _coreweave_sandbox_v1_SandboxMode, SandboxMode__Output as _coreweave_sandbox_v1_SandboxMode__Output } from '../../../coreweave/sandbox/v1/SandboxMode.js';
import type { NetworkOptions as _coreweave_sandbox_v1_NetworkOptions, NetworkOptions__Output as _coreweave_sandbox_v1_NetworkOptions__Output } from '../../../coreweave/sandbox/v1/NetworkOptions.js';
import type { ObjectStorageAccess as _coreweave_sandbox_v1_ObjectStorageAccess, ObjectStorageAccess__Output as _coreweave_sandbox_v1_ObjectStorageAccess__Output } from '../../../coreweave/sandbox/v1/ObjectStorageAccess.js';
import type { BuildContextObject as _coreweave_sandbox_v1_BuildContextObject, BuildContextObject__Output as _coreweave_sandbox_v1_BuildContextObject__Output } from '../../../coreweave/sandbox/v1/BuildContextObject.js';
import type { Control as _coreweave_sandbox_v1_Control, Control__Output as _coreweave_sandbox_v1_Control__Output } from '../../../coreweave/sandbox/v1/Control.js';
import type { ImagePullCredentials as _coreweave_sandbox_v1_ImagePullCredentials, ImagePullCredentials__Output as _coreweave_sandbox_v1_ImagePullCredentials__Output } from '../../../coreweave/sandbox/v1/ImagePullCredentials.js';

export interface CreateSandboxFromFileRequest {
  'type'?: (_coreweave_sandbox_v1_SandboxFileType);
  'contents'?: (Buffer | Uint8Array | string);
  'primary_service'?: (string);
  'image_overrides'?: ({[key: string]: string});
  'build_contexts'?: ({[key: string]: Buffer | Uint8Array | string});
  'default_resources'?: (_coreweave_sandbox_v1_ResourceRequirements | null);
  'mode'?: (_coreweave_sandbox_v1_SandboxMode);
  'max_lifetime_seconds'?: (number);
  'tags'?: (string)[];
  'network'?: (_coreweave_sandbox_v1_NetworkOptions | null);
  'network_ids'?: (string)[];
  'object_storage_access'?: (_coreweave_sandbox_v1_ObjectStorageAccess | null);
  'annotations'?: ({[key: string]: string});
  'runner_ids'?: (string)[];
  'request_id'?: (string);
  'display_name'?: (string);
  'build_context_objects'?: ({[key: string]: _coreweave_sandbox_v1_BuildContextObject});
  'builder_sizes'?: ({[key: string]: string});
  'control'?: (_coreweave_sandbox_v1_Control);
  'image_pull_credentials'?: (_coreweave_sandbox_v1_ImagePullCredentials)[];
}

export interface CreateSandboxFromFileRequest__Output {
  'type'?: (_coreweave_sandbox_v1_SandboxFileType__Output);
  'contents'?: (Buffer);
  'primary_service'?: (string);
  'image_overrides'?: ({[key: string]: string});
  'build_contexts'?: ({[key: string]: Buffer});
  'default_resources'?: (_coreweave_sandbox_v1_ResourceRequirements__Output);
  'mode'?: (_coreweave_sandbox_v1_SandboxMode__Output);
  'max_lifetime_seconds'?: (number);
  'tags'?: (string)[];
  'network'?: (_coreweave_sandbox_v1_NetworkOptions__Output);
  'network_ids'?: (string)[];
  'object_storage_access'?: (_coreweave_sandbox_v1_ObjectStorageAccess__Output);
  'annotations'?: ({[key: string]: string});
  'runner_ids'?: (string)[];
  'request_id'?: (string);
  'display_name'?: (string);
  'build_context_objects'?: ({[key: string]: _coreweave_sandbox_v1_BuildContextObject__Output});
  'builder_sizes'?: ({[key: string]: string});
  'control'?: (_coreweave_sandbox_v1_Control__Output);
  'image_pull_credentials'?: (_coreweave_sandbox_v1_ImagePullCredentials__Output)[];
}
