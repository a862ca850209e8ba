// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp.js';
import type { SandboxDataTransport as _coreweave_sandbox_v1_SandboxDataTransport, SandboxDataTransport__Output as _coreweave_sandbox_v1_SandboxDataTransport__Output } from '../../../coreweave/sandbox/v1/SandboxDataTransport.js';
import type { SandboxDataProtocol as _coreweave_sandbox_v1_SandboxDataProtocol, SandboxDataProtocol__Output as _coreweave_sandbox_v1_SandboxDataProtocol__Output } from '../../../coreweave/sandbox/v1/SandboxDataProtocol.js';
import type { SandboxDataPermission as _coreweave_sandbox_v1_SandboxDataPermission, SandboxDataPermission__Output as _coreweave_sandbox_v1_SandboxDataPermission__Output } from '../../../coreweave/sandbox/v1/SandboxDataPermission.js';

export interface SandboxConnection {
  'endpoint_uri'?: (string);
  'client_certificate_chain_pem'?: (Buffer | Uint8Array | string);
  'server_ca_bundle_pem'?: (Buffer | Uint8Array | string);
  'expires_at'?: (_google_protobuf_Timestamp | null);
  'endpoint_id'?: (string);
  'transport'?: (_coreweave_sandbox_v1_SandboxDataTransport);
  'protocol'?: (_coreweave_sandbox_v1_SandboxDataProtocol);
  'granted_permissions'?: (_coreweave_sandbox_v1_SandboxDataPermission)[];
}

export interface SandboxConnection__Output {
  'endpoint_uri'?: (string);
  'client_certificate_chain_pem'?: (Buffer);
  'server_ca_bundle_pem'?: (Buffer);
  'expires_at'?: (_google_protobuf_Timestamp__Output);
  'endpoint_id'?: (string);
  'transport'?: (_coreweave_sandbox_v1_SandboxDataTransport__Output);
  'protocol'?: (_coreweave_sandbox_v1_SandboxDataProtocol__Output);
  'granted_permissions'?: (_coreweave_sandbox_v1_SandboxDataPermission__Output)[];
}
