// Original file: proto/coreweave/sandbox/v1/sandbox.proto


// Original file: proto/coreweave/sandbox/v1/sandbox.proto

export const _coreweave_sandbox_v1_ExecStreamOutput_Stream = {
  STREAM_UNSPECIFIED: 'STREAM_UNSPECIFIED',
  STREAM_STDOUT: 'STREAM_STDOUT',
  STREAM_STDERR: 'STREAM_STDERR',
} as const;

export type _coreweave_sandbox_v1_ExecStreamOutput_Stream =
  | 'STREAM_UNSPECIFIED'
  | 0
  | 'STREAM_STDOUT'
  | 1
  | 'STREAM_STDERR'
  | 2

export type _coreweave_sandbox_v1_ExecStreamOutput_Stream__Output = typeof _coreweave_sandbox_v1_ExecStreamOutput_Stream[keyof typeof _coreweave_sandbox_v1_ExecStreamOutput_Stream]

export interface ExecStreamOutput {
  'stream'?: (_coreweave_sandbox_v1_ExecStreamOutput_Stream);
  'data'?: (Buffer | Uint8Array | string);
}

export interface ExecStreamOutput__Output {
  'stream'?: (_coreweave_sandbox_v1_ExecStreamOutput_Stream__Output);
  'data'?: (Buffer);
}
