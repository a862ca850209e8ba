// Original file: proto/coreweave/sandbox/v1/sandbox_template.proto

import type { SandboxTemplate as _coreweave_sandbox_v1_SandboxTemplate, SandboxTemplate__Output as _coreweave_sandbox_v1_SandboxTemplate__Output } from '../../../coreweave/sandbox/v1/SandboxTemplate.js';

export interface ListSandboxTemplatesResponse {
  'sandbox_templates'?: (_coreweave_sandbox_v1_SandboxTemplate)[];
  'next_page_token'?: (string);
}

export interface ListSandboxTemplatesResponse__Output {
  'sandbox_templates'?: (_coreweave_sandbox_v1_SandboxTemplate__Output)[];
  'next_page_token'?: (string);
}
