// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { SandboxDataPermission as _coreweave_sandbox_v1_SandboxDataPermission, SandboxDataPermission__Output as _coreweave_sandbox_v1_SandboxDataPermission__Output } from '../../../coreweave/sandbox/v1/SandboxDataPermission.js';

export interface ConnectSandboxRequest {
  'sandbox_id'?: (string);
  'csr_der'?: (Buffer | Uint8Array | string);
  'requested_permissions'?: (_coreweave_sandbox_v1_SandboxDataPermission)[];
}

export interface ConnectSandboxRequest__Output {
  'sandbox_id'?: (string);
  'csr_der'?: (Buffer);
  'requested_permissions'?: (_coreweave_sandbox_v1_SandboxDataPermission__Output)[];
}
