// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';

export interface ExecStreamExit {
  'exit_code'?: (number);
  'completed_time'?: (_google_protobuf_Timestamp | null);
}

export interface ExecStreamExit__Output {
  'exit_code'?: (number);
  'completed_time'?: (_google_protobuf_Timestamp__Output);
}
