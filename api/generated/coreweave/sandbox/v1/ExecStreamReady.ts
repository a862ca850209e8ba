// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';

export interface ExecStreamReady {
  'ready_time'?: (_google_protobuf_Timestamp | null);
}

export interface ExecStreamReady__Output {
  'ready_time'?: (_google_protobuf_Timestamp__Output);
}
