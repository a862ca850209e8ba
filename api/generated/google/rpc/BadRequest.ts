// Original file: proto/google/rpc/error_details.proto

import type { LocalizedMessage as _google_rpc_LocalizedMessage, LocalizedMessage__Output as _google_rpc_LocalizedMessage__Output } from '../../google/rpc/LocalizedMessage.js';

export interface _google_rpc_BadRequest_FieldViolation {
  'field'?: (string);
  'description'?: (string);
  'reason'?: (string);
  'localized_message'?: (_google_rpc_LocalizedMessage | null);
}

export interface _google_rpc_BadRequest_FieldViolation__Output {
  'field'?: (string);
  'description'?: (string);
  'reason'?: (string);
  'localized_message'?: (_google_rpc_LocalizedMessage__Output);
}

export interface BadRequest {
  'field_violations'?: (_google_rpc_BadRequest_FieldViolation)[];
}

export interface BadRequest__Output {
  'field_violations'?: (_google_rpc_BadRequest_FieldViolation__Output)[];
}
