// Original file: proto/coreweave/sandbox/v1/sandbox_template.proto

import type { PartialSandboxSpec as _coreweave_sandbox_v1_PartialSandboxSpec, PartialSandboxSpec__Output as _coreweave_sandbox_v1_PartialSandboxSpec__Output } from '../../../coreweave/sandbox/v1/PartialSandboxSpec.js';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';
import type { Long } from '@grpc/proto-loader';

export interface SandboxTemplate {
  'sandbox_template_id'?: (string);
  'display_name'?: (string);
  'spec'?: (_coreweave_sandbox_v1_PartialSandboxSpec | null);
  'revision'?: (number | string | Long);
  'create_time'?: (_google_protobuf_Timestamp | null);
  'update_time'?: (_google_protobuf_Timestamp | null);
  'delete_time'?: (_google_protobuf_Timestamp | null);
  'create_user_id'?: (string);
  'deleted'?: (boolean);
  'attachments'?: (_google_protobuf_Struct | null);
  'requires_cks'?: (boolean);
}

export interface SandboxTemplate__Output {
  'sandbox_template_id'?: (string);
  'display_name'?: (string);
  'spec'?: (_coreweave_sandbox_v1_PartialSandboxSpec__Output);
  'revision'?: (string);
  'create_time'?: (_google_protobuf_Timestamp__Output);
  'update_time'?: (_google_protobuf_Timestamp__Output);
  'delete_time'?: (_google_protobuf_Timestamp__Output);
  'create_user_id'?: (string);
  'deleted'?: (boolean);
  'attachments'?: (_google_protobuf_Struct__Output);
  'requires_cks'?: (boolean);
}
