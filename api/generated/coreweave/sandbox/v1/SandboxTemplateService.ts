// Original file: proto/coreweave/sandbox/v1/sandbox_template.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateSandboxTemplateRequest as _coreweave_sandbox_v1_CreateSandboxTemplateRequest, CreateSandboxTemplateRequest__Output as _coreweave_sandbox_v1_CreateSandboxTemplateRequest__Output } from '../../../coreweave/sandbox/v1/CreateSandboxTemplateRequest.js';
import type { DeleteSandboxTemplateRequest as _coreweave_sandbox_v1_DeleteSandboxTemplateRequest, DeleteSandboxTemplateRequest__Output as _coreweave_sandbox_v1_DeleteSandboxTemplateRequest__Output } from '../../../coreweave/sandbox/v1/DeleteSandboxTemplateRequest.js';
import type { Empty as _google_protobuf_Empty, Empty__Output as _google_protobuf_Empty__Output } from '../../../google/protobuf/Empty.js';
import type { GetSandboxTemplateRequest as _coreweave_sandbox_v1_GetSandboxTemplateRequest, GetSandboxTemplateRequest__Output as _coreweave_sandbox_v1_GetSandboxTemplateRequest__Output } from '../../../coreweave/sandbox/v1/GetSandboxTemplateRequest.js';
import type { ListSandboxTemplatesRequest as _coreweave_sandbox_v1_ListSandboxTemplatesRequest, ListSandboxTemplatesRequest__Output as _coreweave_sandbox_v1_ListSandboxTemplatesRequest__Output } from '../../../coreweave/sandbox/v1/ListSandboxTemplatesRequest.js';
import type { ListSandboxTemplatesResponse as _coreweave_sandbox_v1_ListSandboxTemplatesResponse, ListSandboxTemplatesResponse__Output as _coreweave_sandbox_v1_ListSandboxTemplatesResponse__Output } from '../../../coreweave/sandbox/v1/ListSandboxTemplatesResponse.js';
import type { SandboxTemplate as _coreweave_sandbox_v1_SandboxTemplate, SandboxTemplate__Output as _coreweave_sandbox_v1_SandboxTemplate__Output } from '../../../coreweave/sandbox/v1/SandboxTemplate.js';
import type { UpdateSandboxTemplateRequest as _coreweave_sandbox_v1_UpdateSandboxTemplateRequest, UpdateSandboxTemplateRequest__Output as _coreweave_sandbox_v1_UpdateSandboxTemplateRequest__Output } from '../../../coreweave/sandbox/v1/UpdateSandboxTemplateRequest.js';

