// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Long } from '@grpc/proto-loader';

export interface Gpu {
  'count'?: (number | string | Long);
  'type'?: (string);
  'memory_gb'?: (number | string | Long);
  'selector'?: "type"|"memory_gb";
}

export interface Gpu__Output {
  'count'?: (string);
  'type'?: (string);
  'memory_gb'?: (string);
  'selector'?: "type"|"memory_gb";
}
