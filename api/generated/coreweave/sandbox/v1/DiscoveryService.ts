// Original file: proto/coreweave/sandbox/v1/discovery.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AvailableRunner as _coreweave_sandbox_v1_AvailableRunner, AvailableRunner__Output as _coreweave_sandbox_v1_AvailableRunner__Output } from '../../../coreweave/sandbox/v1/AvailableRunner.js';
import type { GetAvailableRunnerRequest as _coreweave_sandbox_v1_GetAvailableRunnerRequest, GetAvailableRunnerRequest__Output as _coreweave_sandbox_v1_GetAvailableRunnerRequest__Output } from '../../../coreweave/sandbox/v1/GetAvailableRunnerRequest.js';
import type { ListAvailableRunnersRequest as _coreweave_sandbox_v1_ListAvailableRunnersRequest, ListAvailableRunnersRequest__Output as _coreweave_sandbox_v1_ListAvailableRunnersRequest__Output } from '../../../coreweave/sandbox/v1/ListAvailableRunnersRequest.js';
import type { ListAvailableRunnersResponse as _coreweave_sandbox_v1_ListAvailableRunnersResponse, ListAvailableRunnersResponse__Output as _coreweave_sandbox_v1_ListAvailableRunnersResponse__Output } from '../../../coreweave/sandbox/v1/ListAvailableRunnersResponse.js';

export interface DiscoveryServiceClient extends grpc.Client {
  GetAvailableRunner(argument: _coreweave_sandbox_v1_GetAvailableRunnerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_AvailableRunner__Output>): grpc.ClientUnaryCall;
  GetAvailableRunner(argument: _coreweave_sandbox_v1_GetAvailableRunnerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_AvailableRunner__Output>): grpc.ClientUnaryCall;
  GetAvailableRunner(argument: _coreweave_sandbox_v1_GetAvailableRunnerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_AvailableRunner__Output>): grpc.ClientUnaryCall;
  GetAvailableRunner(argument: _coreweave_sandbox_v1_GetAvailableRunnerRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_AvailableRunner__Output>): grpc.ClientUnaryCall;
  getAvailableRunner(argument: _coreweave_sandbox_v1_GetAvailableRunnerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_AvailableRunner__Output>): grpc.ClientUnaryCall;
  getAvailableRunner(argument: _coreweave_sandbox_v1_GetAvailableRunnerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_AvailableRunner__Output>): grpc.ClientUnaryCall;
  getAvailableRunner(argument: _coreweave_sandbox_v1_GetAvailableRunnerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_AvailableRunner__Output>): grpc.ClientUnaryCall;
  getAvailableRunner(argument: _coreweave_sandbox_v1_GetAvailableRunnerRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_AvailableRunner__Output>): grpc.ClientUnaryCall;
  
  ListAvailableRunners(argument: _coreweave_sandbox_v1_ListAvailableRunnersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListAvailableRunnersResponse__Output>): grpc.ClientUnaryCall;
  ListAvailableRunners(argument: _coreweave_sandbox_v1_ListAvailableRunnersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListAvailableRunnersResponse__Output>): grpc.ClientUnaryCall;
  ListAvailableRunners(argument: _coreweave_sandbox_v1_ListAvailableRunnersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListAvailableRunnersResponse__Output>): grpc.ClientUnaryCall;
  ListAvailableRunners(argument: _coreweave_sandbox_v1_ListAvailableRunnersRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListAvailableRunnersResponse__Output>): grpc.ClientUnaryCall;
  listAvailableRunners(argument: _coreweave_sandbox_v1_ListAvailableRunnersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListAvailableRunnersResponse__Output>): grpc.ClientUnaryCall;
  listAvailableRunners(argument: _coreweave_sandbox_v1_ListAvailableRunnersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListAvailableRunnersResponse__Output>): grpc.ClientUnaryCall;
  listAvailableRunners(argument: _coreweave_sandbox_v1_ListAvailableRunnersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListAvailableRunnersResponse__Output>): grpc.ClientUnaryCall;
  listAvailableRunners(argument: _coreweave_sandbox_v1_ListAvailableRunnersRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListAvailableRunnersResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface DiscoveryServiceHandlers extends grpc.UntypedServiceImplementation {
  GetAvailableRunner: grpc.handleUnaryCall<_coreweave_sandbox_v1_GetAvailableRunnerRequest__Output, _coreweave_sandbox_v1_AvailableRunner>;
  
  ListAvailableRunners: grpc.handleUnaryCall<_coreweave_sandbox_v1_ListAvailableRunnersRequest__Output, _coreweave_sandbox_v1_ListAvailableRunnersResponse>;
  
}

export interface DiscoveryServiceDefinition extends grpc.ServiceDefinition {
  GetAvailableRunner: MethodDefinition<_coreweave_sandbox_v1_GetAvailableRunnerRequest, _coreweave_sandbox_v1_AvailableRunner, _coreweave_sandbox_v1_GetAvailableRunnerRequest__Output, _coreweave_sandbox_v1_AvailableRunner__Output>
  ListAvailableRunners: MethodDefinition<_coreweave_sandbox_v1_ListAvailableRunnersRequest, _coreweave_sandbox_v1_ListAvailableRunnersResponse, _coreweave_sandbox_v1_ListAvailableRunnersRequest__Output, _coreweave_sandbox_v1_ListAvailableRunnersResponse__Output>
}
