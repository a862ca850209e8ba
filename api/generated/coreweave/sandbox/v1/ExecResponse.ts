// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Long } from '@grpc/proto-loader';

export interface ExecResponse {
  'stdout'?: (Buffer | Uint8Array | string);
  'stderr'?: (Buffer | Uint8Array | string);
  'exit_code'?: (number);
  'stdout_truncated'?: (boolean);
  'stderr_truncated'?: (boolean);
  'stdout_bytes_produced'?: (number | string | Long);
  'stderr_bytes_produced'?: (number | string | Long);
}

export interface ExecResponse__Output {
  'stdout'?: (Buffer);
  'stderr'?: (Buffer);
  'exit_code'?: (number);
  'stdout_truncated'?: (boolean);
  'stderr_truncated'?: (boolean);
  'stdout_bytes_produced'?: (string);
  'stderr_bytes_produced'?: (string);
}
