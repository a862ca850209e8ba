// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';

export interface GetSandboxBuildLogsResponse {
  'url'?: (string);
  'expire_time'?: (_google_protobuf_Timestamp | null);
}

export interface GetSandboxBuildLogsResponse__Output {
  'url'?: (string);
  'expire_time'?: (_google_protobuf_Timestamp__Output);
}
