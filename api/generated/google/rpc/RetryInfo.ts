// Original file: proto/google/rpc/error_details.proto

import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../google/protobuf/Duration.js';

export interface RetryInfo {
  'retry_delay'?: (_google_protobuf_Duration | null);
}

export interface RetryInfo__Output {
  'retry_delay'?: (_google_protobuf_Duration__Output);
}
