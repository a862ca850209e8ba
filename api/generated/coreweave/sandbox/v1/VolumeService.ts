// Original file: proto/coreweave/sandbox/v1/volume.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateVolumeRequest as _coreweave_sandbox_v1_CreateVolumeRequest, CreateVolumeRequest__Output as _coreweave_sandbox_v1_CreateVolumeRequest__Output } from '../../../coreweave/sandbox/v1/CreateVolumeRequest.js';
import type { DeleteVolumeRequest as _coreweave_sandbox_v1_DeleteVolumeRequest, DeleteVolumeRequest__Output as _coreweave_sandbox_v1_DeleteVolumeRequest__Output } from '../../../coreweave/sandbox/v1/DeleteVolumeRequest.js';
import type { GetVolumeRequest as _coreweave_sandbox_v1_GetVolumeRequest, GetVolumeRequest__Output as _coreweave_sandbox_v1_GetVolumeRequest__Output } from '../../../coreweave/sandbox/v1/GetVolumeRequest.js';
import type { ListVolumesRequest as _coreweave_sandbox_v1_ListVolumesRequest, ListVolumesRequest__Output as _coreweave_sandbox_v1_ListVolumesRequest__Output } from '../../../coreweave/sandbox/v1/ListVolumesRequest.js';
import type { ListVolumesResponse as _coreweave_sandbox_v1_ListVolumesResponse, ListVolumesResponse__Output as _coreweave_sandbox_v1_ListVolumesResponse__Output } from '../../../coreweave/sandbox/v1/ListVolumesResponse.js';
import type { UpdateVolumeRequest as _coreweave_sandbox_v1_UpdateVolumeRequest, UpdateVolumeRequest__Output as _coreweave_sandbox_v1_UpdateVolumeRequest__Output } from '../../../coreweave/sandbox/v1/UpdateVolumeRequest.js';
import type { ValidateVolumeRequest as _coreweave_sandbox_v1_ValidateVolumeRequest, ValidateVolumeRequest__Output as _coreweave_sandbox_v1_ValidateVolumeRequest__Output } from '../../../coreweave/sandbox/v1/ValidateVolumeRequest.js';
import type { Volume as _coreweave_sandbox_v1_Volume, Volume__Output as _coreweave_sandbox_v1_Volume__Output } from '../../../coreweave/sandbox/v1/Volume.js';

