// Original file: proto/coreweave/sandbox/v1/sandbox_template.proto

import type { SandboxTemplate as _coreweave_sandbox_v1_SandboxTemplate, SandboxTemplate__Output as _coreweave_sandbox_v1_SandboxTemplate__Output } from '../../../coreweave/sandbox/v1/SandboxTemplate.js';
import type { FieldMask as _google_protobuf_FieldMask, FieldMask__Output as _google_protobuf_FieldMask__Output } from '../../../google/protobuf/FieldMask.js';

export interface UpdateSandboxTemplateRequest {
  'sandbox_template_id'?: (string);
  'sandbox_template'?: (_coreweave_sandbox_v1_SandboxTemplate | null);
  'update_mask'?: (_google_protobuf_FieldMask | null);
}

export interface UpdateSandboxTemplateRequest__Output {
  'sandbox_template_id'?: (string);
  'sandbox_template'?: (_coreweave_sandbox_v1_SandboxTemplate__Output);
  'update_mask'?: (_google_protobuf_FieldMask__Output);
}
