// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Resources as _coreweave_sandbox_v1_Resources, Resources__Output as _coreweave_sandbox_v1_Resources__Output } from '../../../coreweave/sandbox/v1/Resources.js';
import type { FileMount as _coreweave_sandbox_v1_FileMount, FileMount__Output as _coreweave_sandbox_v1_FileMount__Output } from '../../../coreweave/sandbox/v1/FileMount.js';
import type { VolumeMount as _coreweave_sandbox_v1_VolumeMount, VolumeMount__Output as _coreweave_sandbox_v1_VolumeMount__Output } from '../../../coreweave/sandbox/v1/VolumeMount.js';
import type { SecretStoreReference as _coreweave_sandbox_v1_SecretStoreReference, SecretStoreReference__Output as _coreweave_sandbox_v1_SecretStoreReference__Output } from '../../../coreweave/sandbox/v1/SecretStoreReference.js';
import type { ResourceRequirements as _coreweave_sandbox_v1_ResourceRequirements, ResourceRequirements__Output as _coreweave_sandbox_v1_ResourceRequirements__Output } from '../../../coreweave/sandbox/v1/ResourceRequirements.js';
import type { SecurityContext as _coreweave_sandbox_v1_SecurityContext, SecurityContext__Output as _coreweave_sandbox_v1_SecurityContext__Output } from '../../../coreweave/sandbox/v1/SecurityContext.js';
import type { ImagePullCredentials as _coreweave_sandbox_v1_ImagePullCredentials, ImagePullCredentials__Output as _coreweave_sandbox_v1_ImagePullCredentials__Output } from '../../../coreweave/sandbox/v1/ImagePullCredentials.js';
import type { Probe as _coreweave_sandbox_v1_Probe, Probe__Output as _coreweave_sandbox_v1_Probe__Output } from '../../../coreweave/sandbox/v1/Probe.js';

export interface PartialContainer {
  'name'?: (string);
  'image'?: (string);
  'command'?: (string);
  'args'?: (string)[];
  'environment_variables'?: ({[key: string]: string});
  'resources'?: (_coreweave_sandbox_v1_Resources | null);
  'files'?: (_coreweave_sandbox_v1_FileMount)[];
  'volume_mounts'?: (_coreweave_sandbox_v1_VolumeMount)[];
  'secret_stores'?: (_coreweave_sandbox_v1_SecretStoreReference)[];
  'working_dir'?: (string);
  'resource_requirements'?: (_coreweave_sandbox_v1_ResourceRequirements | null);
  'security_context'?: (_coreweave_sandbox_v1_SecurityContext | null);
  'image_pull_credentials'?: (_coreweave_sandbox_v1_ImagePullCredentials | null);
  'primary'?: (boolean);
  'startup_probe'?: (_coreweave_sandbox_v1_Probe | null);
  '_primary'?: "primary";
}

export interface PartialContainer__Output {
  'name'?: (string);
  'image'?: (string);
  'command'?: (string);
  'args'?: (string)[];
  'environment_variables'?: ({[key: string]: string});
  'resources'?: (_coreweave_sandbox_v1_Resources__Output);
  'files'?: (_coreweave_sandbox_v1_FileMount__Output)[];
  'volume_mounts'?: (_coreweave_sandbox_v1_VolumeMount__Output)[];
  'secret_stores'?: (_coreweave_sandbox_v1_SecretStoreReference__Output)[];
  'working_dir'?: (string);
  'resource_requirements'?: (_coreweave_sandbox_v1_ResourceRequirements__Output);
  'security_context'?: (_coreweave_sandbox_v1_SecurityContext__Output);
  'image_pull_credentials'?: (_coreweave_sandbox_v1_ImagePullCredentials__Output);
  'primary'?: (boolean);
  'startup_probe'?: (_coreweave_sandbox_v1_Probe__Output);
  '_primary'?: "primary";
}
