// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';
import type { LogStreamError as _coreweave_sandbox_v1_LogStreamError, LogStreamError__Output as _coreweave_sandbox_v1_LogStreamError__Output } from '../../../coreweave/sandbox/v1/LogStreamError.js';
import type { Long } from '@grpc/proto-loader';

export interface LogEntry {
  'data'?: (Buffer | Uint8Array | string);
  'timestamp'?: (_google_protobuf_Timestamp | null);
  'log_session_id'?: (string);
  'next_log_offset'?: (number | string | Long);
  'error'?: (_coreweave_sandbox_v1_LogStreamError | null);
}

export interface LogEntry__Output {
  'data'?: (Buffer);
  'timestamp'?: (_google_protobuf_Timestamp__Output);
  'log_session_id'?: (string);
  'next_log_offset'?: (string);
  'error'?: (_coreweave_sandbox_v1_LogStreamError__Output);
}
