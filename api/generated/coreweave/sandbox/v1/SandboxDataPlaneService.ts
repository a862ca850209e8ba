// Original file: proto/coreweave/sandbox/v1/sandbox_data_plane.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ExecRequest as _coreweave_sandbox_v1_ExecRequest, ExecRequest__Output as _coreweave_sandbox_v1_ExecRequest__Output } from '../../../coreweave/sandbox/v1/ExecRequest.js';
import type { ExecResponse as _coreweave_sandbox_v1_ExecResponse, ExecResponse__Output as _coreweave_sandbox_v1_ExecResponse__Output } from '../../../coreweave/sandbox/v1/ExecResponse.js';
import type { ExecStreamRequest as _coreweave_sandbox_v1_ExecStreamRequest, ExecStreamRequest__Output as _coreweave_sandbox_v1_ExecStreamRequest__Output } from '../../../coreweave/sandbox/v1/ExecStreamRequest.js';
import type { ExecStreamResponse as _coreweave_sandbox_v1_ExecStreamResponse, ExecStreamResponse__Output as _coreweave_sandbox_v1_ExecStreamResponse__Output } from '../../../coreweave/sandbox/v1/ExecStreamResponse.js';
import type { LogEntry as _coreweave_sandbox_v1_LogEntry, LogEntry__Output as _coreweave_sandbox_v1_LogEntry__Output } from '../../../coreweave/sandbox/v1/LogEntry.js';
import type { ReadFileRequest as _coreweave_sandbox_v1_ReadFileRequest, ReadFileRequest__Output as _coreweave_sandbox_v1_ReadFileRequest__Output } from '../../../coreweave/sandbox/v1/ReadFileRequest.js';
import type { ReadFileResponse as _coreweave_sandbox_v1_ReadFileResponse, ReadFileResponse__Output as _coreweave_sandbox_v1_ReadFileResponse__Output } from '../../../coreweave/sandbox/v1/ReadFileResponse.js';
import type { StreamLogsRequest as _coreweave_sandbox_v1_StreamLogsRequest, StreamLogsRequest__Output as _coreweave_sandbox_v1_StreamLogsRequest__Output } from '../../../coreweave/sandbox/v1/StreamLogsRequest.js';
import type { WriteFileRequest as _coreweave_sandbox_v1_WriteFileRequest, WriteFileRequest__Output as _coreweave_sandbox_v1_WriteFileRequest__Output } from '../../../coreweave/sandbox/v1/WriteFileRequest.js';
import type { WriteFileResponse as _coreweave_sandbox_v1_WriteFileResponse, WriteFileResponse__Output as _coreweave_sandbox_v1_WriteFileResponse__Output } from '../../../coreweave/sandbox/v1/WriteFileResponse.js';