export interface VolumeServiceClient extends grpc.Client {
  CreateVolume(argument: _coreweave_sandbox_v1_CreateVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  CreateVolume(argument: _coreweave_sandbox_v1_CreateVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  CreateVolume(argument: _coreweave_sandbox_v1_CreateVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  CreateVolume(argument: _coreweave_sandbox_v1_CreateVolumeRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  createVolume(argument: _coreweave_sandbox_v1_CreateVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  createVolume(argument: _coreweave_sandbox_v1_CreateVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  createVolume(argument: _coreweave_sandbox_v1_CreateVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  createVolume(argument: _coreweave_sandbox_v1_CreateVolumeRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  
  DeleteVolume(argument: _coreweave_sandbox_v1_DeleteVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  DeleteVolume(argument: _coreweave_sandbox_v1_DeleteVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  DeleteVolume(argument: _coreweave_sandbox_v1_DeleteVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  DeleteVolume(argument: _coreweave_sandbox_v1_DeleteVolumeRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  deleteVolume(argument: _coreweave_sandbox_v1_DeleteVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  deleteVolume(argument: _coreweave_sandbox_v1_DeleteVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  deleteVolume(argument: _coreweave_sandbox_v1_DeleteVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  deleteVolume(argument: _coreweave_sandbox_v1_DeleteVolumeRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  
  GetVolume(argument: _coreweave_sandbox_v1_GetVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  GetVolume(argument: _coreweave_sandbox_v1_GetVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  GetVolume(argument: _coreweave_sandbox_v1_GetVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  GetVolume(argument: _coreweave_sandbox_v1_GetVolumeRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  getVolume(argument: _coreweave_sandbox_v1_GetVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  getVolume(argument: _coreweave_sandbox_v1_GetVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  getVolume(argument: _coreweave_sandbox_v1_GetVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  getVolume(argument: _coreweave_sandbox_v1_GetVolumeRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  
  ListVolumes(argument: _coreweave_sandbox_v1_ListVolumesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  ListVolumes(argument: _coreweave_sandbox_v1_ListVolumesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  ListVolumes(argument: _coreweave_sandbox_v1_ListVolumesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  ListVolumes(argument: _coreweave_sandbox_v1_ListVolumesRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  listVolumes(argument: _coreweave_sandbox_v1_ListVolumesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  listVolumes(argument: _coreweave_sandbox_v1_ListVolumesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  listVolumes(argument: _coreweave_sandbox_v1_ListVolumesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  listVolumes(argument: _coreweave_sandbox_v1_ListVolumesRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateVolume(argument: _coreweave_sandbox_v1_UpdateVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  UpdateVolume(argument: _coreweave_sandbox_v1_UpdateVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  UpdateVolume(argument: _coreweave_sandbox_v1_UpdateVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  UpdateVolume(argument: _coreweave_sandbox_v1_UpdateVolumeRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  updateVolume(argument: _coreweave_sandbox_v1_UpdateVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  updateVolume(argument: _coreweave_sandbox_v1_UpdateVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  updateVolume(argument: _coreweave_sandbox_v1_UpdateVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  updateVolume(argument: _coreweave_sandbox_v1_UpdateVolumeRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  
  ValidateVolume(argument: _coreweave_sandbox_v1_ValidateVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  ValidateVolume(argument: _coreweave_sandbox_v1_ValidateVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  ValidateVolume(argument: _coreweave_sandbox_v1_ValidateVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  ValidateVolume(argument: _coreweave_sandbox_v1_ValidateVolumeRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  validateVolume(argument: _coreweave_sandbox_v1_ValidateVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  validateVolume(argument: _coreweave_sandbox_v1_ValidateVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  validateVolume(argument: _coreweave_sandbox_v1_ValidateVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  validateVolume(argument: _coreweave_sandbox_v1_ValidateVolumeRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_Volume__Output>): grpc.ClientUnaryCall;
  
}

export interface VolumeServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateVolume: grpc.handleUnaryCall<_coreweave_sandbox_v1_CreateVolumeRequest__Output, _coreweave_sandbox_v1_Volume>;
  
  DeleteVolume: grpc.handleUnaryCall<_coreweave_sandbox_v1_DeleteVolumeRequest__Output, _coreweave_sandbox_v1_Volume>;
  
  GetVolume: grpc.handleUnaryCall<_coreweave_sandbox_v1_GetVolumeRequest__Output, _coreweave_sandbox_v1_Volume>;
  
  ListVolumes: grpc.handleUnaryCall<_coreweave_sandbox_v1_ListVolumesRequest__Output, _coreweave_sandbox_v1_ListVolumesResponse>;
  
  UpdateVolume: grpc.handleUnaryCall<_coreweave_sandbox_v1_UpdateVolumeRequest__Output, _coreweave_sandbox_v1_Volume>;
  
  ValidateVolume: grpc.handleUnaryCall<_coreweave_sandbox_v1_ValidateVolumeRequest__Output, _coreweave_sandbox_v1_Volume>;
  
}

export interface VolumeServiceDefinition extends grpc.ServiceDefinition {
  CreateVolume: MethodDefinition<_coreweave_sandbox_v1_CreateVolumeRequest, _coreweave_sandbox_v1_Volume, _coreweave_sandbox_v1_CreateVolumeRequest__Output, _coreweave_sandbox_v1_Volume__Output>
  DeleteVolume: MethodDefinition<_coreweave_sandbox_v1_DeleteVolumeRequest, _coreweave_sandbox_v1_Volume, _coreweave_sandbox_v1_DeleteVolumeRequest__Output, _coreweave_sandbox_v1_Volume__Output>
  GetVolume: MethodDefinition<_coreweave_sandbox_v1_GetVolumeRequest, _coreweave_sandbox_v1_Volume, _coreweave_sandbox_v1_GetVolumeRequest__Output, _coreweave_sandbox_v1_Volume__Output>
  ListVolumes: MethodDefinition<_coreweave_sandbox_v1_ListVolumesRequest, _coreweave_sandbox_v1_ListVolumesResponse, _coreweave_sandbox_v1_ListVolumesRequest__Output, _coreweave_sandbox_v1_ListVolumesResponse__Output>
  UpdateVolume: MethodDefinition<_coreweave_sandbox_v1_UpdateVolumeRequest, _coreweave_sandbox_v1_Volume, _coreweave_sandbox_v1_UpdateVolumeRequest__Output, _coreweave_sandbox_v1_Volume__Output>
  ValidateVolume: MethodDefinition<_coreweave_sandbox_v1_ValidateVolumeRequest, _coreweave_sandbox_v1_Volume, _coreweave_sandbox_v1_ValidateVolumeRequest__Output, _coreweave_sandbox_v1_Volume__Output>
}
