// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Long } from '@grpc/proto-loader';

export interface ResourceUsage {
  'cpu_millicores'?: (number | string | Long);
  'memory_mb'?: (number | string | Long);
  'gpu_count'?: (number | string | Long);
}

export interface ResourceUsage__Output {
  'cpu_millicores'?: (string);
  'memory_mb'?: (string);
  'gpu_count'?: (string);
}
