// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Sandbox as _coreweave_sandbox_v1_Sandbox, Sandbox__Output as _coreweave_sandbox_v1_Sandbox__Output } from '../../../coreweave/sandbox/v1/Sandbox.js';

export interface DeleteSandboxResponse {
  'sandbox'?: (_coreweave_sandbox_v1_Sandbox | null);
  'file_system_snapshot_ids'?: (string)[];
}

export interface DeleteSandboxResponse__Output {
  'sandbox'?: (_coreweave_sandbox_v1_Sandbox__Output);
  'file_system_snapshot_ids'?: (string)[];
}
