// Original file: proto/coreweave/sandbox/v1/sandbox.proto

import type { ServiceProtocol as _coreweave_sandbox_v1_ServiceProtocol, ServiceProtocol__Output as _coreweave_sandbox_v1_ServiceProtocol__Output } from '../../../coreweave/sandbox/v1/ServiceProtocol.js';
import type { Visibility as _coreweave_sandbox_v1_Visibility, Visibility__Output as _coreweave_sandbox_v1_Visibility__Output } from '../../../coreweave/sandbox/v1/Visibility.js';
import type { EndpointSpec as _coreweave_sandbox_v1_EndpointSpec, EndpointSpec__Output as _coreweave_sandbox_v1_EndpointSpec__Output } from '../../../coreweave/sandbox/v1/EndpointSpec.js';

export interface Service {
  'port'?: (number);
  'name'?: (string);
  'protocol'?: (_coreweave_sandbox_v1_ServiceProtocol);
  'visibility'?: (_coreweave_sandbox_v1_Visibility);
  'endpoint'?: (_coreweave_sandbox_v1_EndpointSpec | null);
}

export interface Service__Output {
  'port'?: (number);
  'name'?: (string);
  'protocol'?: (_coreweave_sandbox_v1_ServiceProtocol__Output);
  'visibility'?: (_coreweave_sandbox_v1_Visibility__Output);
  'endpoint'?: (_coreweave_sandbox_v1_EndpointSpec__Output);
}
