// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { PartialSandboxSpec as _coreweave_sandbox_v1_PartialSandboxSpec, PartialSandboxSpec__Output as _coreweave_sandbox_v1_PartialSandboxSpec__Output } from '../../../coreweave/sandbox/v1/PartialSandboxSpec.js';

export interface CreateSandboxFromTemplateRequest {
  'template_id'?: (string);
  'overrides'?: (_coreweave_sandbox_v1_PartialSandboxSpec | null);
  'request_id'?: (string);
  'display_name'?: (string);
}

export interface CreateSandboxFromTemplateRequest__Output {
  'template_id'?: (string);
  'overrides'?: (_coreweave_sandbox_v1_PartialSandboxSpec__Output);
  'request_id'?: (string);
  'display_name'?: (string);
}
