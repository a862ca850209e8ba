// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ConnectSandboxRequest as _coreweave_sandbox_v1_ConnectSandboxRequest, ConnectSandboxRequest__Output as _coreweave_sandbox_v1_ConnectSandboxRequest__Output } from '../../../coreweave/sandbox/v1/ConnectSandboxRequest.js';
import type { CreateFileSystemSnapshotRequest as _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest, CreateFileSystemSnapshotRequest__Output as _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest__Output } from '../../../coreweave/sandbox/v1/CreateFileSystemSnapshotRequest.js';
import type { CreateSandboxFromFileRequest as _coreweave_sandbox_v1_CreateSandboxFromFileRequest, CreateSandboxFromFileRequest__Output as _coreweave_sandbox_v1_CreateSandboxFromFileRequest__Output } from '../../../coreweave/sandbox/v1/CreateSandboxFromFileRequest.js';
import type { CreateSandboxFromTemplateRequest as _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest, CreateSandboxFromTemplateRequest__Output as _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest__Output } from '../../../coreweave/sandbox/v1/CreateSandboxFromTemplateRequest.js';
import type { CreateSandboxRequest as _coreweave_sandbox_v1_CreateSandboxRequest, CreateSandboxRequest__Output as _coreweave_sandbox_v1_CreateSandboxRequest__Output } from '../../../coreweave/sandbox/v1/CreateSandboxRequest.js';
import type { DeleteFileSystemSnapshotRequest as _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest, DeleteFileSystemSnapshotRequest__Output as _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest__Output } from '../../../coreweave/sandbox/v1/DeleteFileSystemSnapshotRequest.js';
import type { DeleteSandboxRequest as _coreweave_sandbox_v1_DeleteSandboxRequest, DeleteSandboxRequest__Output as _coreweave_sandbox_v1_DeleteSandboxRequest__Output } from '../../../coreweave/sandbox/v1/DeleteSandboxRequest.js';
import type { DeleteSandboxResponse as _coreweave_sandbox_v1_DeleteSandboxResponse, DeleteSandboxResponse__Output as _coreweave_sandbox_v1_DeleteSandboxResponse__Output } from '../../../coreweave/sandbox/v1/DeleteSandboxResponse.js';
import type { ExecRequest as _coreweave_sandbox_v1_ExecRequest, ExecRequest__Output as _coreweave_sandbox_v1_ExecRequest__Output } from '../../../coreweave/sandbox/v1/ExecRequest.js';
import type { ExecResponse as _coreweave_sandbox_v1_ExecResponse, ExecResponse__Output as _coreweave_sandbox_v1_ExecResponse__Output } from '../../../coreweave/sandbox/v1/ExecResponse.js';
import type { ExecStreamRequest as _coreweave_sandbox_v1_ExecStreamRequest, ExecStreamRequest__Output as _coreweave_sandbox_v1_ExecStreamRequest__Output } from '../../../coreweave/sandbox/v1/ExecStreamRequest.js';
import type { ExecStreamResponse as _coreweave_sandbox_v1_ExecStreamResponse, ExecStreamResponse__Output as _coreweave_sandbox_v1_ExecStreamResponse__Output } from '../../../coreweave/sandbox/v1/ExecStreamResponse.js';
import type { FileSystemSnapshot as _coreweave_sandbox_v1_FileSystemSnapshot, FileSystemSnapshot__Output as _coreweave_sandbox_v1_FileSystemSnapshot__Output } from '../../../coreweave/sandbox/v1/FileSystemSnapshot.js';
import type { GetFileSystemSnapshotRequest as _coreweave_sandbox_v1_GetFileSystemSnapshotRequest, GetFileSystemSnapshotRequest__Output as _coreweave_sandbox_v1_GetFileSystemSnapshotRequest__Output } from '../../../coreweave/sandbox/v1/GetFileSystemSnapshotRequest.js';
import type { GetSandboxBuildLogsRequest as _coreweave_sandbox_v1_GetSandboxBuildLogsRequest, GetSandboxBuildLogsRequest__Output as _coreweave_sandbox_v1_GetSandboxBuildLogsRequest__Output } from '../../../coreweave/sandbox/v1/GetSandboxBuildLogsRequest.js';
import type { GetSandboxBuildLogsResponse as _coreweave_sandbox_v1_GetSandboxBuildLogsResponse, GetSandboxBuildLogsResponse__Output as _coreweave_sandbox_v1_GetSandboxBuildLogsResponse__Output } from '../../../coreweave/sandbox/v1/GetSandboxBuildLogsResponse.js';
import type { GetSandboxRequest as _coreweave_sandbox_v1_GetSandboxRequest, GetSandboxRequest__Output as _coreweave_sandbox_v1_GetSandboxRequest__Output } from '../../../coreweave/sandbox/v1/GetSandboxRequest.js';
import type { ListFileSystemSnapshotsRequest as _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest, ListFileSystemSnapshotsRequest__Output as _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest__Output } from '../../../coreweave/sandbox/v1/ListFileSystemSnapshotsRequest.js';
import type { ListFileSystemSnapshotsResponse as _coreweave_sandbox_v1_ListFileSystemSnapshotsResponse, ListFileSystemSnapshotsResponse__Output as _coreweave_sandbox_v1_ListFileSystemSnapshotsResponse__Output } from '../../../coreweave/sandbox/v1/ListFileSystemSnapshotsResponse.js';
import type { ListSandboxesRequest as _coreweave_sandbox_v1_ListSandboxesRequest, ListSandboxesRequest__Output as _coreweave_sandbox_v1_ListSandboxesRequest__Output } from '../../../coreweave/sandbox/v1/ListSandboxesRequest.js';
import type { ListSandboxesResponse as _coreweave_sandbox_v1_ListSandboxesResponse, ListSandboxesResponse__Output as _coreweave_sandbox_v1_ListSandboxesResponse__Output } from '../../../coreweave/sandbox/v1/ListSandboxesResponse.js';
import type { LogEntry as _coreweave_sandbox_v1_LogEntry, LogEntry__Output as _coreweave_sandbox_v1_LogEntry__Output } from '../../../coreweave/sandbox/v1/LogEntry.js';
import type { PurgeSandboxesRequest as _coreweave_sandbox_v1_PurgeSandboxesRequest, PurgeSandboxesRequest__Output as _coreweave_sandbox_v1_PurgeSandboxesRequest__Output } from '../../../coreweave/sandbox/v1/PurgeSandboxesRequest.js';
import type { PurgeSandboxesResponse as _coreweave_sandbox_v1_PurgeSandboxesResponse, PurgeSandboxesResponse__Output as _coreweave_sandbox_v1_PurgeSandboxesResponse__Output } from '../../../coreweave/sandbox/v1/PurgeSandboxesResponse.js';
import type { ReadFileRequest as _coreweave_sandbox_v1_ReadFileRequest, ReadFileRequest__Output as _coreweave_sandbox_v1_ReadFileRequest__Output } from '../../../coreweave/sandbox/v1/ReadFileRequest.js';
import type { ReadFileResponse as _coreweave_sandbox_v1_ReadFileResponse, ReadFileResponse__Output as _coreweave_sandbox_v1_ReadFileResponse__Output } from '../../../coreweave/sandbox/v1/ReadFileResponse.js';
import type { Sandbox as _coreweave_sandbox_v1_Sandbox, Sandbox__Output as _coreweave_sandbox_v1_Sandbox__Output } from '../../../coreweave/sandbox/v1/Sandbox.js';
import type { SandboxConnection as _coreweave_sandbox_v1_SandboxConnection, SandboxConnection__Output as _coreweave_sandbox_v1_SandboxConnection__Output } from '../../../coreweave/sandbox/v1/SandboxConnection.js';
import type { StreamLogsRequest as _coreweave_sandbox_v1_StreamLogsRequest, StreamLogsRequest__Output as _coreweave_sandbox_v1_StreamLogsRequest__Output } from '../../../coreweave/sandbox/v1/StreamLogsRequest.js';
import type { WriteFileRequest as _coreweave_sandbox_v1_WriteFileRequest, WriteFileRequest__Output as _coreweave_sandbox_v1_WriteFileRequest__Output } from '../../../coreweave/sandbox/v1/WriteFileRequest.js';
import type { WriteFileResponse as _coreweave_sandbox_v1_WriteFileResponse, WriteFileResponse__Output as _coreweave_sandbox_v1_WriteFileResponse__Output } from '../../../coreweave/sandbox/v1/WriteFileResponse.js';

