// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { ExecStreamInit as _coreweave_sandbox_v1_ExecStreamInit, ExecStreamInit__Output as _coreweave_sandbox_v1_ExecStreamInit__Output } from '../../../coreweave/sandbox/v1/ExecStreamInit.js';
import type { ExecStreamResize as _coreweave_sandbox_v1_ExecStreamResize, ExecStreamResize__Output as _coreweave_sandbox_v1_ExecStreamResize__Output } from '../../../coreweave/sandbox/v1/ExecStreamResize.js';
import type { ExecStreamClose as _coreweave_sandbox_v1_ExecStreamClose, ExecStreamClose__Output as _coreweave_sandbox_v1_ExecStreamClose__Output } from '../../../coreweave/sandbox/v1/ExecStreamClose.js';

export interface ExecStreamRequest {
  'init'?: (_coreweave_sandbox_v1_ExecStreamInit | null);
  'stdin'?: (Buffer | Uint8Array | string);
  'resize'?: (_coreweave_sandbox_v1_ExecStreamResize | null);
  'close'?: (_coreweave_sandbox_v1_ExecStreamClose | null);
  'message'?: "init"|"stdin"|"resize"|"close";
}

export interface ExecStreamRequest__Output {
  'init'?: (_coreweave_sandbox_v1_ExecStreamInit__Output);
  'stdin'?: (Buffer);
  'resize'?: (_coreweave_sandbox_v1_ExecStreamResize__Output);
  'close'?: (_coreweave_sandbox_v1_ExecStreamClose__Output);
  'message'?: "init"|"stdin"|"resize"|"close";
}
