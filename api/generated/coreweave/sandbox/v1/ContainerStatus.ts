// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { State as _coreweave_sandbox_v1_State, State__Output as _coreweave_sandbox_v1_State__Output } from '../../../coreweave/sandbox/v1/State.js';

export interface ContainerStatus {
  'name'?: (string);
  'state'?: (_coreweave_sandbox_v1_State);
  'exit_code'?: (number);
  'restart_count'?: (number);
}

export interface ContainerStatus__Output {
  'name'?: (string);
  'state'?: (_coreweave_sandbox_v1_State__Output);
  'exit_code'?: (number);
  'restart_count'?: (number);
}
