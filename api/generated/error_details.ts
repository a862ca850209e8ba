import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from './google/protobuf/Duration.js';
import type { BadRequest as _google_rpc_BadRequest, BadRequest__Output as _google_rpc_BadRequest__Output } from './google/rpc/BadRequest.js';
import type { ErrorInfo as _google_rpc_ErrorInfo, ErrorInfo__Output as _google_rpc_ErrorInfo__Output } from './google/rpc/ErrorInfo.js';
import type { LocalizedMessage as _google_rpc_LocalizedMessage, LocalizedMessage__Output as _google_rpc_LocalizedMessage__Output } from './google/rpc/LocalizedMessage.js';
import type { RetryInfo as _google_rpc_RetryInfo, RetryInfo__Output as _google_rpc_RetryInfo__Output } from './google/rpc/RetryInfo.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      Duration: MessageTypeDefinition<_google_protobuf_Duration, _google_protobuf_Duration__Output>
    }
    rpc: {
      BadRequest: MessageTypeDefinition<_google_rpc_BadRequest, _google_rpc_BadRequest__Output>
      ErrorInfo: MessageTypeDefinition<_google_rpc_ErrorInfo, _google_rpc_ErrorInfo__Output>
      LocalizedMessage: MessageTypeDefinition<_google_rpc_LocalizedMessage, _google_rpc_LocalizedMessage__Output>
      RetryInfo: MessageTypeDefinition<_google_rpc_RetryInfo, _google_rpc_RetryInfo__Output>
    }
  }
}

