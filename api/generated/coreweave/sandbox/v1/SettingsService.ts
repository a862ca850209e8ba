// Original file: proto/coreweave/sandbox/v1/settings.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BuildStorageConfig as _coreweave_sandbox_v1_BuildStorageConfig, BuildStorageConfig__Output as _coreweave_sandbox_v1_BuildStorageConfig__Output } from '../../../coreweave/sandbox/v1/BuildStorageConfig.js';
import type { CreateSecretStoreRequest as _coreweave_sandbox_v1_CreateSecretStoreRequest, CreateSecretStoreRequest__Output as _coreweave_sandbox_v1_CreateSecretStoreRequest__Output } from '../../../coreweave/sandbox/v1/CreateSecretStoreRequest.js';
import type { DeleteObjectStorageWifConfigRequest as _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest, DeleteObjectStorageWifConfigRequest__Output as _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest__Output } from '../../../coreweave/sandbox/v1/DeleteObjectStorageWifConfigRequest.js';
import type { DeleteSecretStoreRequest as _coreweave_sandbox_v1_DeleteSecretStoreRequest, DeleteSecretStoreRequest__Output as _coreweave_sandbox_v1_DeleteSecretStoreRequest__Output } from '../../../coreweave/sandbox/v1/DeleteSecretStoreRequest.js';
import type { Empty as _google_protobuf_Empty, Empty__Output as _google_protobuf_Empty__Output } from '../../../google/protobuf/Empty.js';
import type { FileSystemSnapshotBucketConfig as _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig, FileSystemSnapshotBucketConfig__Output as _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output } from '../../../coreweave/sandbox/v1/FileSystemSnapshotBucketConfig.js';
import type { GetBuildStorageConfigRequest as _coreweave_sandbox_v1_GetBuildStorageConfigRequest, GetBuildStorageConfigRequest__Output as _coreweave_sandbox_v1_GetBuildStorageConfigRequest__Output } from '../../../coreweave/sandbox/v1/GetBuildStorageConfigRequest.js';
import type { GetFileSystemSnapshotBucketConfigRequest as _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest, GetFileSystemSnapshotBucketConfigRequest__Output as _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest__Output } from '../../../coreweave/sandbox/v1/GetFileSystemSnapshotBucketConfigRequest.js';
import type { GetObjectStorageWifConfigRequest as _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest, GetObjectStorageWifConfigRequest__Output as _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest__Output } from '../../../coreweave/sandbox/v1/GetObjectStorageWifConfigRequest.js';
import type { GetSecretStoreRequest as _coreweave_sandbox_v1_GetSecretStoreRequest, GetSecretStoreRequest__Output as _coreweave_sandbox_v1_GetSecretStoreRequest__Output } from '../../../coreweave/sandbox/v1/GetSecretStoreRequest.js';
import type { ListSecretStoresRequest as _coreweave_sandbox_v1_ListSecretStoresRequest, ListSecretStoresRequest__Output as _coreweave_sandbox_v1_ListSecretStoresRequest__Output } from '../../../coreweave/sandbox/v1/ListSecretStoresRequest.js';
import type { ListSecretStoresResponse as _coreweave_sandbox_v1_ListSecretStoresResponse, ListSecretStoresResponse__Output as _coreweave_sandbox_v1_ListSecretStoresResponse__Output } from '../../../coreweave/sandbox/v1/ListSecretStoresResponse.js';
import type { ObjectStorageWifConfig as _coreweave_sandbox_v1_ObjectStorageWifConfig, ObjectStorageWifConfig__Output as _coreweave_sandbox_v1_ObjectStorageWifConfig__Output } from '../../../coreweave/sandbox/v1/ObjectStorageWifConfig.js';
import type { SecretStore as _coreweave_sandbox_v1_SecretStore, SecretStore__Output as _coreweave_sandbox_v1_SecretStore__Output } from '../../../coreweave/sandbox/v1/SecretStore.js';
import type { UpdateBuildStorageConfigRequest as _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest, UpdateBuildStorageConfigRequest__Output as _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest__Output } from '../../../coreweave/sandbox/v1/UpdateBuildStorageConfigRequest.js';
import type { UpdateFileSystemSnapshotBucketConfigRequest as _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest, UpdateFileSystemSnapshotBucketConfigRequest__Output as _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest__Output } from '../../../coreweave/sandbox/v1/UpdateFileSystemSnapshotBucketConfigRequest.js';
import type { UpdateObjectStorageWifConfigRequest as _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest, UpdateObjectStorageWifConfigRequest__Output as _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest__Output } from '../../../coreweave/sandbox/v1/UpdateObjectStorageWifConfigRequest.js';
import type { UpdateSecretStoreRequest as _coreweave_sandbox_v1_UpdateSecretStoreRequest, UpdateSecretStoreRequest__Output as _coreweave_sandbox_v1_UpdateSecretStoreRequest__Output } from '../../../coreweave/sandbox/v1/UpdateSecretStoreRequest.js';