export interface SandboxTemplateServiceClient extends grpc.Client {
  CreateSandboxTemplate(argument: _coreweave_sandbox_v1_CreateSandboxTemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  CreateSandboxTemplate(argument: _coreweave_sandbox_v1_CreateSandboxTemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  CreateSandboxTemplate(argument: _coreweave_sandbox_v1_CreateSandboxTemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  CreateSandboxTemplate(argument: _coreweave_sandbox_v1_CreateSandboxTemplateRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  createSandboxTemplate(argument: _coreweave_sandbox_v1_CreateSandboxTemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  createSandboxTemplate(argument: _coreweave_sandbox_v1_CreateSandboxTemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  createSandboxTemplate(argument: _coreweave_sandbox_v1_CreateSandboxTemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  createSandboxTemplate(argument: _coreweave_sandbox_v1_CreateSandboxTemplateRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  
  DeleteSandboxTemplate(argument: _coreweave_sandbox_v1_DeleteSandboxTemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  DeleteSandboxTemplate(argument: _coreweave_sandbox_v1_DeleteSandboxTemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  DeleteSandboxTemplate(argument: _coreweave_sandbox_v1_DeleteSandboxTemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  DeleteSandboxTemplate(argument: _coreweave_sandbox_v1_DeleteSandboxTemplateRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteSandboxTemplate(argument: _coreweave_sandbox_v1_DeleteSandboxTemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteSandboxTemplate(argument: _coreweave_sandbox_v1_DeleteSandboxTemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteSandboxTemplate(argument: _coreweave_sandbox_v1_DeleteSandboxTemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteSandboxTemplate(argument: _coreweave_sandbox_v1_DeleteSandboxTemplateRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  GetSandboxTemplate(argument: _coreweave_sandbox_v1_GetSandboxTemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  GetSandboxTemplate(argument: _coreweave_sandbox_v1_GetSandboxTemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  GetSandboxTemplate(argument: _coreweave_sandbox_v1_GetSandboxTemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  GetSandboxTemplate(argument: _coreweave_sandbox_v1_GetSandboxTemplateRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  getSandboxTemplate(argument: _coreweave_sandbox_v1_GetSandboxTemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  getSandboxTemplate(argument: _coreweave_sandbox_v1_GetSandboxTemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  getSandboxTemplate(argument: _coreweave_sandbox_v1_GetSandboxTemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  getSandboxTemplate(argument: _coreweave_sandbox_v1_GetSandboxTemplateRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  
  ListSandboxTemplates(argument: _coreweave_sandbox_v1_ListSandboxTemplatesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxTemplatesResponse__Output>): grpc.ClientUnaryCall;
  ListSandboxTemplates(argument: _coreweave_sandbox_v1_ListSandboxTemplatesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxTemplatesResponse__Output>): grpc.ClientUnaryCall;
  ListSandboxTemplates(argument: _coreweave_sandbox_v1_ListSandboxTemplatesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxTemplatesResponse__Output>): grpc.ClientUnaryCall;
  ListSandboxTemplates(argument: _coreweave_sandbox_v1_ListSandboxTemplatesRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxTemplatesResponse__Output>): grpc.ClientUnaryCall;
  listSandboxTemplates(argument: _coreweave_sandbox_v1_ListSandboxTemplatesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxTemplatesResponse__Output>): grpc.ClientUnaryCall;
  listSandboxTemplates(argument: _coreweave_sandbox_v1_ListSandboxTemplatesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxTemplatesResponse__Output>): grpc.ClientUnaryCall;
  listSandboxTemplates(argument: _coreweave_sandbox_v1_ListSandboxTemplatesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxTemplatesResponse__Output>): grpc.ClientUnaryCall;
  listSandboxTemplates(argument: _coreweave_sandbox_v1_ListSandboxTemplatesRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSandboxTemplatesResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateSandboxTemplate(argument: _coreweave_sandbox_v1_UpdateSandboxTemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  UpdateSandboxTemplate(argument: _coreweave_sandbox_v1_UpdateSandboxTemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  UpdateSandboxTemplate(argument: _coreweave_sandbox_v1_UpdateSandboxTemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  UpdateSandboxTemplate(argument: _coreweave_sandbox_v1_UpdateSandboxTemplateRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  updateSandboxTemplate(argument: _coreweave_sandbox_v1_UpdateSandboxTemplateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  updateSandboxTemplate(argument: _coreweave_sandbox_v1_UpdateSandboxTemplateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  updateSandboxTemplate(argument: _coreweave_sandbox_v1_UpdateSandboxTemplateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  updateSandboxTemplate(argument: _coreweave_sandbox_v1_UpdateSandboxTemplateRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SandboxTemplate__Output>): grpc.ClientUnaryCall;
  
}

export interface SandboxTemplateServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateSandboxTemplate: grpc.handleUnaryCall<_coreweave_sandbox_v1_CreateSandboxTemplateRequest__Output, _coreweave_sandbox_v1_SandboxTemplate>;
  
  DeleteSandboxTemplate: grpc.handleUnaryCall<_coreweave_sandbox_v1_DeleteSandboxTemplateRequest__Output, _google_protobuf_Empty>;
  
  GetSandboxTemplate: grpc.handleUnaryCall<_coreweave_sandbox_v1_GetSandboxTemplateRequest__Output, _coreweave_sandbox_v1_SandboxTemplate>;
  
  ListSandboxTemplates: grpc.handleUnaryCall<_coreweave_sandbox_v1_ListSandboxTemplatesRequest__Output, _coreweave_sandbox_v1_ListSandboxTemplatesResponse>;
  
  UpdateSandboxTemplate: grpc.handleUnaryCall<_coreweave_sandbox_v1_UpdateSandboxTemplateRequest__Output, _coreweave_sandbox_v1_SandboxTemplate>;
  
}

export interface SandboxTemplateServiceDefinition extends grpc.ServiceDefinition {
  CreateSandboxTemplate: MethodDefinition<_coreweave_sandbox_v1_CreateSandboxTemplateRequest, _coreweave_sandbox_v1_SandboxTemplate, _coreweave_sandbox_v1_CreateSandboxTemplateRequest__Output, _coreweave_sandbox_v1_SandboxTemplate__Output>
  DeleteSandboxTemplate: MethodDefinition<_coreweave_sandbox_v1_DeleteSandboxTemplateRequest, _google_protobuf_Empty, _coreweave_sandbox_v1_DeleteSandboxTemplateRequest__Output, _google_protobuf_Empty__Output>
  GetSandboxTemplate: MethodDefinition<_coreweave_sandbox_v1_GetSandboxTemplateRequest, _coreweave_sandbox_v1_SandboxTemplate, _coreweave_sandbox_v1_GetSandboxTemplateRequest__Output, _coreweave_sandbox_v1_SandboxTemplate__Output>
  ListSandboxTemplates: MethodDefinition<_coreweave_sandbox_v1_ListSandboxTemplatesRequest, _coreweave_sandbox_v1_ListSandboxTemplatesResponse, _coreweave_sandbox_v1_ListSandboxTemplatesRequest__Output, _coreweave_sandbox_v1_ListSandboxTemplatesResponse__Output>
  UpdateSandboxTemplate: MethodDefinition<_coreweave_sandbox_v1_UpdateSandboxTemplateRequest, _coreweave_sandbox_v1_SandboxTemplate, _coreweave_sandbox_v1_UpdateSandboxTemplateRequest__Output, _coreweave_sandbox_v1_SandboxTemplate__Output>
}
