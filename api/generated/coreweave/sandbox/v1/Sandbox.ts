// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { SandboxSpec as _coreweave_sandbox_v1_SandboxSpec, SandboxSpec__Output as _coreweave_sandbox_v1_SandboxSpec__Output } from '../../../coreweave/sandbox/v1/SandboxSpec.js';
import type { SandboxStatus as _coreweave_sandbox_v1_SandboxStatus, SandboxStatus__Output as _coreweave_sandbox_v1_SandboxStatus__Output } from '../../../coreweave/sandbox/v1/SandboxStatus.js';
import type { Control as _coreweave_sandbox_v1_Control, Control__Output as _coreweave_sandbox_v1_Control__Output } from '../../../coreweave/sandbox/v1/Control.js';
import type { Long } from '@grpc/proto-loader';

export interface Sandbox {
  'sandbox_id'?: (string);
  'spec'?: (_coreweave_sandbox_v1_SandboxSpec | null);
  'status'?: (_coreweave_sandbox_v1_SandboxStatus | null);
  'source_template_id'?: (string);
  'source_template_revision'?: (number | string | Long);
  'display_name'?: (string);
  'endpoint_share_token'?: (string);
  'control'?: (_coreweave_sandbox_v1_Control);
}

export interface Sandbox__Output {
  'sandbox_id'?: (string);
  'spec'?: (_coreweave_sandbox_v1_SandboxSpec__Output);
  'status'?: (_coreweave_sandbox_v1_SandboxStatus__Output);
  'source_template_id'?: (string);
  'source_template_revision'?: (string);
  'display_name'?: (string);
  'endpoint_share_token'?: (string);
  'control'?: (_coreweave_sandbox_v1_Control__Output);
}