export interface SettingsServiceClient extends grpc.Client {
  CreateSecretStore(argument: _coreweave_sandbox_v1_CreateSecretStoreRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  CreateSecretStore(argument: _coreweave_sandbox_v1_CreateSecretStoreRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  CreateSecretStore(argument: _coreweave_sandbox_v1_CreateSecretStoreRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  CreateSecretStore(argument: _coreweave_sandbox_v1_CreateSecretStoreRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  createSecretStore(argument: _coreweave_sandbox_v1_CreateSecretStoreRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  createSecretStore(argument: _coreweave_sandbox_v1_CreateSecretStoreRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  createSecretStore(argument: _coreweave_sandbox_v1_CreateSecretStoreRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  createSecretStore(argument: _coreweave_sandbox_v1_CreateSecretStoreRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  
  DeleteObjectStorageWifConfig(argument: _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  DeleteObjectStorageWifConfig(argument: _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  DeleteObjectStorageWifConfig(argument: _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  DeleteObjectStorageWifConfig(argument: _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteObjectStorageWifConfig(argument: _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteObjectStorageWifConfig(argument: _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteObjectStorageWifConfig(argument: _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteObjectStorageWifConfig(argument: _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  DeleteSecretStore(argument: _coreweave_sandbox_v1_DeleteSecretStoreRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  DeleteSecretStore(argument: _coreweave_sandbox_v1_DeleteSecretStoreRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  DeleteSecretStore(argument: _coreweave_sandbox_v1_DeleteSecretStoreRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  DeleteSecretStore(argument: _coreweave_sandbox_v1_DeleteSecretStoreRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteSecretStore(argument: _coreweave_sandbox_v1_DeleteSecretStoreRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteSecretStore(argument: _coreweave_sandbox_v1_DeleteSecretStoreRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteSecretStore(argument: _coreweave_sandbox_v1_DeleteSecretStoreRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  deleteSecretStore(argument: _coreweave_sandbox_v1_DeleteSecretStoreRequest, callback: grpc.requestCallback<_google_protobuf_Empty__Output>): grpc.ClientUnaryCall;
  
  GetBuildStorageConfig(argument: _coreweave_sandbox_v1_GetBuildStorageConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  GetBuildStorageConfig(argument: _coreweave_sandbox_v1_GetBuildStorageConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  GetBuildStorageConfig(argument: _coreweave_sandbox_v1_GetBuildStorageConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  GetBuildStorageConfig(argument: _coreweave_sandbox_v1_GetBuildStorageConfigRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  getBuildStorageConfig(argument: _coreweave_sandbox_v1_GetBuildStorageConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  getBuildStorageConfig(argument: _coreweave_sandbox_v1_GetBuildStorageConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  getBuildStorageConfig(argument: _coreweave_sandbox_v1_GetBuildStorageConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  getBuildStorageConfig(argument: _coreweave_sandbox_v1_GetBuildStorageConfigRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  
  GetFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  GetFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  GetFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  GetFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  getFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  getFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  getFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  getFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  
  GetObjectStorageWifConfig(argument: _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  GetObjectStorageWifConfig(argument: _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  GetObjectStorageWifConfig(argument: _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  GetObjectStorageWifConfig(argument: _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  getObjectStorageWifConfig(argument: _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  getObjectStorageWifConfig(argument: _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  getObjectStorageWifConfig(argument: _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  getObjectStorageWifConfig(argument: _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  
  GetSecretStore(argument: _coreweave_sandbox_v1_GetSecretStoreRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  GetSecretStore(argument: _coreweave_sandbox_v1_GetSecretStoreRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  GetSecretStore(argument: _coreweave_sandbox_v1_GetSecretStoreRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  GetSecretStore(argument: _coreweave_sandbox_v1_GetSecretStoreRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  getSecretStore(argument: _coreweave_sandbox_v1_GetSecretStoreRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  getSecretStore(argument: _coreweave_sandbox_v1_GetSecretStoreRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  getSecretStore(argument: _coreweave_sandbox_v1_GetSecretStoreRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  getSecretStore(argument: _coreweave_sandbox_v1_GetSecretStoreRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  
  ListSecretStores(argument: _coreweave_sandbox_v1_ListSecretStoresRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSecretStoresResponse__Output>): grpc.ClientUnaryCall;
  ListSecretStores(argument: _coreweave_sandbox_v1_ListSecretStoresRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSecretStoresResponse__Output>): grpc.ClientUnaryCall;
  ListSecretStores(argument: _coreweave_sandbox_v1_ListSecretStoresRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSecretStoresResponse__Output>): grpc.ClientUnaryCall;
  ListSecretStores(argument: _coreweave_sandbox_v1_ListSecretStoresRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSecretStoresResponse__Output>): grpc.ClientUnaryCall;
  listSecretStores(argument: _coreweave_sandbox_v1_ListSecretStoresRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSecretStoresResponse__Output>): grpc.ClientUnaryCall;
  listSecretStores(argument: _coreweave_sandbox_v1_ListSecretStoresRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSecretStoresResponse__Output>): grpc.ClientUnaryCall;
  listSecretStores(argument: _coreweave_sandbox_v1_ListSecretStoresRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSecretStoresResponse__Output>): grpc.ClientUnaryCall;
  listSecretStores(argument: _coreweave_sandbox_v1_ListSecretStoresRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ListSecretStoresResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateBuildStorageConfig(argument: _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  UpdateBuildStorageConfig(argument: _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  UpdateBuildStorageConfig(argument: _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  UpdateBuildStorageConfig(argument: _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  updateBuildStorageConfig(argument: _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  updateBuildStorageConfig(argument: _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  updateBuildStorageConfig(argument: _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  updateBuildStorageConfig(argument: _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_BuildStorageConfig__Output>): grpc.ClientUnaryCall;
  
  UpdateFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  UpdateFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  UpdateFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  UpdateFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  updateFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  updateFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  updateFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  updateFileSystemSnapshotBucketConfig(argument: _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>): grpc.ClientUnaryCall;
  
  UpdateObjectStorageWifConfig(argument: _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  UpdateObjectStorageWifConfig(argument: _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  UpdateObjectStorageWifConfig(argument: _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  UpdateObjectStorageWifConfig(argument: _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  updateObjectStorageWifConfig(argument: _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  updateObjectStorageWifConfig(argument: _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  updateObjectStorageWifConfig(argument: _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  updateObjectStorageWifConfig(argument: _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_ObjectStorageWifConfig__Output>): grpc.ClientUnaryCall;
  
  UpdateSecretStore(argument: _coreweave_sandbox_v1_UpdateSecretStoreRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  UpdateSecretStore(argument: _coreweave_sandbox_v1_UpdateSecretStoreRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  UpdateSecretStore(argument: _coreweave_sandbox_v1_UpdateSecretStoreRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  UpdateSecretStore(argument: _coreweave_sandbox_v1_UpdateSecretStoreRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  updateSecretStore(argument: _coreweave_sandbox_v1_UpdateSecretStoreRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  updateSecretStore(argument: _coreweave_sandbox_v1_UpdateSecretStoreRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  updateSecretStore(argument: _coreweave_sandbox_v1_UpdateSecretStoreRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  updateSecretStore(argument: _coreweave_sandbox_v1_UpdateSecretStoreRequest, callback: grpc.requestCallback<_coreweave_sandbox_v1_SecretStore__Output>): grpc.ClientUnaryCall;
  
}

export interface SettingsServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateSecretStore: grpc.handleUnaryCall<_coreweave_sandbox_v1_CreateSecretStoreRequest__Output, _coreweave_sandbox_v1_SecretStore>;
  
  DeleteObjectStorageWifConfig: grpc.handleUnaryCall<_coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest__Output, _google_protobuf_Empty>;
  
  DeleteSecretStore: grpc.handleUnaryCall<_coreweave_sandbox_v1_DeleteSecretStoreRequest__Output, _google_protobuf_Empty>;
  
  GetBuildStorageConfig: grpc.handleUnaryCall<_coreweave_sandbox_v1_GetBuildStorageConfigRequest__Output, _coreweave_sandbox_v1_BuildStorageConfig>;
  
  GetFileSystemSnapshotBucketConfig: grpc.handleUnaryCall<_coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest__Output, _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig>;
  
  GetObjectStorageWifConfig: grpc.handleUnaryCall<_coreweave_sandbox_v1_GetObjectStorageWifConfigRequest__Output, _coreweave_sandbox_v1_ObjectStorageWifConfig>;
  
  GetSecretStore: grpc.handleUnaryCall<_coreweave_sandbox_v1_GetSecretStoreRequest__Output, _coreweave_sandbox_v1_SecretStore>;
  
  ListSecretStores: grpc.handleUnaryCall<_coreweave_sandbox_v1_ListSecretStoresRequest__Output, _coreweave_sandbox_v1_ListSecretStoresResponse>;
  
  UpdateBuildStorageConfig: grpc.handleUnaryCall<_coreweave_sandbox_v1_UpdateBuildStorageConfigRequest__Output, _coreweave_sandbox_v1_BuildStorageConfig>;
  
  UpdateFileSystemSnapshotBucketConfig: grpc.handleUnaryCall<_coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest__Output, _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig>;
  
  UpdateObjectStorageWifConfig: grpc.handleUnaryCall<_coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest__Output, _coreweave_sandbox_v1_ObjectStorageWifConfig>;
  
  UpdateSecretStore: grpc.handleUnaryCall<_coreweave_sandbox_v1_UpdateSecretStoreRequest__Output, _coreweave_sandbox_v1_SecretStore>;
  
}

export interface SettingsServiceDefinition extends grpc.ServiceDefinition {
  CreateSecretStore: MethodDefinition<_coreweave_sandbox_v1_CreateSecretStoreRequest, _coreweave_sandbox_v1_SecretStore, _coreweave_sandbox_v1_CreateSecretStoreRequest__Output, _coreweave_sandbox_v1_SecretStore__Output>
  DeleteObjectStorageWifConfig: MethodDefinition<_coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest, _google_protobuf_Empty, _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest__Output, _google_protobuf_Empty__Output>
  DeleteSecretStore: MethodDefinition<_coreweave_sandbox_v1_DeleteSecretStoreRequest, _google_protobuf_Empty, _coreweave_sandbox_v1_DeleteSecretStoreRequest__Output, _google_protobuf_Empty__Output>
  GetBuildStorageConfig: MethodDefinition<_coreweave_sandbox_v1_GetBuildStorageConfigRequest, _coreweave_sandbox_v1_BuildStorageConfig, _coreweave_sandbox_v1_GetBuildStorageConfigRequest__Output, _coreweave_sandbox_v1_BuildStorageConfig__Output>
  GetFileSystemSnapshotBucketConfig: MethodDefinition<_coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest, _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig, _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest__Output, _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>
  GetObjectStorageWifConfig: MethodDefinition<_coreweave_sandbox_v1_GetObjectStorageWifConfigRequest, _coreweave_sandbox_v1_ObjectStorageWifConfig, _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest__Output, _coreweave_sandbox_v1_ObjectStorageWifConfig__Output>
  GetSecretStore: MethodDefinition<_coreweave_sandbox_v1_GetSecretStoreRequest, _coreweave_sandbox_v1_SecretStore, _coreweave_sandbox_v1_GetSecretStoreRequest__Output, _coreweave_sandbox_v1_SecretStore__Output>
  ListSecretStores: MethodDefinition<_coreweave_sandbox_v1_ListSecretStoresRequest, _coreweave_sandbox_v1_ListSecretStoresResponse, _coreweave_sandbox_v1_ListSecretStoresRequest__Output, _coreweave_sandbox_v1_ListSecretStoresResponse__Output>
  UpdateBuildStorageConfig: MethodDefinition<_coreweave_sandbox_v1_UpdateBuildStorageConfigRequest, _coreweave_sandbox_v1_BuildStorageConfig, _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest__Output, _coreweave_sandbox_v1_BuildStorageConfig__Output>
  UpdateFileSystemSnapshotBucketConfig: MethodDefinition<_coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest, _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig, _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest__Output, _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>
  UpdateObjectStorageWifConfig: MethodDefinition<_coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest, _coreweave_sandbox_v1_ObjectStorageWifConfig, _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest__Output, _coreweave_sandbox_v1_ObjectStorageWifConfig__Output>
  UpdateSecretStore: MethodDefinition<_coreweave_sandbox_v1_UpdateSecretStoreRequest, _coreweave_sandbox_v1_SecretStore, _coreweave_sandbox_v1_UpdateSecretStoreRequest__Output, _coreweave_sandbox_v1_SecretStore__Output>
}
