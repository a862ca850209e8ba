// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { EndpointKind as _coreweave_sandbox_v1_EndpointKind, EndpointKind__Output as _coreweave_sandbox_v1_EndpointKind__Output } from '../../../coreweave/sandbox/v1/EndpointKind.js';
import type { EndpointAuth as _coreweave_sandbox_v1_EndpointAuth, EndpointAuth__Output as _coreweave_sandbox_v1_EndpointAuth__Output } from '../../../coreweave/sandbox/v1/EndpointAuth.js';

export interface EndpointStatus {
  'kind'?: (_coreweave_sandbox_v1_EndpointKind);
  'auth'?: (_coreweave_sandbox_v1_EndpointAuth);
  'url'?: (string);
  'request_timeout_seconds'?: (number);
  'address'?: (string);
}

export interface EndpointStatus__Output {
  'kind'?: (_coreweave_sandbox_v1_EndpointKind__Output);
  'auth'?: (_coreweave_sandbox_v1_EndpointAuth__Output);
  'url'?: (string);
  'request_timeout_seconds'?: (number);
  'address'?: (string);
}
