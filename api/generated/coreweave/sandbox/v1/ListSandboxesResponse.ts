// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Sandbox as _coreweave_sandbox_v1_Sandbox, Sandbox__Output as _coreweave_sandbox_v1_Sandbox__Output } from '../../../coreweave/sandbox/v1/Sandbox.js';

export interface ListSandboxesResponse {
  'sandboxes'?: (_coreweave_sandbox_v1_Sandbox)[];
  'next_page_token'?: (string);
}

export interface ListSandboxesResponse__Output {
  'sandboxes'?: (_coreweave_sandbox_v1_Sandbox__Output)[];
  'next_page_token'?: (string);
}
