// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { ExecStreamReady as _coreweave_sandbox_v1_ExecStreamReady, ExecStreamReady__Output as _coreweave_sandbox_v1_ExecStreamReady__Output } from '../../../coreweave/sandbox/v1/ExecStreamReady.js';
import type { ExecStreamOutput as _coreweave_sandbox_v1_ExecStreamOutput, ExecStreamOutput__Output as _coreweave_sandbox_v1_ExecStreamOutput__Output } from '../../../coreweave/sandbox/v1/ExecStreamOutput.js';
import type { ExecStreamExit as _coreweave_sandbox_v1_ExecStreamExit, ExecStreamExit__Output as _coreweave_sandbox_v1_ExecStreamExit__Output } from '../../../coreweave/sandbox/v1/ExecStreamExit.js';
import type { ExecStreamError as _coreweave_sandbox_v1_ExecStreamError, ExecStreamError__Output as _coreweave_sandbox_v1_ExecStreamError__Output } from '../../../coreweave/sandbox/v1/ExecStreamError.js';

export interface ExecStreamResponse {
  'ready'?: (_coreweave_sandbox_v1_ExecStreamReady | null);
  'output'?: (_coreweave_sandbox_v1_ExecStreamOutput | null);
  'exit'?: (_coreweave_sandbox_v1_ExecStreamExit | null);
  'error'?: (_coreweave_sandbox_v1_ExecStreamError | null);
  'message'?: "ready"|"output"|"exit"|"error";
}

export interface ExecStreamResponse__Output {
  'ready'?: (_coreweave_sandbox_v1_ExecStreamReady__Output);
  'output'?: (_coreweave_sandbox_v1_ExecStreamOutput__Output);
  'exit'?: (_coreweave_sandbox_v1_ExecStreamExit__Output);
  'error'?: (_coreweave_sandbox_v1_ExecStreamError__Output);
  'message'?: "ready"|"output"|"exit"|"error";
}
