// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { EndpointKind as _coreweave_sandbox_v1_EndpointKind, EndpointKind__Output as _coreweave_sandbox_v1_EndpointKind__Output } from '../../../coreweave/sandbox/v1/EndpointKind.js';
import type { EndpointAuth as _coreweave_sandbox_v1_EndpointAuth, EndpointAuth__Output as _coreweave_sandbox_v1_EndpointAuth__Output } from '../../../coreweave/sandbox/v1/EndpointAuth.js';

export interface EndpointSpec {
  'kind'?: (_coreweave_sandbox_v1_EndpointKind);
  'auth'?: (_coreweave_sandbox_v1_EndpointAuth);
  'request_timeout_seconds'?: (number);
}

export interface EndpointSpec__Output {
  'kind'?: (_coreweave_sandbox_v1_EndpointKind__Output);
  'auth'?: (_coreweave_sandbox_v1_EndpointAuth__Output);
  'request_timeout_seconds'?: (number);
}
