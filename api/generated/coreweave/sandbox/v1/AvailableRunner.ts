// Original file: proto/coreweave/sandbox/v1/discovery.proto

import type { RunnerCapabilitySummary as _coreweave_sandbox_v1_RunnerCapabilitySummary, RunnerCapabilitySummary__Output as _coreweave_sandbox_v1_RunnerCapabilitySummary__Output } from '../../../coreweave/sandbox/v1/RunnerCapabilitySummary.js';
import type { RunnerResourceSummary as _coreweave_sandbox_v1_RunnerResourceSummary, RunnerResourceSummary__Output as _coreweave_sandbox_v1_RunnerResourceSummary__Output } from '../../../coreweave/sandbox/v1/RunnerResourceSummary.js';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';

export interface AvailableRunner {
  'runner_id'?: (string);
  'runner_group_id'?: (string);
  'tags'?: (string)[];
  'healthy'?: (boolean);
  'capabilities'?: (_coreweave_sandbox_v1_RunnerCapabilitySummary | null);
  'resources'?: (_coreweave_sandbox_v1_RunnerResourceSummary | null);
  'connected_at'?: (_google_protobuf_Timestamp | null);
  'is_shared'?: (boolean);
  'organization_id'?: (string);
}

export interface AvailableRunner__Output {
  'runner_id'?: (string);
  'runner_group_id'?: (string);
  'tags'?: (string)[];
  'healthy'?: (boolean);
  'capabilities'?: (_coreweave_sandbox_v1_RunnerCapabilitySummary__Output);
  'resources'?: (_coreweave_sandbox_v1_RunnerResourceSummary__Output);
  'connected_at'?: (_google_protobuf_Timestamp__Output);
  'is_shared'?: (boolean);
  'organization_id'?: (string);
}