export interface SandboxDataPlaneServiceClient extends grpc.Client {
  Exec(argument: _coreweave_sandbox_v1_ExecRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  Exec(argument: _coreweave_sandbox_v1_ExecRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  Exec(argument: _coreweave_sandbox_v1_ExecRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  Exec(argument: _coreweave_sandbox_v1_ExecRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _coreweave_sandbox_v1_ExecRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _coreweave_sandbox_v1_ExecRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _coreweave_sandbox_v1_ExecRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _coreweave_sandbox_v1_ExecRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  
  ReadFile(argument: _coreweave_sandbox_v1_ReadFileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ReadFileResponse__Output>): grpc.ClientUnaryCall;
  ReadFile(argument: _coreweave_sandbox_v1_ReadFileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ReadFileResponse__Output>): grpc.ClientUnaryCall;
  ReadFile(argument: _coreweave_sandbox_v1_ReadFileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ReadFileResponse__Output>): grpc.ClientUnaryCall;
  ReadFile(argument: _coreweave_sandbox_v1_ReadFileRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ReadFileResponse__Output>): grpc.ClientUnaryCall;
  readFile(argument: _coreweave_sandbox_v1_ReadFileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ReadFileResponse__Output>): grpc.ClientUnaryCall;
  readFile(argument: _coreweave_sandbox_v1_ReadFileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ReadFileResponse__Output>): grpc.ClientUnaryCall;
  readFile(argument: _coreweave_sandbox_v1_ReadFileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ReadFileResponse__Output>): grpc.ClientUnaryCall;
  readFile(argument: _coreweave_sandbox_v1_ReadFileRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ReadFileResponse__Output>): grpc.ClientUnaryCall;
  
  StreamExec(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_coreweave_sandbox_v1_ExecStreamRequest, _coreweave_sandbox_v1_ExecStreamResponse__Output>;
  StreamExec(options?: grpc.CallOptions): grpc.ClientDuplexStream<_coreweave_sandbox_v1_ExecStreamRequest, _coreweave_sandbox_v1_ExecStreamResponse__Output>;
  streamExec(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_coreweave_sandbox_v1_ExecStreamRequest, _coreweave_sandbox_v1_ExecStreamResponse__Output>;
  streamExec(options?: grpc.CallOptions): grpc.ClientDuplexStream<_coreweave_sandbox_v1_ExecStreamRequest, _coreweave_sandbox_v1_ExecStreamResponse__Output>;
  
  StreamLogs(argument: _coreweave_sandbox_v1_StreamLogsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_coreweave_sandbox_v1_LogEntry__Output>;
  StreamLogs(argument: _coreweave_sandbox_v1_StreamLogsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_coreweave_sandbox_v1_LogEntry__Output>;
  streamLogs(argument: _coreweave_sandbox_v1_StreamLogsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_coreweave_sandbox_v1_LogEntry__Output>;
  streamLogs(argument: _coreweave_sandbox_v1_StreamLogsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_coreweave_sandbox_v1_LogEntry__Output>;
  
  WriteFile(argument: _coreweave_sandbox_v1_WriteFileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_WriteFileResponse__Output>): grpc.ClientUnaryCall;
  WriteFile(argument: _coreweave_sandbox_v1_WriteFileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_WriteFileResponse__Output>): grpc.ClientUnaryCall;
  WriteFile(argument: _coreweave_sandbox_v1_WriteFileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_WriteFileResponse__Output>): grpc.ClientUnaryCall;
  WriteFile(argument: _coreweave_sandbox_v1_WriteFileRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_WriteFileResponse__Output>): grpc.ClientUnaryCall;
  writeFile(argument: _coreweave_sandbox_v1_WriteFileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_WriteFileResponse__Output>): grpc.ClientUnaryCall;
  writeFile(argument: _coreweave_sandbox_v1_WriteFileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_WriteFileResponse__Output>): grpc.ClientUnaryCall;
  writeFile(argument: _coreweave_sandbox_v1_WriteFileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_WriteFileResponse__Output>): grpc.ClientUnaryCall;
  writeFile(argument: _coreweave_sandbox_v1_WriteFileRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_WriteFileResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface SandboxDataPlaneServiceHandlers extends grpc.UntypedServiceImplementation {
  Exec: grpc.handleUnaryCall<_coreweave_sandbox_v1_ExecRequest__Output, _coreweave_sandbox_v1_ExecResponse>;
  
  ReadFile: grpc.handleUnaryCall<_coreweave_sandbox_v1_ReadFileRequest__Output, _coreweave_sandbox_v1_ReadFileResponse>;
  
  StreamExec: grpc.handleBidiStreamingCall<_coreweave_sandbox_v1_ExecStreamRequest__Output, _coreweave_sandbox_v1_ExecStreamResponse>;
  
  StreamLogs: grpc.handleServerStreamingCall<_coreweave_sandbox_v1_StreamLogsRequest__Output, _coreweave_sandbox_v1_LogEntry>;
  
  WriteFile: grpc.handleUnaryCall<_coreweave_sandbox_v1_WriteFileRequest__Output, _coreweave_sandbox_v1_WriteFileResponse>;
  
}

export interface SandboxDataPlaneServiceDefinition extends grpc.ServiceDefinition {
  Exec: MethodDefinition<_coreweave_sandbox_v1_ExecRequest, _coreweave_sandbox_v1_ExecResponse, _coreweave_sandbox_v1_ExecRequest__Output, _coreweave_sandbox_v1_ExecResponse__Output>
  ReadFile: MethodDefinition<_coreweave_sandbox_v1_ReadFileRequest, _coreweave_sandbox_v1_ReadFileResponse, _coreweave_sandbox_v1_ReadFileRequest__Output, _coreweave_sandbox_v1_ReadFileResponse__Output>
  StreamExec: MethodDefinition<_coreweave_sandbox_v1_ExecStreamRequest, _coreweave_sandbox_v1_ExecStreamResponse, _coreweave_sandbox_v1_ExecStreamRequest__Output, _coreweave_sandbox_v1_ExecStreamResponse__Output>
  StreamLogs: MethodDefinition<_coreweave_sandbox_v1_StreamLogsRequest, _coreweave_sandbox_v1_LogEntry, _coreweave_sandbox_v1_StreamLogsRequest__Output, _coreweave_sandbox_v1_LogEntry__Output>
  WriteFile: MethodDefinition<_coreweave_sandbox_v1_WriteFileRequest, _coreweave_sandbox_v1_WriteFileResponse, _coreweave_sandbox_v1_WriteFileRequest__Output, _coreweave_sandbox_v1_WriteFileResponse__Output>
}
