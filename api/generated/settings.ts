import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { BuildContextObject as _coreweave_sandbox_v1_BuildContextObject, BuildContextObject__Output as _coreweave_sandbox_v1_BuildContextObject__Output } from './coreweave/sandbox/v1/BuildContextObject.js';
import type { BuildStorageConfig as _coreweave_sandbox_v1_BuildStorageConfig, BuildStorageConfig__Output as _coreweave_sandbox_v1_BuildStorageConfig__Output } from './coreweave/sandbox/v1/BuildStorageConfig.js';
import type { CidrBlock as _coreweave_sandbox_v1_CidrBlock, CidrBlock__Output as _coreweave_sandbox_v1_CidrBlock__Output } from './coreweave/sandbox/v1/CidrBlock.js';
import type { ConnectSandboxRequest as _coreweave_sandbox_v1_ConnectSandboxRequest, ConnectSandboxRequest__Output as _coreweave_sandbox_v1_ConnectSandboxRequest__Output } from './coreweave/sandbox/v1/ConnectSandboxRequest.js';
import type { Container as _coreweave_sandbox_v1_Container, Container__Output as _coreweave_sandbox_v1_Container__Output } from './coreweave/sandbox/v1/Container.js';
import type { ContainerStatus as _coreweave_sandbox_v1_ContainerStatus, ContainerStatus__Output as _coreweave_sandbox_v1_ContainerStatus__Output } from './coreweave/sandbox/v1/ContainerStatus.js';
import type { CreateFileSystemSnapshotRequest as _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest, CreateFileSystemSnapshotRequest__Output as _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest__Output } from './coreweave/sandbox/v1/CreateFileSystemSnapshotRequest.js';
import type { CreateSandboxFromFileRequest as _coreweave_sandbox_v1_CreateSandboxFromFileRequest, CreateSandboxFromFileRequest__Output as _coreweave_sandbox_v1_CreateSandboxFromFileRequest__Output } from './coreweave/sandbox/v1/CreateSandboxFromFileRequest.js';
import type { CreateSandboxFromTemplateRequest as _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest, CreateSandboxFromTemplateRequest__Output as _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest__Output } from './coreweave/sandbox/v1/CreateSandboxFromTemplateRequest.js';
import type { CreateSandboxRequest as _coreweave_sandbox_v1_CreateSandboxRequest, CreateSandboxRequest__Output as _coreweave_sandbox_v1_CreateSandboxRequest__Output } from './coreweave/sandbox/v1/CreateSandboxRequest.js';
import type { CreateSecretStoreRequest as _coreweave_sandbox_v1_CreateSecretStoreRequest, CreateSecretStoreRequest__Output as _coreweave_sandbox_v1_CreateSecretStoreRequest__Output } from './coreweave/sandbox/v1/CreateSecretStoreRequest.js';
import type { DeleteFileSystemSnapshotRequest as _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest, DeleteFileSystemSnapshotRequest__Output as _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest__Output } from './coreweave/sandbox/v1/DeleteFileSystemSnapshotRequest.js';
import type { DeleteObjectStorageWifConfigRequest as _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest, DeleteObjectStorageWifConfigRequest__Output as _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest__Output } from './coreweave/sandbox/v1/DeleteObjectStorageWifConfigRequest.js';
import type { DeleteSandboxRequest as _coreweave_sandbox_v1_DeleteSandboxRequest, DeleteSandboxRequest__Output as _coreweave_sandbox_v1_DeleteSandboxRequest__Output } from './coreweave/sandbox/v1/DeleteSandboxRequest.js';
import type { DeleteSandboxResponse as _coreweave_sandbox_v1_DeleteSandboxResponse, DeleteSandboxResponse__Output as _coreweave_sandbox_v1_DeleteSandboxResponse__Output } from './coreweave/sandbox/v1/DeleteSandboxResponse.js';
import type { DeleteSecretStoreRequest as _coreweave_sandbox_v1_DeleteSecretStoreRequest, DeleteSecretStoreRequest__Output as _coreweave_sandbox_v1_DeleteSecretStoreRequest__Output } from './coreweave/sandbox/v1/DeleteSecretStoreRequest.js';
import type { EgressRule as _coreweave_sandbox_v1_EgressRule, EgressRule__Output as _coreweave_sandbox_v1_EgressRule__Output } from './coreweave/sandbox/v1/EgressRule.js';
import type { EndpointSpec as _coreweave_sandbox_v1_EndpointSpec, EndpointSpec__Output as _coreweave_sandbox_v1_EndpointSpec__Output } from './coreweave/sandbox/v1/EndpointSpec.js';
import type { EndpointStatus as _coreweave_sandbox_v1_EndpointStatus, EndpointStatus__Output as _coreweave_sandbox_v1_EndpointStatus__Output } from './coreweave/sandbox/v1/EndpointStatus.js';
import type { ExecRequest as _coreweave_sandbox_v1_ExecRequest, ExecRequest__Output as _coreweave_sandbox_v1_ExecRequest__Output } from './coreweave/sandbox/v1/ExecRequest.js';
import type { ExecResponse as _coreweave_sandbox_v1_ExecResponse, ExecResponse__Output as _coreweave_sandbox_v1_ExecResponse__Output } from './coreweave/sandbox/v1/ExecResponse.js';
import type { ExecStreamClose as _coreweave_sandbox_v1_ExecStreamClose, ExecStreamClose__Output as _coreweave_sandbox_v1_ExecStreamClose__Output } from './coreweave/sandbox/v1/ExecStreamClose.js';
import type { ExecStreamError as _coreweave_sandbox_v1_ExecStreamError, ExecStreamError__Output as _coreweave_sandbox_v1_ExecStreamError__Output } from './coreweave/sandbox/v1/ExecStreamError.js';
import type { ExecStreamExit as _coreweave_sandbox_v1_ExecStreamExit, ExecStreamExit__Output as _coreweave_sandbox_v1_ExecStreamExit__Output } from './coreweave/sandbox/v1/ExecStreamExit.js';
import type { ExecStreamInit as _coreweave_sandbox_v1_ExecStreamInit, ExecStreamInit__Output as _coreweave_sandbox_v1_ExecStreamInit__Output } from './coreweave/sandbox/v1/ExecStreamInit.js';
import type { ExecStreamOutput as _coreweave_sandbox_v1_ExecStreamOutput, ExecStreamOutput__Output as _coreweave_sandbox_v1_ExecStreamOutput__Output } from './coreweave/sandbox/v1/ExecStreamOutput.js';
import type { ExecStreamReady as _coreweave_sandbox_v1_ExecStreamReady, ExecStreamReady__Output as _coreweave_sandbox_v1_ExecStreamReady__Output } from './coreweave/sandbox/v1/ExecStreamReady.js';
import type { ExecStreamRequest as _coreweave_sandbox_v1_ExecStreamRequest, ExecStreamRequest__Output as _coreweave_sandbox_v1_ExecStreamRequest__Output } from './coreweave/sandbox/v1/ExecStreamRequest.js';
import type { ExecStreamResize as _coreweave_sandbox_v1_ExecStreamResize, ExecStreamResize__Output as _coreweave_sandbox_v1_ExecStreamResize__Output } from './coreweave/sandbox/v1/ExecStreamResize.js';
import type { ExecStreamResponse as _coreweave_sandbox_v1_ExecStreamResponse, ExecStreamResponse__Output as _coreweave_sandbox_v1_ExecStreamResponse__Output } from './coreweave/sandbox/v1/ExecStreamResponse.js';
import type { FileMount as _coreweave_sandbox_v1_FileMount, FileMount__Output as _coreweave_sandbox_v1_FileMount__Output } from './coreweave/sandbox/v1/FileMount.js';
import type { FileSystemSnapshot as _coreweave_sandbox_v1_FileSystemSnapshot, FileSystemSnapshot__Output as _coreweave_sandbox_v1_FileSystemSnapshot__Output } from './coreweave/sandbox/v1/FileSystemSnapshot.js';
import type { FileSystemSnapshotBucketConfig as _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig, FileSystemSnapshotBucketConfig__Output as _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output } from './coreweave/sandbox/v1/FileSystemSnapshotBucketConfig.js';
import type { GetBuildStorageConfigRequest as _coreweave_sandbox_v1_GetBuildStorageConfigRequest, GetBuildStorageConfigRequest__Output as _coreweave_sandbox_v1_GetBuildStorageConfigRequest__Output } from './coreweave/sandbox/v1/GetBuildStorageConfigRequest.js';
import type { GetFileSystemSnapshotBucketConfigRequest as _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest, GetFileSystemSnapshotBucketConfigRequest__Output as _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest__Output } from './coreweave/sandbox/v1/GetFileSystemSnapshotBucketConfigRequest.js';
import type { GetFileSystemSnapshotRequest as _coreweave_sandbox_v1_GetFileSystemSnapshotRequest, GetFileSystemSnapshotRequest__Output as _coreweave_sandbox_v1_GetFileSystemSnapshotRequest__Output } from './coreweave/sandbox/v1/GetFileSystemSnapshotRequest.js';
import type { GetObjectStorageWifConfigRequest as _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest, GetObjectStorageWifConfigRequest__Output as _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest__Output } from './coreweave/sandbox/v1/GetObjectStorageWifConfigRequest.js';
import type { GetSandboxBuildLogsRequest as _coreweave_sandbox_v1_GetSandboxBuildLogsRequest, GetSandboxBuildLogsRequest__Output as _coreweave_sandbox_v1_GetSandboxBuildLogsRequest__Output } from './coreweave/sandbox/v1/GetSandboxBuildLogsRequest.js';
import type { GetSandboxBuildLogsResponse as _coreweave_sandbox_v1_GetSandboxBuildLogsResponse, GetSandboxBuildLogsResponse__Output as _coreweave_sandbox_v1_GetSandboxBuildLogsResponse__Output } from './coreweave/sandbox/v1/GetSandboxBuildLogsResponse.js';
import type { GetSandboxRequest as _coreweave_sandbox_v1_GetSandboxRequest, GetSandboxRequest__Output as _coreweave_sandbox_v1_GetSandboxRequest__Output } from './coreweave/sandbox/v1/GetSandboxRequest.js';
import type { GetSecretStoreRequest as _coreweave_sandbox_v1_GetSecretStoreRequest, GetSecretStoreRequest__Output as _coreweave_sandbox_v1_GetSecretStoreRequest__Output } from './coreweave/sandbox/v1/GetSecretStoreRequest.js';
import type { Gpu as _coreweave_sandbox_v1_Gpu, Gpu__Output as _coreweave_sandbox_v1_Gpu__Output } from './coreweave/sandbox/v1/Gpu.js';
import type { ImagePullCredentials as _coreweave_sandbox_v1_ImagePullCredentials, ImagePullCredentials__Output as _coreweave_sandbox_v1_ImagePullCredentials__Output } from './coreweave/sandbox/v1/ImagePullCredentials.js';
import type { IngressRule as _coreweave_sandbox_v1_IngressRule, IngressRule__Output as _coreweave_sandbox_v1_IngressRule__Output } from './coreweave/sandbox/v1/IngressRule.js';
import type { ListFileSystemSnapshotsRequest as _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest, ListFileSystemSnapshotsRequest__Output as _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest__Output } from './coreweave/sandbox/v1/ListFileSystemSnapshotsRequest.js';
import type { ListFileSystemSnapshotsResponse as _coreweave_sandbox_v1_ListFileSystemSnapshotsResponse, ListFileSystemSnapshotsResponse__Output as _coreweave_sandbox_v1_ListFileSystemSnapshotsResponse__Output } from './coreweave/sandbox/v1/ListFileSystemSnapshotsResponse.js';
import type { ListSandboxesRequest as _coreweave_sandbox_v1_ListSandboxesRequest, ListSandboxesRequest__Output as _coreweave_sandbox_v1_ListSandboxesRequest__Output } from './coreweave/sandbox/v1/ListSandboxesRequest.js';
import type { ListSandboxesResponse as _coreweave_sandbox_v1_ListSandboxesResponse, ListSandboxesResponse__Output as _coreweave_sandbox_v1_ListSandboxesResponse__Output } from './coreweave/sandbox/v1/ListSandboxesResponse.js';
import type { ListSecretStoresRequest as _coreweave_sandbox_v1_ListSecretStoresRequest, ListSecretStoresRequest__Output as _coreweave_sandbox_v1_ListSecretStoresRequest__Output } from './coreweave/sandbox/v1/ListSecretStoresRequest.js';
import type { ListSecretStoresResponse as _coreweave_sandbox_v1_ListSecretStoresResponse, ListSecretStoresResponse__Output as _coreweave_sandbox_v1_ListSecretStoresResponse__Output } from './coreweave/sandbox/v1/ListSecretStoresResponse.js';
import type { LogEntry as _coreweave_sandbox_v1_LogEntry, LogEntry__Output as _coreweave_sandbox_v1_LogEntry__Output } from './coreweave/sandbox/v1/LogEntry.js';
import type { LogStreamError as _coreweave_sandbox_v1_LogStreamError, LogStreamError__Output as _coreweave_sandbox_v1_LogStreamError__Output } from './coreweave/sandbox/v1/LogStreamError.js';
import type { NetworkOptions as _coreweave_sandbox_v1_NetworkOptions, NetworkOptions__Output as _coreweave_sandbox_v1_NetworkOptions__Output } from './coreweave/sandbox/v1/NetworkOptions.js';
import type { ObjectStorageAccess as _coreweave_sandbox_v1_ObjectStorageAccess, ObjectStorageAccess__Output as _coreweave_sandbox_v1_ObjectStorageAccess__Output } from './coreweave/sandbox/v1/ObjectStorageAccess.js';
import type { ObjectStorageWifConfig as _coreweave_sandbox_v1_ObjectStorageWifConfig, ObjectStorageWifConfig__Output as _coreweave_sandbox_v1_ObjectStorageWifConfig__Output } from './coreweave/sandbox/v1/ObjectStorageWifConfig.js';
import type { PartialContainer as _coreweave_sandbox_v1_PartialContainer, PartialContainer__Output as _coreweave_sandbox_v1_PartialContainer__Output } from './coreweave/sandbox/v1/PartialContainer.js';
import type { PartialSandboxSpec as _coreweave_sandbox_v1_PartialSandboxSpec, PartialSandboxSpec__Output as _coreweave_sandbox_v1_PartialSandboxSpec__Output } from './coreweave/sandbox/v1/PartialSandboxSpec.js';
import type { PortRange as _coreweave_sandbox_v1_PortRange, PortRange__Output as _coreweave_sandbox_v1_PortRange__Output } from './coreweave/sandbox/v1/PortRange.js';
import type { Probe as _coreweave_sandbox_v1_Probe, Probe__Output as _coreweave_sandbox_v1_Probe__Output } from './coreweave/sandbox/v1/Probe.js';
import type { PurgeSandboxesRequest as _coreweave_sandbox_v1_PurgeSandboxesRequest, PurgeSandboxesRequest__Output as _coreweave_sandbox_v1_PurgeSandboxesRequest__Output } from './coreweave/sandbox/v1/PurgeSandboxesRequest.js';
import type { PurgeSandboxesResponse as _coreweave_sandbox_v1_PurgeSandboxesResponse, PurgeSandboxesResponse__Output as _coreweave_sandbox_v1_PurgeSandboxesResponse__Output } from './coreweave/sandbox/v1/PurgeSandboxesResponse.js';
import type { ReadFileRequest as _coreweave_sandbox_v1_ReadFileRequest, ReadFileRequest__Output as _coreweave_sandbox_v1_ReadFileRequest__Output } from './coreweave/sandbox/v1/ReadFileRequest.js';
import type { ReadFileResponse as _coreweave_sandbox_v1_ReadFileResponse, ReadFileResponse__Output as _coreweave_sandbox_v1_ReadFileResponse__Output } from './coreweave/sandbox/v1/ReadFileResponse.js';
import type { ResourceRequirements as _coreweave_sandbox_v1_ResourceRequirements, ResourceRequirements__Output as _coreweave_sandbox_v1_ResourceRequirements__Output } from './coreweave/sandbox/v1/ResourceRequirements.js';
import type { ResourceUsage as _coreweave_sandbox_v1_ResourceUsage, ResourceUsage__Output as _coreweave_sandbox_v1_ResourceUsage__Output } from './coreweave/sandbox/v1/ResourceUsage.js';
import type { Resources as _coreweave_sandbox_v1_Resources, Resources__Output as _coreweave_sandbox_v1_Resources__Output } from './coreweave/sandbox/v1/Resources.js';
import type { RuntimeClassMapping as _coreweave_sandbox_v1_RuntimeClassMapping, RuntimeClassMapping__Output as _coreweave_sandbox_v1_RuntimeClassMapping__Output } from './coreweave/sandbox/v1/RuntimeClassMapping.js';
import type { Sandbox as _coreweave_sandbox_v1_Sandbox, Sandbox__Output as _coreweave_sandbox_v1_Sandbox__Output } from './coreweave/sandbox/v1/Sandbox.js';
import type { SandboxConnection as _coreweave_sandbox_v1_SandboxConnection, SandboxConnection__Output as _coreweave_sandbox_v1_SandboxConnection__Output } from './coreweave/sandbox/v1/SandboxConnection.js';
import type { SandboxServiceClient as _coreweave_sandbox_v1_SandboxServiceClient, SandboxServiceDefinition as _coreweave_sandbox_v1_SandboxServiceDefinition } from './coreweave/sandbox/v1/SandboxService.js';
import type { SandboxSpec as _coreweave_sandbox_v1_SandboxSpec, SandboxSpec__Output as _coreweave_sandbox_v1_SandboxSpec__Output } from './coreweave/sandbox/v1/SandboxSpec.js';
import type { SandboxStatus as _coreweave_sandbox_v1_SandboxStatus, SandboxStatus__Output as _coreweave_sandbox_v1_SandboxStatus__Output } from './coreweave/sandbox/v1/SandboxStatus.js';
import type { SandboxVolume as _coreweave_sandbox_v1_SandboxVolume, SandboxVolume__Output as _coreweave_sandbox_v1_SandboxVolume__Output } from './coreweave/sandbox/v1/SandboxVolume.js';
import type { ScratchVolume as _coreweave_sandbox_v1_ScratchVolume, ScratchVolume__Output as _coreweave_sandbox_v1_ScratchVolume__Output } from './coreweave/sandbox/v1/ScratchVolume.js';
import type { SecretMapping as _coreweave_sandbox_v1_SecretMapping, SecretMapping__Output as _coreweave_sandbox_v1_SecretMapping__Output } from './coreweave/sandbox/v1/SecretMapping.js';
import type { SecretSource as _coreweave_sandbox_v1_SecretSource, SecretSource__Output as _coreweave_sandbox_v1_SecretSource__Output } from './coreweave/sandbox/v1/SecretSource.js';
import type { SecretStore as _coreweave_sandbox_v1_SecretStore, SecretStore__Output as _coreweave_sandbox_v1_SecretStore__Output } from './coreweave/sandbox/v1/SecretStore.js';
import type { SecretStoreReference as _coreweave_sandbox_v1_SecretStoreReference, SecretStoreReference__Output as _coreweave_sandbox_v1_SecretStoreReference__Output } from './coreweave/sandbox/v1/SecretStoreReference.js';
import type { SecurityContext as _coreweave_sandbox_v1_SecurityContext, SecurityContext__Output as _coreweave_sandbox_v1_SecurityContext__Output } from './coreweave/sandbox/v1/SecurityContext.js';
import type { SelectorBlock as _coreweave_sandbox_v1_SelectorBlock, SelectorBlock__Output as _coreweave_sandbox_v1_SelectorBlock__Output } from './coreweave/sandbox/v1/SelectorBlock.js';
import type { Service as _coreweave_sandbox_v1_Service, Service__Output as _coreweave_sandbox_v1_Service__Output } from './coreweave/sandbox/v1/Service.js';
import type { ServiceStatus as _coreweave_sandbox_v1_ServiceStatus, ServiceStatus__Output as _coreweave_sandbox_v1_ServiceStatus__Output } from './coreweave/sandbox/v1/ServiceStatus.js';
import type { SettingsServiceClient as _coreweave_sandbox_v1_SettingsServiceClient, SettingsServiceDefinition as _coreweave_sandbox_v1_SettingsServiceDefinition } from './coreweave/sandbox/v1/SettingsService.js';
import type { StreamLogsRequest as _coreweave_sandbox_v1_StreamLogsRequest, StreamLogsRequest__Output as _coreweave_sandbox_v1_StreamLogsRequest__Output } from './coreweave/sandbox/v1/StreamLogsRequest.js';
import type { UpdateBuildStorageConfigRequest as _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest, UpdateBuildStorageConfigRequest__Output as _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest__Output } from './coreweave/sandbox/v1/UpdateBuildStorageConfigRequest.js';
import type { UpdateFileSystemSnapshotBucketConfigRequest as _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest, UpdateFileSystemSnapshotBucketConfigRequest__Output as _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest__Output } from './coreweave/sandbox/v1/UpdateFileSystemSnapshotBucketConfigRequest.js';
import type { UpdateObjectStorageWifConfigRequest as _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest, UpdateObjectStorageWifConfigRequest__Output as _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest__Output } from './coreweave/sandbox/v1/UpdateObjectStorageWifConfigRequest.js';
import type { UpdateSecretStoreRequest as _coreweave_sandbox_v1_UpdateSecretStoreRequest, UpdateSecretStoreRequest__Output as _coreweave_sandbox_v1_UpdateSecretStoreRequest__Output } from './coreweave/sandbox/v1/UpdateSecretStoreRequest.js';
import type { VolumeMount as _coreweave_sandbox_v1_VolumeMount, VolumeMount__Output as _coreweave_sandbox_v1_VolumeMount__Output } from './coreweave/sandbox/v1/VolumeMount.js';
import type { WandBStoreConfig as _coreweave_sandbox_v1_WandBStoreConfig, WandBStoreConfig__Output as _coreweave_sandbox_v1_WandBStoreConfig__Output } from './coreweave/sandbox/v1/WandBStoreConfig.js';
import type { WriteFileRequest as _coreweave_sandbox_v1_WriteFileRequest, WriteFileRequest__Output as _coreweave_sandbox_v1_WriteFileRequest__Output } from './coreweave/sandbox/v1/WriteFileRequest.js';
import type { WriteFileResponse as _coreweave_sandbox_v1_WriteFileResponse, WriteFileResponse__Output as _coreweave_sandbox_v1_WriteFileResponse__Output } from './coreweave/sandbox/v1/WriteFileResponse.js';
import type { CustomHttpPattern as _google_api_CustomHttpPattern, CustomHttpPattern__Output as _google_api_CustomHttpPattern__Output } from './google/api/CustomHttpPattern.js';
import type { Http as _google_api_Http, Http__Output as _google_api_Http__Output } from './google/api/Http.js';
import type { HttpRule as _google_api_HttpRule, HttpRule__Output as _google_api_HttpRule__Output } from './google/api/HttpRule.js';
import type { DescriptorProto as _google_protobuf_DescriptorProto, DescriptorProto__Output as _google_protobuf_DescriptorProto__Output } from './google/protobuf/DescriptorProto.js';
import type { Empty as _google_protobuf_Empty, Empty__Output as _google_protobuf_Empty__Output } from './google/protobuf/Empty.js';
import type { EnumDescriptorProto as _google_protobuf_EnumDescriptorProto, EnumDescriptorProto__Output as _google_protobuf_EnumDescriptorProto__Output } from './google/protobuf/EnumDescriptorProto.js';
import type { EnumOptions as _google_protobuf_EnumOptions, EnumOptions__Output as _google_protobuf_EnumOptions__Output } from './google/protobuf/EnumOptions.js';
import type { EnumValueDescriptorProto as _google_protobuf_EnumValueDescriptorProto, EnumValueDescriptorProto__Output as _google_protobuf_EnumValueDescriptorProto__Output } from './google/protobuf/EnumValueDescriptorProto.js';
import type { EnumValueOptions as _google_protobuf_EnumValueOptions, EnumValueOptions__Output as _google_protobuf_EnumValueOptions__Output } from './google/protobuf/EnumValueOptions.js';
import type { ExtensionRangeOptions as _google_protobuf_ExtensionRangeOptions, ExtensionRangeOptions__Output as _google_protobuf_ExtensionRangeOptions__Output } from './google/protobuf/ExtensionRangeOptions.js';
import type { FeatureSet as _google_protobuf_FeatureSet, FeatureSet__Output as _google_protobuf_FeatureSet__Output } from './google/protobuf/FeatureSet.js';
import type { FeatureSetDefaults as _google_protobuf_FeatureSetDefaults, FeatureSetDefaults__Output as _google_protobuf_FeatureSetDefaults__Output } from './google/protobuf/FeatureSetDefaults.js';
import type { FieldDescriptorProto as _google_protobuf_FieldDescriptorProto, FieldDescriptorProto__Output as _google_protobuf_FieldDescriptorProto__Output } from './google/protobuf/FieldDescriptorProto.js';
import type { FieldMask as _google_protobuf_FieldMask, FieldMask__Output as _google_protobuf_FieldMask__Output } from './google/protobuf/FieldMask.js';
import type { FieldOptions as _google_protobuf_FieldOptions, FieldOptions__Output as _google_protobuf_FieldOptions__Output } from './google/protobuf/FieldOptions.js';
import type { FileDescriptorProto as _google_protobuf_FileDescriptorProto, FileDescriptorProto__Output as _google_protobuf_FileDescriptorProto__Output } from './google/protobuf/FileDescriptorProto.js';
import type { FileDescriptorSet as _google_protobuf_FileDescriptorSet, FileDescriptorSet__Output as _google_protobuf_FileDescriptorSet__Output } from './google/protobuf/FileDescriptorSet.js';
import type { FileOptions as _google_protobuf_FileOptions, FileOptions__Output as _google_protobuf_FileOptions__Output } from './google/protobuf/FileOptions.js';
import type { GeneratedCodeInfo as _google_protobuf_GeneratedCodeInfo, GeneratedCodeInfo__Output as _google_protobuf_GeneratedCodeInfo__Output } from './google/protobuf/GeneratedCodeInfo.js';
import type { MessageOptions as _google_protobuf_MessageOptions, MessageOptions__Output as _google_protobuf_MessageOptions__Output } from './google/protobuf/MessageOptions.js';
import type { MethodDescriptorProto as _google_protobuf_MethodDescriptorProto, MethodDescriptorProto__Output as _google_protobuf_MethodDescriptorProto__Output } from './google/protobuf/MethodDescriptorProto.js';
import type { MethodOptions as _google_protobuf_MethodOptions, MethodOptions__Output as _google_protobuf_MethodOptions__Output } from './google/protobuf/MethodOptions.js';
import type { OneofDescriptorProto as _google_protobuf_OneofDescriptorProto, OneofDescriptorProto__Output as _google_protobuf_OneofDescriptorProto__Output } from './google/protobuf/OneofDescriptorProto.js';
import type { OneofOptions as _google_protobuf_OneofOptions, OneofOptions__Output as _google_protobuf_OneofOptions__Output } from './google/protobuf/OneofOptions.js';
import type { ServiceDescriptorProto as _google_protobuf_ServiceDescriptorProto, ServiceDescriptorProto__Output as _google_protobuf_ServiceDescriptorProto__Output } from './google/protobuf/ServiceDescriptorProto.js';
import type { ServiceOptions as _google_protobuf_ServiceOptions, ServiceOptions__Output as _google_protobuf_ServiceOptions__Output } from './google/protobuf/ServiceOptions.js';
import type { SourceCodeInfo as _google_protobuf_SourceCodeInfo, SourceCodeInfo__Output as _google_protobuf_SourceCodeInfo__Output } from './google/protobuf/SourceCodeInfo.js';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp.js';
import type { UninterpretedOption as _google_protobuf_UninterpretedOption, UninterpretedOption__Output as _google_protobuf_UninterpretedOption__Output } from './google/protobuf/UninterpretedOption.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  coreweave: {
    sandbox: {
      v1: {
        BuildContextObject: MessageTypeDefinition<_coreweave_sandbox_v1_BuildContextObject, _coreweave_sandbox_v1_BuildContextObject__Output>
        BuildStorageConfig: MessageTypeDefinition<_coreweave_sandbox_v1_BuildStorageConfig, _coreweave_sandbox_v1_BuildStorageConfig__Output>
        BuildStorageMode: EnumTypeDefinition
        CidrBlock: MessageTypeDefinition<_coreweave_sandbox_v1_CidrBlock, _coreweave_sandbox_v1_CidrBlock__Output>
        ConnectSandboxRequest: MessageTypeDefinition<_coreweave_sandbox_v1_ConnectSandboxRequest, _coreweave_sandbox_v1_ConnectSandboxRequest__Output>
        Container: MessageTypeDefinition<_coreweave_sandbox_v1_Container, _coreweave_sandbox_v1_Container__Output>
        ContainerStatus: MessageTypeDefinition<_coreweave_sandbox_v1_ContainerStatus, _coreweave_sandbox_v1_ContainerStatus__Output>
        Control: EnumTypeDefinition
        CreateFileSystemSnapshotRequest: MessageTypeDefinition<_coreweave_sandbox_v1_CreateFileSystemSnapshotRequest, _coreweave_sandbox_v1_CreateFileSystemSnapshotRequest__Output>
        CreateSandboxFromFileRequest: MessageTypeDefinition<_coreweave_sandbox_v1_CreateSandboxFromFileRequest, _coreweave_sandbox_v1_CreateSandboxFromFileRequest__Output>
        CreateSandboxFromTemplateRequest: MessageTypeDefinition<_coreweave_sandbox_v1_CreateSandboxFromTemplateRequest, _coreweave_sandbox_v1_CreateSandboxFromTemplateRequest__Output>
        CreateSandboxRequest: MessageTypeDefinition<_coreweave_sandbox_v1_CreateSandboxRequest, _coreweave_sandbox_v1_CreateSandboxRequest__Output>
        CreateSecretStoreRequest: MessageTypeDefinition<_coreweave_sandbox_v1_CreateSecretStoreRequest, _coreweave_sandbox_v1_CreateSecretStoreRequest__Output>
        DNSEgressMode: EnumTypeDefinition
        DeleteFileSystemSnapshotRequest: MessageTypeDefinition<_coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest, _coreweave_sandbox_v1_DeleteFileSystemSnapshotRequest__Output>
        DeleteObjectStorageWifConfigRequest: MessageTypeDefinition<_coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest, _coreweave_sandbox_v1_DeleteObjectStorageWifConfigRequest__Output>
        DeleteSandboxRequest: MessageTypeDefinition<_coreweave_sandbox_v1_DeleteSandboxRequest, _coreweave_sandbox_v1_DeleteSandboxRequest__Output>
        DeleteSandboxResponse: MessageTypeDefinition<_coreweave_sandbox_v1_DeleteSandboxResponse, _coreweave_sandbox_v1_DeleteSandboxResponse__Output>
        DeleteSecretStoreRequest: MessageTypeDefinition<_coreweave_sandbox_v1_DeleteSecretStoreRequest, _coreweave_sandbox_v1_DeleteSecretStoreRequest__Output>
        EgressRule: MessageTypeDefinition<_coreweave_sandbox_v1_EgressRule, _coreweave_sandbox_v1_EgressRule__Output>
        EndpointAuth: EnumTypeDefinition
        EndpointKind: EnumTypeDefinition
        EndpointSpec: MessageTypeDefinition<_coreweave_sandbox_v1_EndpointSpec, _coreweave_sandbox_v1_EndpointSpec__Output>
        EndpointStatus: MessageTypeDefinition<_coreweave_sandbox_v1_EndpointStatus, _coreweave_sandbox_v1_EndpointStatus__Output>
        ExecRequest: MessageTypeDefinition<_coreweave_sandbox_v1_ExecRequest, _coreweave_sandbox_v1_ExecRequest__Output>
        ExecResponse: MessageTypeDefinition<_coreweave_sandbox_v1_ExecResponse, _coreweave_sandbox_v1_ExecResponse__Output>
        ExecStreamClose: MessageTypeDefinition<_coreweave_sandbox_v1_ExecStreamClose, _coreweave_sandbox_v1_ExecStreamClose__Output>
        ExecStreamError: MessageTypeDefinition<_coreweave_sandbox_v1_ExecStreamError, _coreweave_sandbox_v1_ExecStreamError__Output>
        ExecStreamExit: MessageTypeDefinition<_coreweave_sandbox_v1_ExecStreamExit, _coreweave_sandbox_v1_ExecStreamExit__Output>
        ExecStreamInit: MessageTypeDefinition<_coreweave_sandbox_v1_ExecStreamInit, _coreweave_sandbox_v1_ExecStreamInit__Output>
        ExecStreamOutput: MessageTypeDefinition<_coreweave_sandbox_v1_ExecStreamOutput, _coreweave_sandbox_v1_ExecStreamOutput__Output>
        ExecStreamReady: MessageTypeDefinition<_coreweave_sandbox_v1_ExecStreamReady, _coreweave_sandbox_v1_ExecStreamReady__Output>
        ExecStreamRequest: MessageTypeDefinition<_coreweave_sandbox_v1_ExecStreamRequest, _coreweave_sandbox_v1_ExecStreamRequest__Output>
        ExecStreamResize: MessageTypeDefinition<_coreweave_sandbox_v1_ExecStreamResize, _coreweave_sandbox_v1_ExecStreamResize__Output>
        ExecStreamResponse: MessageTypeDefinition<_coreweave_sandbox_v1_ExecStreamResponse, _coreweave_sandbox_v1_ExecStreamResponse__Output>
        FileMount: MessageTypeDefinition<_coreweave_sandbox_v1_FileMount, _coreweave_sandbox_v1_FileMount__Output>
        FileSystemSnapshot: MessageTypeDefinition<_coreweave_sandbox_v1_FileSystemSnapshot, _coreweave_sandbox_v1_FileSystemSnapshot__Output>
        FileSystemSnapshotBucketConfig: MessageTypeDefinition<_coreweave_sandbox_v1_FileSystemSnapshotBucketConfig, _coreweave_sandbox_v1_FileSystemSnapshotBucketConfig__Output>
        FileSystemSnapshotBucketMode: EnumTypeDefinition
        GetBuildStorageConfigRequest: MessageTypeDefinition<_coreweave_sandbox_v1_GetBuildStorageConfigRequest, _coreweave_sandbox_v1_GetBuildStorageConfigRequest__Output>
        GetFileSystemSnapshotBucketConfigRequest: MessageTypeDefinition<_coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest, _coreweave_sandbox_v1_GetFileSystemSnapshotBucketConfigRequest__Output>
        GetFileSystemSnapshotRequest: MessageTypeDefinition<_coreweave_sandbox_v1_GetFileSystemSnapshotRequest, _coreweave_sandbox_v1_GetFileSystemSnapshotRequest__Output>
        GetObjectStorageWifConfigRequest: MessageTypeDefinition<_coreweave_sandbox_v1_GetObjectStorageWifConfigRequest, _coreweave_sandbox_v1_GetObjectStorageWifConfigRequest__Output>
        GetSandboxBuildLogsRequest: MessageTypeDefinition<_coreweave_sandbox_v1_GetSandboxBuildLogsRequest, _coreweave_sandbox_v1_GetSandboxBuildLogsRequest__Output>
        GetSandboxBuildLogsResponse: MessageTypeDefinition<_coreweave_sandbox_v1_GetSandboxBuildLogsResponse, _coreweave_sandbox_v1_GetSandboxBuildLogsResponse__Output>
        GetSandboxRequest: MessageTypeDefinition<_coreweave_sandbox_v1_GetSandboxRequest, _coreweave_sandbox_v1_GetSandboxRequest__Output>
        GetSecretStoreRequest: MessageTypeDefinition<_coreweave_sandbox_v1_GetSecretStoreRequest, _coreweave_sandbox_v1_GetSecretStoreRequest__Output>
        Gpu: MessageTypeDefinition<_coreweave_sandbox_v1_Gpu, _coreweave_sandbox_v1_Gpu__Output>
        ImagePullCredentials: MessageTypeDefinition<_coreweave_sandbox_v1_ImagePullCredentials, _coreweave_sandbox_v1_ImagePullCredentials__Output>
        IngressRule: MessageTypeDefinition<_coreweave_sandbox_v1_IngressRule, _coreweave_sandbox_v1_IngressRule__Output>
        ListFileSystemSnapshotsRequest: MessageTypeDefinition<_coreweave_sandbox_v1_ListFileSystemSnapshotsRequest, _coreweave_sandbox_v1_ListFileSystemSnapshotsRequest__Output>
        ListFileSystemSnapshotsResponse: MessageTypeDefinition<_coreweave_sandbox_v1_ListFileSystemSnapshotsResponse, _coreweave_sandbox_v1_ListFileSystemSnapshotsResponse__Output>
        ListSandboxesRequest: MessageTypeDefinition<_coreweave_sandbox_v1_ListSandboxesRequest, _coreweave_sandbox_v1_ListSandboxesRequest__Output>
        ListSandboxesResponse: MessageTypeDefinition<_coreweave_sandbox_v1_ListSandboxesResponse, _coreweave_sandbox_v1_ListSandboxesResponse__Output>
        ListSecretStoresRequest: MessageTypeDefinition<_coreweave_sandbox_v1_ListSecretStoresRequest, _coreweave_sandbox_v1_ListSecretStoresRequest__Output>
        ListSecretStoresResponse: MessageTypeDefinition<_coreweave_sandbox_v1_ListSecretStoresResponse, _coreweave_sandbox_v1_ListSecretStoresResponse__Output>
        LogEntry: MessageTypeDefinition<_coreweave_sandbox_v1_LogEntry, _coreweave_sandbox_v1_LogEntry__Output>
        LogStreamError: MessageTypeDefinition<_coreweave_sandbox_v1_LogStreamError, _coreweave_sandbox_v1_LogStreamError__Output>
        NetworkOptions: MessageTypeDefinition<_coreweave_sandbox_v1_NetworkOptions, _coreweave_sandbox_v1_NetworkOptions__Output>
        ObjectStorageAccess: MessageTypeDefinition<_coreweave_sandbox_v1_ObjectStorageAccess, _coreweave_sandbox_v1_ObjectStorageAccess__Output>
        ObjectStoragePermission: EnumTypeDefinition
        ObjectStorageWifConfig: MessageTypeDefinition<_coreweave_sandbox_v1_ObjectStorageWifConfig, _coreweave_sandbox_v1_ObjectStorageWifConfig__Output>
        PartialContainer: MessageTypeDefinition<_coreweave_sandbox_v1_PartialContainer, _coreweave_sandbox_v1_PartialContainer__Output>
        PartialSandboxSpec: MessageTypeDefinition<_coreweave_sandbox_v1_PartialSandboxSpec, _coreweave_sandbox_v1_PartialSandboxSpec__Output>
        PortRange: MessageTypeDefinition<_coreweave_sandbox_v1_PortRange, _coreweave_sandbox_v1_PortRange__Output>
        Probe: MessageTypeDefinition<_coreweave_sandbox_v1_Probe, _coreweave_sandbox_v1_Probe__Output>
        PurgeSandboxesRequest: MessageTypeDefinition<_coreweave_sandbox_v1_PurgeSandboxesRequest, _coreweave_sandbox_v1_PurgeSandboxesRequest__Output>
        PurgeSandboxesResponse: MessageTypeDefinition<_coreweave_sandbox_v1_PurgeSandboxesResponse, _coreweave_sandbox_v1_PurgeSandboxesResponse__Output>
        ReadFileRequest: MessageTypeDefinition<_coreweave_sandbox_v1_ReadFileRequest, _coreweave_sandbox_v1_ReadFileRequest__Output>
        ReadFileResponse: MessageTypeDefinition<_coreweave_sandbox_v1_ReadFileResponse, _coreweave_sandbox_v1_ReadFileResponse__Output>
        ResourceRequirements: MessageTypeDefinition<_coreweave_sandbox_v1_ResourceRequirements, _coreweave_sandbox_v1_ResourceRequirements__Output>
        ResourceUsage: MessageTypeDefinition<_coreweave_sandbox_v1_ResourceUsage, _coreweave_sandbox_v1_ResourceUsage__Output>
        Resources: MessageTypeDefinition<_coreweave_sandbox_v1_Resources, _coreweave_sandbox_v1_Resources__Output>
        RuntimeClass: EnumTypeDefinition
        RuntimeClassMapping: MessageTypeDefinition<_coreweave_sandbox_v1_RuntimeClassMapping, _coreweave_sandbox_v1_RuntimeClassMapping__Output>
        Sandbox: MessageTypeDefinition<_coreweave_sandbox_v1_Sandbox, _coreweave_sandbox_v1_Sandbox__Output>
        SandboxConnection: MessageTypeDefinition<_coreweave_sandbox_v1_SandboxConnection, _coreweave_sandbox_v1_SandboxConnection__Output>
        SandboxDataPermission: EnumTypeDefinition
        SandboxDataProtocol: EnumTypeDefinition
        SandboxDataTransport: EnumTypeDefinition
        SandboxFileType: EnumTypeDefinition
        SandboxMode: EnumTypeDefinition
        SandboxService: SubtypeConstructor<typeof grpc.Client, _coreweave_sandbox_v1_SandboxServiceClient> & { service: _coreweave_sandbox_v1_SandboxServiceDefinition }
        SandboxSpec: MessageTypeDefinition<_coreweave_sandbox_v1_SandboxSpec, _coreweave_sandbox_v1_SandboxSpec__Output>
        SandboxStatus: MessageTypeDefinition<_coreweave_sandbox_v1_SandboxStatus, _coreweave_sandbox_v1_SandboxStatus__Output>
        SandboxVolume: MessageTypeDefinition<_coreweave_sandbox_v1_SandboxVolume, _coreweave_sandbox_v1_SandboxVolume__Output>
        ScratchVolume: MessageTypeDefinition<_coreweave_sandbox_v1_ScratchVolume, _coreweave_sandbox_v1_ScratchVolume__Output>
        SecretMapping: MessageTypeDefinition<_coreweave_sandbox_v1_SecretMapping, _coreweave_sandbox_v1_SecretMapping__Output>
        SecretSource: MessageTypeDefinition<_coreweave_sandbox_v1_SecretSource, _coreweave_sandbox_v1_SecretSource__Output>
        SecretStore: MessageTypeDefinition<_coreweave_sandbox_v1_SecretStore, _coreweave_sandbox_v1_SecretStore__Output>
        SecretStoreProviderType: EnumTypeDefinition
        SecretStoreReference: MessageTypeDefinition<_coreweave_sandbox_v1_SecretStoreReference, _coreweave_sandbox_v1_SecretStoreReference__Output>
        SecurityContext: MessageTypeDefinition<_coreweave_sandbox_v1_SecurityContext, _coreweave_sandbox_v1_SecurityContext__Output>
        SelectorBlock: MessageTypeDefinition<_coreweave_sandbox_v1_SelectorBlock, _coreweave_sandbox_v1_SelectorBlock__Output>
        Service: MessageTypeDefinition<_coreweave_sandbox_v1_Service, _coreweave_sandbox_v1_Service__Output>
        ServiceProtocol: EnumTypeDefinition
        ServiceStatus: MessageTypeDefinition<_coreweave_sandbox_v1_ServiceStatus, _coreweave_sandbox_v1_ServiceStatus__Output>
        SettingsService: SubtypeConstructor<typeof grpc.Client, _coreweave_sandbox_v1_SettingsServiceClient> & { service: _coreweave_sandbox_v1_SettingsServiceDefinition }
        SnapshotState: EnumTypeDefinition
        SnapshotTrigger: EnumTypeDefinition
        SortDirection: EnumTypeDefinition
        State: EnumTypeDefinition
        StorageMedium: EnumTypeDefinition
        StreamLogsRequest: MessageTypeDefinition<_coreweave_sandbox_v1_StreamLogsRequest, _coreweave_sandbox_v1_StreamLogsRequest__Output>
        TenantScope: EnumTypeDefinition
        UpdateBuildStorageConfigRequest: MessageTypeDefinition<_coreweave_sandbox_v1_UpdateBuildStorageConfigRequest, _coreweave_sandbox_v1_UpdateBuildStorageConfigRequest__Output>
        UpdateFileSystemSnapshotBucketConfigRequest: MessageTypeDefinition<_coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest, _coreweave_sandbox_v1_UpdateFileSystemSnapshotBucketConfigRequest__Output>
        UpdateObjectStorageWifConfigRequest: MessageTypeDefinition<_coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest, _coreweave_sandbox_v1_UpdateObjectStorageWifConfigRequest__Output>
        UpdateSecretStoreRequest: MessageTypeDefinition<_coreweave_sandbox_v1_UpdateSecretStoreRequest, _coreweave_sandbox_v1_UpdateSecretStoreRequest__Output>
        Visibility: EnumTypeDefinition
        VolumeMount: MessageTypeDefinition<_coreweave_sandbox_v1_VolumeMount, _coreweave_sandbox_v1_VolumeMount__Output>
        WandBStoreConfig: MessageTypeDefinition<_coreweave_sandbox_v1_WandBStoreConfig, _coreweave_sandbox_v1_WandBStoreConfig__Output>
        WriteFileRequest: MessageTypeDefinition<_coreweave_sandbox_v1_WriteFileRequest, _coreweave_sandbox_v1_WriteFileRequest__Output>
        WriteFileResponse: MessageTypeDefinition<_coreweave_sandbox_v1_WriteFileResponse, _coreweave_sandbox_v1_WriteFileResponse__Output>
      }
    }
  }
  google: {
    api: {
      CustomHttpPattern: MessageTypeDefinition<_google_api_CustomHttpPattern, _google_api_CustomHttpPattern__Output>
      FieldBehavior: EnumTypeDefinition
      Http: MessageTypeDefinition<_google_api_Http, _google_api_Http__Output>
      HttpRule: MessageTypeDefinition<_google_api_HttpRule, _google_api_HttpRule__Output>
    }
    protobuf: {
      DescriptorProto: MessageTypeDefinition<_google_protobuf_DescriptorProto, _google_protobuf_DescriptorProto__Output>
      Edition: EnumTypeDefinition
      Empty: MessageTypeDefinition<_google_protobuf_Empty, _google_protobuf_Empty__Output>
      EnumDescriptorProto: MessageTypeDefinition<_google_protobuf_EnumDescriptorProto, _google_protobuf_EnumDescriptorProto__Output>
      EnumOptions: MessageTypeDefinition<_google_protobuf_EnumOptions, _google_protobuf_EnumOptions__Output>
      EnumValueDescriptorProto: MessageTypeDefinition<_google_protobuf_EnumValueDescriptorProto, _google_protobuf_EnumValueDescriptorProto__Output>
      EnumValueOptions: MessageTypeDefinition<_google_protobuf_EnumValueOptions, _google_protobuf_EnumValueOptions__Output>
      ExtensionRangeOptions: MessageTypeDefinition<_google_protobuf_ExtensionRangeOptions, _google_protobuf_ExtensionRangeOptions__Output>
      FeatureSet: MessageTypeDefinition<_google_protobuf_FeatureSet, _google_protobuf_FeatureSet__Output>
      FeatureSetDefaults: MessageTypeDefinition<_google_protobuf_FeatureSetDefaults, _google_protobuf_FeatureSetDefaults__Output>
      FieldDescriptorProto: MessageTypeDefinition<_google_protobuf_FieldDescriptorProto, _google_protobuf_FieldDescriptorProto__Output>
      FieldMask: MessageTypeDefinition<_google_protobuf_FieldMask, _google_protobuf_FieldMask__Output>
      FieldOptions: MessageTypeDefinition<_google_protobuf_FieldOptions, _google_protobuf_FieldOptions__Output>
      FileDescriptorProto: MessageTypeDefinition<_google_protobuf_FileDescriptorProto, _google_protobuf_FileDescriptorProto__Output>
      FileDescriptorSet: MessageTypeDefinition<_google_protobuf_FileDescriptorSet, _google_protobuf_FileDescriptorSet__Output>
      FileOptions: MessageTypeDefinition<_google_protobuf_FileOptions, _google_protobuf_FileOptions__Output>
      GeneratedCodeInfo: MessageTypeDefinition<_google_protobuf_GeneratedCodeInfo, _google_protobuf_GeneratedCodeInfo__Output>
      MessageOptions: MessageTypeDefinition<_google_protobuf_MessageOptions, _google_protobuf_MessageOptions__Output>
      MethodDescriptorProto: MessageTypeDefinition<_google_protobuf_MethodDescriptorProto, _google_protobuf_MethodDescriptorProto__Output>
      MethodOptions: MessageTypeDefinition<_google_protobuf_MethodOptions, _google_protobuf_MethodOptions__Output>
      OneofDescriptorProto: MessageTypeDefinition<_google_protobuf_OneofDescriptorProto, _google_protobuf_OneofDescriptorProto__Output>
      OneofOptions: MessageTypeDefinition<_google_protobuf_OneofOptions, _google_protobuf_OneofOptions__Output>
      ServiceDescriptorProto: MessageTypeDefinition<_google_protobuf_ServiceDescriptorProto, _google_protobuf_ServiceDescriptorProto__Output>
      ServiceOptions: MessageTypeDefinition<_google_protobuf_ServiceOptions, _google_protobuf_ServiceOptions__Output>
      SourceCodeInfo: MessageTypeDefinition<_google_protobuf_SourceCodeInfo, _google_protobuf_SourceCodeInfo__Output>
      SymbolVisibility: EnumTypeDefinition
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
      UninterpretedOption: MessageTypeDefinition<_google_protobuf_UninterpretedOption, _google_protobuf_UninterpretedOption__Output>
    }
  }
}

