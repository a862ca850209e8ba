// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { SnapshotState as _coreweave_sandbox_v1_SnapshotState, SnapshotState__Output as _coreweave_sandbox_v1_SnapshotState__Output } from '../../../coreweave/sandbox/v1/SnapshotState.js';
import type { SnapshotTrigger as _coreweave_sandbox_v1_SnapshotTrigger, SnapshotTrigger__Output as _coreweave_sandbox_v1_SnapshotTrigger__Output } from '../../../coreweave/sandbox/v1/SnapshotTrigger.js';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';
import type { Long } from '@grpc/proto-loader';

export interface FileSystemSnapshot {
  'file_system_snapshot_id'?: (string);
  'state'?: (_coreweave_sandbox_v1_SnapshotState);
  'state_reason'?: (string);
  'size_bytes'?: (number | string | Long);
  'source_sandbox_id'?: (string);
  'trigger'?: (_coreweave_sandbox_v1_SnapshotTrigger);
  'create_time'?: (_google_protobuf_Timestamp | null);
  'complete_time'?: (_google_protobuf_Timestamp | null);
  'source_volume_name'?: (string);
  'object_bucket'?: (string);
  'updated_at'?: (_google_protobuf_Timestamp | null);
  'request_id'?: (string);
}

export interface FileSystemSnapshot__Output {
  'file_system_snapshot_id'?: (string);
  'state'?: (_coreweave_sandbox_v1_SnapshotState__Output);
  'state_reason'?: (string);
  'size_bytes'?: (string);
  'source_sandbox_id'?: (string);
  'trigger'?: (_coreweave_sandbox_v1_SnapshotTrigger__Output);
  'create_time'?: (_google_protobuf_Timestamp__Output);
  'complete_time'?: (_google_protobuf_Timestamp__Output);
  'source_volume_name'?: (string);
  'object_bucket'?: (string);
  'updated_at'?: (_google_protobuf_Timestamp__Output);
  'request_id'?: (string);
}
