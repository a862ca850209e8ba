// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';
import type { Long } from '@grpc/proto-loader';

export interface StreamLogsRequest {
  'sandbox_id'?: (string);
  'follow'?: (boolean);
  'tail_lines'?: (number);
  'since_time'?: (_google_protobuf_Timestamp | null);
  'container'?: (string);
  'timestamps'?: (boolean);
  'resume_log_session_id'?: (string);
  'resume_log_offset'?: (number | string | Long);
}

export interface StreamLogsRequest__Output {
  'sandbox_id'?: (string);
  'follow'?: (boolean);
  'tail_lines'?: (number);
  'since_time'?: (_google_protobuf_Timestamp__Output);
  'container'?: (string);
  'timestamps'?: (boolean);
  'resume_log_session_id'?: (string);
  'resume_log_offset'?: (string);
}
