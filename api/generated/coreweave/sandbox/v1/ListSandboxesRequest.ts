// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { State as _coreweave_sandbox_v1_State, State__Output as _coreweave_sandbox_v1_State__Output } from '../../../coreweave/sandbox/v1/State.js';
import type { SortDirection as _coreweave_sandbox_v1_SortDirection, SortDirection__Output as _coreweave_sandbox_v1_SortDirection__Output } from '../../../coreweave/sandbox/v1/SortDirection.js';

export interface ListSandboxesRequest {
  'page_size'?: (number);
  'page_token'?: (string);
  'tags'?: (string)[];
  'state'?: (_coreweave_sandbox_v1_State);
  'show_terminated'?: (boolean);
  'runner_ids'?: (string)[];
  'volume_ids'?: (string)[];
  'sort_direction'?: (_coreweave_sandbox_v1_SortDirection);
}

export interface ListSandboxesRequest__Output {
  'page_size'?: (number);
  'page_token'?: (string);
  'tags'?: (string)[];
  'state'?: (_coreweave_sandbox_v1_State__Output);
  'show_terminated'?: (boolean);
  'runner_ids'?: (string)[];
  'volume_ids'?: (string)[];
  'sort_direction'?: (_coreweave_sandbox_v1_SortDirection__Output);
}
