// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Sandbox as _coreweave_sandbox_v1_Sandbox, Sandbox__Output as _coreweave_sandbox_v1_Sandbox__Output } from '../../../coreweave/sandbox/v1/Sandbox.js';

export interface CreateSandboxRequest {
  'sandbox'?: (_coreweave_sandbox_v1_Sandbox | null);
  'request_id'?: (string);
}

export interface CreateSandboxRequest__Output {
  'sandbox'?: (_coreweave_sandbox_v1_Sandbox__Output);
  'request_id'?: (string);
}
