// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { PartialContainer as _coreweave_sandbox_v1_PartialContainer, PartialContainer__Output as _coreweave_sandbox_v1_PartialContainer__Output } from '../../../coreweave/sandbox/v1/PartialContainer.js';
import type { SandboxVolume as _coreweave_sandbox_v1_SandboxVolume, SandboxVolume__Output as _coreweave_sandbox_v1_SandboxVolume__Output } from '../../../coreweave/sandbox/v1/SandboxVolume.js';
import type { Service as _coreweave_sandbox_v1_Service, Service__Output as _coreweave_sandbox_v1_Service__Output } from '../../../coreweave/sandbox/v1/Service.js';
import type { ObjectStorageAccess as _coreweave_sandbox_v1_ObjectStorageAccess, ObjectStorageAccess__Output as _coreweave_sandbox_v1_ObjectStorageAccess__Output } from '../../../coreweave/sandbox/v1/ObjectStorageAccess.js';
import type { NetworkOptions as _coreweave_sandbox_v1_NetworkOptions, NetworkOptions__Output as _coreweave_sandbox_v1_NetworkOptions__Output } from '../../../coreweave/sandbox/v1/NetworkOptions.js';
import type { SandboxMode as _coreweave_sandbox_v1_SandboxMode, SandboxMode__Output as _coreweave_sandbox_v1_SandboxMode__Output } from '../../../coreweave/sandbox/v1/SandboxMode.js';
import type { RuntimeClass as _coreweave_sandbox_v1_RuntimeClass, RuntimeClass__Output as _coreweave_sandbox_v1_RuntimeClass__Output } from '../../../coreweave/sandbox/v1/RuntimeClass.js';

export interface PartialSandboxSpec {
  'containers'?: (_coreweave_sandbox_v1_PartialContainer)[];
  'volumes'?: (_coreweave_sandbox_v1_SandboxVolume)[];
  'services'?: (_coreweave_sandbox_v1_Service)[];
  'max_lifetime_seconds'?: (number);
  'network_ids'?: (string)[];
  'object_storage_access'?: (_coreweave_sandbox_v1_ObjectStorageAccess | null);
  'tags'?: (string)[];
  'runner_ids'?: (string)[];
  'network'?: (_coreweave_sandbox_v1_NetworkOptions | null);
  'annotations'?: ({[key: string]: string});
  'instance_type'?: (string);
  'mode'?: (_coreweave_sandbox_v1_SandboxMode);
  'runtime_class'?: (string);
  'network_config_id'?: (string);
  'runtime_class_selection'?: (_coreweave_sandbox_v1_RuntimeClass);
  '_runtime_class_selection'?: "runtime_class_selection";
}

export interface PartialSandboxSpec__Output {
  'containers'?: (_coreweave_sandbox_v1_PartialContainer__Output)[];
  'volumes'?: (_coreweave_sandbox_v1_SandboxVolume__Output)[];
  'services'?: (_coreweave_sandbox_v1_Service__Output)[];
  'max_lifetime_seconds'?: (number);
  'network_ids'?: (string)[];
  'object_storage_access'?: (_coreweave_sandbox_v1_ObjectStorageAccess__Output);
  'tags'?: (string)[];
  'runner_ids'?: (string)[];
  'network'?: (_coreweave_sandbox_v1_NetworkOptions__Output);
  'annotations'?: ({[key: string]: string});
  'instance_type'?: (string);
  'mode'?: (_coreweave_sandbox_v1_SandboxMode__Output);
  'runtime_class'?: (string);
  'network_config_id'?: (string);
  'runtime_class_selection'?: (_coreweave_sandbox_v1_RuntimeClass__Output);
  '_runtime_class_selection'?: "runtime_class_selection";
}
