// Original file: proto/coreweave/sandbox/v1/sandbox_template.proto

import type { SandboxTemplate as _coreweave_sandbox_v1_SandboxTemplate, SandboxTemplate__Output as _coreweave_sandbox_v1_SandboxTemplate__Output } from '../../../coreweave/sandbox/v1/SandboxTemplate.js';

export interface CreateSandboxTemplateRequest {
  'sandbox_template'?: (_coreweave_sandbox_v1_SandboxTemplate | null);
  'request_id'?: (string);
}

export interface CreateSandboxTemplateRequest__Output {
  'sandbox_template'?: (_coreweave_sandbox_v1_SandboxTemplate__Output);
  'request_id'?: (string);
}
