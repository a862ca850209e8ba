// Original file: proto/coreweave/sandbox/v1/discovery.proto

import type { AvailableRunner as _coreweave_sandbox_v1_AvailableRunner, AvailableRunner__Output as _coreweave_sandbox_v1_AvailableRunner__Output } from '../../../coreweave/sandbox/v1/AvailableRunner.js';

export interface ListAvailableRunnersResponse {
  'runners'?: (_coreweave_sandbox_v1_AvailableRunner)[];
  'next_page_token'?: (string);
}

export interface ListAvailableRunnersResponse__Output {
  'runners'?: (_coreweave_sandbox_v1_AvailableRunner__Output)[];
  'next_page_token'?: (string);
}