export interface SandboxServiceClient extends grpc.Client {
  ConnectSandbox(argument: _coreweave_sandbox_v1_ConnectSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxConnection__Output>): grpc.ClientUnaryCall;
  ConnectSandbox(argument: _coreweave_sandbox_v1_ConnectSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxConnection__Output>): grpc.ClientUnaryCall;
  ConnectSandbox(argument: _coreweave_sandbox_v1_ConnectSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxConnection__Output>): grpc.ClientUnaryCall;
  ConnectSandbox(argument: _coreweave_sandbox_v1_ConnectSandboxRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxConnection__Output>): grpc.ClientUnaryCall;
  connectSandbox(argument: _coreweave_sandbox_v1_ConnectSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxConnection__Output>): grpc.ClientUnaryCall;
  connectSandbox(argument: _coreweave_sandbox_v1_ConnectSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxConnection__Output>): grpc.ClientUnaryCall;
  connectSandbox(argument: _coreweave_sandbox_v1_ConnectSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxConnection__Output>): grpc.ClientUnaryCall;
  connectSandbox(argument: _coreweave_sandbox_v1_ConnectSandboxRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxConnection__Output>): grpc.ClientUnaryCall;
  
  CreateFileSystemSnapshot(argument: _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  CreateFileSystemSnapshot(argument: _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  CreateFileSystemSnapshot(argument: _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  CreateFileSystemSnapshot(argument: _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  createFileSystemSnapshot(argument: _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  createFileSystemSnapshot(argument: _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  createFileSystemSnapshot(argument: _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  createFileSystemSnapshot(argument: _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  
  CreateSandbox(argument: _coreweave_sandbox_v1_CreateSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  CreateSandbox(argument: _coreweave_sandbox_v1_CreateSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  CreateSandbox(argument: _coreweave_sandbox_v1_CreateSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  CreateSandbox(argument: _coreweave_sandbox_v1_CreateSandboxRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  createSandbox(argument: _coreweave_sandbox_v1_CreateSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  createSandbox(argument: _coreweave_sandbox_v1_CreateSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  createSandbox(argument: _coreweave_sandbox_v1_CreateSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  createSandbox(argument: _coreweave_sandbox_v1_CreateSandboxRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  
  CreateSandboxFromFile(argument: _coreweave_sandbox_v1_CreateSandboxFromFileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  CreateSandboxFromFile(argument: _coreweave_sandbox_v1_CreateSandboxFromFileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  CreateSandboxFromFile(argument: _coreweave_sandbox_v1_CreateSandboxFromFileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  CreateSandboxFromFile(argument: _coreweave_sandbox_v1_CreateSandboxFromFileRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  createSandboxFromFile(argument: _coreweave_sandbox_v1_CreateSandboxFromFileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  createSandboxFromFile(argument: _coreweave_sandbox_v1_CreateSandboxFromFileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  createSandboxFromFile(argument: _coreweave_sandbox_v1_CreateSandboxFromFileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  createSandboxFromFile(argument: _coreweave_sandbox_v1_CreateSandboxFromFileRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  
  CreateSandboxFromTemplate(argument: _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  CreateSandboxFromTemplate(argument: _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  CreateSandboxFromTemplate(argument: _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  CreateSandboxFromTemplate(argument: _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  createSandboxFromTemplate(argument: _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  createSandboxFromTemplate(argument: _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  createSandboxFromTemplate(argument: _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  createSandboxFromTemplate(argument: _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  
  DeleteFileSystemSnapshot(argument: _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  DeleteFileSystemSnapshot(argument: _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  DeleteFileSystemSnapshot(argument: _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  DeleteFileSystemSnapshot(argument: _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  deleteFileSystemSnapshot(argument: _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  deleteFileSystemSnapshot(argument: _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  deleteFileSystemSnapshot(argument: _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  deleteFileSystemSnapshot(argument: _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  
  DeleteSandbox(argument: _coreweave_sandbox_v1_DeleteSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_DeleteSandboxResponse__Output>): grpc.ClientUnaryCall;
  DeleteSandbox(argument: _coreweave_sandbox_v1_DeleteSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_DeleteSandboxResponse__Output>): grpc.ClientUnaryCall;
  DeleteSandbox(argument: _coreweave_sandbox_v1_DeleteSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_DeleteSandboxResponse__Output>): grpc.ClientUnaryCall;
  DeleteSandbox(argument: _coreweave_sandbox_v1_DeleteSandboxRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_DeleteSandboxResponse__Output>): grpc.ClientUnaryCall;
  deleteSandbox(argument: _coreweave_sandbox_v1_DeleteSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_DeleteSandboxResponse__Output>): grpc.ClientUnaryCall;
  deleteSandbox(argument: _coreweave_sandbox_v1_DeleteSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_DeleteSandboxResponse__Output>): grpc.ClientUnaryCall;
  deleteSandbox(argument: _coreweave_sandbox_v1_DeleteSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_DeleteSandboxResponse__Output>): grpc.ClientUnaryCall;
  deleteSandbox(argument: _coreweave_sandbox_v1_DeleteSandboxRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_DeleteSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  Exec(argument: _coreweave_sandbox_v1_ExecRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  Exec(argument: _coreweave_sandbox_v1_ExecRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  Exec(argument: _coreweave_sandbox_v1_ExecRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  Exec(argument: _coreweave_sandbox_v1_ExecRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _coreweave_sandbox_v1_ExecRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _coreweave_sandbox_v1_ExecRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _coreweave_sandbox_v1_ExecRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  exec(argument: _coreweave_sandbox_v1_ExecRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ExecResponse__Output>): grpc.ClientUnaryCall;
  
  GetFileSystemSnapshot(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  GetFileSystemSnapshot(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  GetFileSystemSnapshot(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  GetFileSystemSnapshot(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  getFileSystemSnapshot(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  getFileSystemSnapshot(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  getFileSystemSnapshot(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  getFileSystemSnapshot(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshot__Output>): grpc.ClientUnaryCall;
  
  GetSandbox(argument: _coreweave_sandbox_v1_GetSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  GetSandbox(argument: _coreweave_sandbox_v1_GetSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  GetSandbox(argument: _coreweave_sandbox_v1_GetSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  GetSandbox(argument: _coreweave_sandbox_v1_GetSandboxRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  getSandbox(argument: _coreweave_sandbox_v1_GetSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  getSandbox(argument: _coreweave_sandbox_v1_GetSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  getSandbox(argument: _coreweave_sandbox_v1_GetSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  getSandbox(argument: _coreweave_sandbox_v1_GetSandboxRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Sandbox__Output>): grpc.ClientUnaryCall;
  
  GetSandboxBuildLogs(argument: _coreweave_sandbox_v1_GetSandboxBuildLogsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_GetSandboxBuildLogsResponse__Output>): grpc.ClientUnaryCall;
  GetSandboxBuildLogs(argument: _coreweave_sandbox_v1_GetSandboxBuildLogsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_GetSandboxBuildLogsResponse__Output>): grpc.ClientUnaryCall;
  GetSandboxBuildLogs(argument: _coreweave_sandbox_v1_GetSandboxBuildLogsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_GetSandboxBuildLogsResponse__Output>): grpc.ClientUnaryCall;
  GetSandboxBuildLogs(argument: _coreweave_sandbox_v1_GetSandboxBuildLogsRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_GetSandboxBuildLogsResponse__Output>): grpc.ClientUnaryCall;
  getSandboxBuildLogs(argument: _coreweave_sandbox_v1_GetSandboxBuildLogsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_GetSandboxBuildLogsResponse__Output>): grpc.ClientUnaryCall;
  getSandboxBuildLogs(argument: _coreweave_sandbox_v1_GetSandboxBuildLogsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_GetSandboxBuildLogsResponse__Output>): grpc.ClientUnaryCall;
  getSandboxBuildLogs(argument: _coreweave_sandbox_v1_GetSandboxBuildLogsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_GetSandboxBuildLogsResponse__Output>): grpc.ClientUnaryCall;
  getSandboxBuildLogs(argument: _coreweave_sandbox_v1_GetSandboxBuildLogsRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_GetSandboxBuildLogsResponse__Output>): grpc.ClientUnaryCall;
  
  ListFileSystemSnapshots(argument: _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListFileSystemSnapshotsResponse__Output>): grpc.ClientUnaryCall;
  ListFileSystemSnapshots(argument: _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListFileSystemSnapshotsResponse__Output>): grpc.ClientUnaryCall;
  ListFileSystemSnapshots(argument: _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListFileSystemSnapshotsResponse__Output>): grpc.ClientUnaryCall;
  ListFileSystemSnapshots(argument: _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListFileSystemSnapshotsResponse__Output>): grpc.ClientUnaryCall;
  listFileSystemSnapshots(argument: _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListFileSystemSnapshotsResponse__Output>): grpc.ClientUnaryCall;
  listFileSystemSnapshots(argument: _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListFileSystemSnapshotsResponse__Output>): grpc.ClientUnaryCall;
  listFileSystemSnapshots(argument: _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListFileSystemSnapshotsResponse__Output>): grpc.ClientUnaryCall;
  listFileSystemSnapshots(argument: _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListFileSystemSnapshotsResponse__Output>): grpc.ClientUnaryCall;
  
  ListSandboxes(argument: _coreweave_sandbox_v1_ListSandboxesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxesResponse__Output>): grpc.ClientUnaryCall;
  ListSandboxes(argument: _coreweave_sandbox_v1_ListSandboxesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxesResponse__Output>): grpc.ClientUnaryCall;
  ListSandboxes(argument: _coreweave_sandbox_v1_ListSandboxesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxesResponse__Output>): grpc.ClientUnaryCall;
  ListSandboxes(argument: _coreweave_sandbox_v1_ListSandboxesRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxesResponse__Output>): grpc.ClientUnaryCall;
  listSandboxes(argument: _coreweave_sandbox_v1_ListSandboxesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxesResponse__Output>): grpc.ClientUnaryCall;
  listSandboxes(argument: _coreweave_sandbox_v1_ListSandboxesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxesResponse__Output>): grpc.ClientUnaryCall;
  listSandboxes(argument: _coreweave_sandbox_v1_ListSandboxesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxesResponse__Output>): grpc.ClientUnaryCall;
  listSandboxes(argument: _coreweave_sandbox_v1_ListSandboxesRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxesResponse__Output>): grpc.ClientUnaryCall;
  
  PurgeSandboxes(argument: _coreweave_sandbox_v1_PurgeSandboxesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_PurgeSandboxesResponse__Output>): grpc.ClientUnaryCall;
  PurgeSandboxes(argument: _coreweave_sandbox_v1_PurgeSandboxesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_PurgeSandboxesResponse__Output>): grpc.ClientUnaryCall;
  PurgeSandboxes(argument: _coreweave_sandbox_v1_PurgeSandboxesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_PurgeSandboxesResponse__Output>): grpc.ClientUnaryCall;
  PurgeSandboxes(argument: _coreweave_sandbox_v1_PurgeSandboxesRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_PurgeSandboxesResponse__Output>): grpc.ClientUnaryCall;
  purgeSandboxes(argument: _coreweave_sandbox_v1_PurgeSandboxesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_PurgeSandboxesResponse__Output>): grpc.ClientUnaryCall;
  purgeSandboxes(argument: _coreweave_sandbox_v1_PurgeSandboxesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_PurgeSandboxesResponse__Output>): grpc.ClientUnaryCall;
  purgeSandboxes(argument: _coreweave_sandbox_v1_PurgeSandboxesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_PurgeSandboxesResponse__Output>): grpc.ClientUnaryCall;
  purgeSandboxes(argument: _coreweave_sandbox_v1_PurgeSandboxesRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_PurgeSandboxesResponse__Output>): grpc.ClientUnaryCall;
  
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

export interface SandboxServiceHandlers extends grpc.UntypedServiceImplementation {
  ConnectSandbox: grpc.handleUnaryCall<_coreweave_sandbox_v1_ConnectSandboxRequest__Output, _coreweave_sandbox_v1_SandboxConnection>;
  
  CreateFileSystemSnapshot: grpc.handleUnaryCall<_coreweave_sandbox_v1_CreateFileSystemSnapshotRequest__Output, _coreweave_sandbox_v1_FileSystemSnapshot>;
  
  CreateSandbox: grpc.handleUnaryCall<_coreweave_sandbox_v1_CreateSandboxRequest__Output, _coreweave_sandbox_v1_Sandbox>;
  
  CreateSandboxFromFile: grpc.handleUnaryCall<_coreweave_sandbox_v1_CreateSandboxFromFileRequest__Output, _coreweave_sandbox_v1_Sandbox>;
  
  CreateSandboxFromTemplate: grpc.handleUnaryCall<_coreweave_sandbox_v1_CreateSandboxFromTemplateRequest__Output, _coreweave_sandbox_v1_Sandbox>;
  
  DeleteFileSystemSnapshot: grpc.handleUnaryCall<_coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest__Output, _coreweave_sandbox_v1_FileSystemSnapshot>;
  
  DeleteSandbox: grpc.handleUnaryCall<_coreweave_sandbox_v1_DeleteSandboxRequest__Output, _coreweave_sandbox_v1_DeleteSandboxResponse>;
  
  Exec: grpc.handleUnaryCall<_coreweave_sandbox_v1_ExecRequest__Output, _coreweave_sandbox_v1_ExecResponse>;
  
  GetFileSystemSnapshot: grpc.handleUnaryCall<_coreweave_sandbox_v1_GetFileSystemSnapshotRequest__Output, _coreweave_sandbox_v1_FileSystemSnapshot>;
  
  GetSandbox: grpc.handleUnaryCall<_coreweave_sandbox_v1_GetSandboxRequest__Output, _coreweave_sandbox_v1_Sandbox>;
  
  GetSandboxBuildLogs: grpc.handleUnaryCall<_coreweave_sandbox_v1_GetSandboxBuildLogsRequest__Output, _coreweave_sandbox_v1_GetSandboxBuildLogsResponse>;
  
  ListFileSystemSnapshots: grpc.handleUnaryCall<_coreweave_sandbox_v1_ListFileSystemSnapshotsRequest__Output, _coreweave_sandbox_v1_ListFileSystemSnapshotsResponse>;
  
  ListSandboxes: grpc.handleUnaryCall<_coreweave_sandbox_v1_ListSandboxesRequest__Output, _coreweave_sandbox_v1_ListSandboxesResponse>;
  
  PurgeSandboxes: grpc.handleUnaryCall<_coreweave_sandbox_v1_PurgeSandboxesRequest__Output, _coreweave_sandbox_v1_PurgeSandboxesResponse>;
  
  ReadFile: grpc.handleUnaryCall<_coreweave_sandbox_v1_ReadFileRequest__Output, _coreweave_sandbox_v1_ReadFileResponse>;
  
  StreamExec: grpc.handleBidiStreamingCall<_coreweave_sandbox_v1_ExecStreamRequest__Output, _coreweave_sandbox_v1_ExecStreamResponse>;
  
  StreamLogs: grpc.handleServerStreamingCall<_coreweave_sandbox_v1_StreamLogsRequest__Output, _coreweave_sandbox_v1_LogEntry>;
  
  WriteFile: grpc.handleUnaryCall<_coreweave_sandbox_v1_WriteFileRequest__Output, _coreweave_sandbox_v1_WriteFileResponse>;
  
}

export interface SandboxServiceDefinition extends grpc.ServiceDefinition {
  ConnectSandbox: MethodDefinition<_coreweave_sandbox_v1_ConnectSandboxRequest, _coreweave_sandbox_v1_SandboxConnection, _coreweave_sandbox_v1_ConnectSandboxRequest__Output, _coreweave_sandbox_v1_SandboxConnection__Output>
  CreateFileSystemSnapshot: MethodDefinition<_coreweave_sandbox_v1_CreateFileSystemSnapshotRequest, _coreweave_sandbox_v1_FileSystemSnapshot, _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest__Output, _coreweave_sandbox_v1_FileSystemSnapshot__Output>
  CreateSandbox: MethodDefinition<_coreweave_sandbox_v1_CreateSandboxRequest, _coreweave_sandbox_v1_Sandbox, _coreweave_sandbox_v1_CreateSandboxRequest__Output, _coreweave_sandbox_v1_Sandbox__Output>
  CreateSandboxFromFile: MethodDefinition<_coreweave_sandbox_v1_CreateSandboxFromFileRequest, _coreweave_sandbox_v1_Sandbox, _coreweave_sandbox_v1_CreateSandboxFromFileRequest__Output, _coreweave_sandbox_v1_Sandbox__Output>
  CreateSandboxFromTemplate: MethodDefinition<_coreweave_sandbox_v1_CreateSandboxFromTemplateRequest, _coreweave_sandbox_v1_Sandbox, _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest__Output, _coreweave_sandbox_v1_Sandbox__Output>
  DeleteFileSystemSnapshot: MethodDefinition<_coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest, _coreweave_sandbox_v1_FileSystemSnapshot, _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest__Output, _coreweave_sandbox_v1_FileSystemSnapshot__Output>
  DeleteSandbox: MethodDefinition<_coreweave_sandbox_v1_DeleteSandboxRequest, _coreweave_sandbox_v1_DeleteSandboxResponse, _coreweave_sandbox_v1_DeleteSandboxRequest__Output, _coreweave_sandbox_v1_DeleteSandboxResponse__Output>
  Exec: MethodDefinition<_coreweave_sandbox_v1_ExecRequest, _coreweave_sandbox_v1_ExecResponse, _coreweave_sandbox_v1_ExecRequest__Output, _coreweave_sandbox_v1_ExecResponse__Output>
  GetFileSystemSnapshot: MethodDefinition<_coreweave_sandbox_v1_GetFileSystemSnapshotRequest, _coreweave_sandbox_v1_FileSystemSnapshot, _coreweave_sandbox_v1_GetFileSystemSnapshotRequest__Output, _coreweave_sandbox_v1_FileSystemSnapshot__Output>
  GetSandbox: MethodDefinition<_coreweave_sandbox_v1_GetSandboxRequest, _coreweave_sandbox_v1_Sandbox, _coreweave_sandbox_v1_GetSandboxRequest__Output, _coreweave_sandbox_v1_Sandbox__Output>
  GetSandboxBuildLogs: MethodDefinition<_coreweave_sandbox_v1_GetSandboxBuildLogsRequest, _coreweave_sandbox_v1_GetSandboxBuildLogsResponse, _coreweave_sandbox_v1_GetSandboxBuildLogsRequest__Output, _coreweave_sandbox_v1_GetSandboxBuildLogsResponse__Output>
  ListFileSystemSnapshots: MethodDefinition<_coreweave_sandbox_v1_ListFileSystemSnapshotsRequest, _coreweave_sandbox_v1_ListFileSystemSnapshotsResponse, _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest__Output, _coreweave_sandbox_v1_ListFileSystemSnapshotsResponse__Output>
  ListSandboxes: MethodDefinition<_coreweave_sandbox_v1_ListSandboxesRequest, _coreweave_sandbox_v1_ListSandboxesResponse, _coreweave_sandbox_v1_ListSandboxesRequest__Output, _coreweave_sandbox_v1_ListSandboxesResponse__Output>
  PurgeSandboxes: MethodDefinition<_coreweave_sandbox_v1_PurgeSandboxesRequest, _coreweave_sandbox_v1_PurgeSandboxesResponse, _coreweave_sandbox_v1_PurgeSandboxesRequest__Output, _coreweave_sandbox_v1_PurgeSandboxesResponse__Output>
  ReadFile: MethodDefinition<_coreweave_sandbox_v1_ReadFileRequest, _coreweave_sandbox_v1_ReadFileResponse, _coreweave_sandbox_v1_ReadFileRequest__Output, _coreweave_sandbox_v1_ReadFileResponse__Output>
  StreamExec: MethodDefinition<_coreweave_sandbox_v1_ExecStreamRequest, _coreweave_sandbox_v1_ExecStreamResponse, _coreweave_sandbox_v1_ExecStreamRequest__Output, _coreweave_sandbox_v1_ExecStreamResponse__Output>
  StreamLogs: MethodDefinition<_coreweave_sandbox_v1_StreamLogsRequest, _coreweave_sandbox_v1_LogEntry, _coreweave_sandbox_v1_StreamLogsRequest__Output, _coreweave_sandbox_v1_LogEntry__Output>
  WriteFile: MethodDefinition<_coreweave_sandbox_v1_WriteFileRequest, _coreweave_sandbox_v1_WriteFileResponse, _coreweave_sandbox_v1_WriteFileRequest__Output, _coreweave_sandbox_v1_WriteFileResponse__Output>
}
