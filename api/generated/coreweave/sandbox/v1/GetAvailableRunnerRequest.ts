// Original file: proto/coreweave/sandbox/v1/discovery.proto

import type { RunnerView as _coreweave_sandbox_v1_RunnerView, RunnerView__Output as _coreweave_sandbox_v1_RunnerView__Output } from '../../../coreweave/sandbox/v1/RunnerView.js';

export interface GetAvailableRunnerRequest {
  'runner_id'?: (string);
  'view'?: (_coreweave_sandbox_v1_RunnerView);
  'organization_id'?: (string);
}

export interface GetAvailableRunnerRequest__Output {
  'runner_id'?: (string);
  'view'?: (_coreweave_sandbox_v1_RunnerView__Output);
  'organization_id'?: (string);
}
