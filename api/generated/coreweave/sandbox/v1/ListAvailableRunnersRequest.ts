// Original file: proto/coreweave/sandbox/v1/discovery.proto

import type { RunnerView as _coreweave_sandbox_v1_RunnerView, RunnerView__Output as _coreweave_sandbox_v1_RunnerView__Output } from '../../../coreweave/sandbox/v1/RunnerView.js';
import type { Visibility as _coreweave_sandbox_v1_Visibility, Visibility__Output as _coreweave_sandbox_v1_Visibility__Output } from '../../../coreweave/sandbox/v1/Visibility.js';

export interface ListAvailableRunnersRequest {
  'runner_group_id'?: (string);
  'gpu_type'?: (string);
  'architecture'?: (string);
  'healthy_only'?: (boolean);
  'page_size'?: (number);
  'page_token'?: (string);
  'view'?: (_coreweave_sandbox_v1_RunnerView);
  'service_visibility'?: (_coreweave_sandbox_v1_Visibility);
}

export interface ListAvailableRunnersRequest__Output {
  'runner_group_id'?: (string);
  'gpu_type'?: (string);
  'architecture'?: (string);
  'healthy_only'?: (boolean);
  'page_size'?: (number);
  'page_token'?: (string);
  'view'?: (_coreweave_sandbox_v1_RunnerView__Output);
  'service_visibility'?: (_coreweave_sandbox_v1_Visibility__Output);
}
