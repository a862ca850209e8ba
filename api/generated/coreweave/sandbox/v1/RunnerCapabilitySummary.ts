// Original file: proto/coreweave/sandbox/v1/discovery.proto

import type { Visibility as _coreweave_sandbox_v1_Visibility, Visibility__Output as _coreweave_sandbox_v1_Visibility__Output } from '../../../coreweave/sandbox/v1/Visibility.js';
import type { Long } from '@grpc/proto-loader';

export interface RunnerCapabilitySummary {
  'max_cpu_millicores'?: (number | string | Long);
  'max_memory_bytes'?: (number | string | Long);
  'max_gpu_count'?: (number | string | Long);
  'supported_gpu_types'?: (string)[];
  'supported_architectures'?: (string)[];
  'supports_privileged'?: (boolean);
  'available_storage_classes'?: (string)[];
  'supported_service_visibilities'?: (_coreweave_sandbox_v1_Visibility)[];
}

export interface RunnerCapabilitySummary__Output {
  'max_cpu_millicores'?: (string);
  'max_memory_bytes'?: (string);
  'max_gpu_count'?: (string);
  'supported_gpu_types'?: (string)[];
  'supported_architectures'?: (string)[];
  'supports_privileged'?: (boolean);
  'available_storage_classes'?: (string)[];
  'supported_service_visibilities'?: (_coreweave_sandbox_v1_Visibility__Output)[];
}
