// Original file: proto/coreweave/sandbox/v1/discovery.proto

import type { Long } from '@grpc/proto-loader';

export interface RunnerResourceSummary {
  'available_cpu_millicores'?: (number | string | Long);
  'available_memory_bytes'?: (number | string | Long);
  'available_gpu_count'?: (number | string | Long);
  'running_sandboxes'?: (number);
}

export interface RunnerResourceSummary__Output {
  'available_cpu_millicores'?: (string);
  'available_memory_bytes'?: (string);
  'available_gpu_count'?: (string);
  'running_sandboxes'?: (number);
}
