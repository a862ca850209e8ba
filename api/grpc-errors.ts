/**
 * The one place where Hangar errors become gRPC statuses: code, message, and a
 * google.rpc.Status in `grpc-status-details-bin` carrying ErrorInfo (domain cwsandbox.com),
 * BadRequest field violations and RetryInfo. Anything that is not a HangarError becomes
 * INTERNAL with a generic message; its cause goes to the log only. Errors name domain subjects
 * below api/; they become wire fields here (api/wire-fields.ts).
 */
import * as grpc from "@grpc/grpc-js";
import { HangarError, isHangarError, type ErrorCode } from "../core/errors.js";
import type { RpcTypes } from "./proto.js";
import { toWire } from "./wire-fields.js";

export const ERROR_DOMAIN = "cwsandbox.com";

const CODES: Record<ErrorCode, grpc.status> = {
  INVALID_ARGUMENT: grpc.status.INVALID_ARGUMENT,
  NOT_FOUND: grpc.status.NOT_FOUND,
  ALREADY_EXISTS: grpc.status.ALREADY_EXISTS,
  FAILED_PRECONDITION: grpc.status.FAILED_PRECONDITION,
  RESOURCE_EXHAUSTED: grpc.status.RESOURCE_EXHAUSTED,
  UNAVAILABLE: grpc.status.UNAVAILABLE,
  DEADLINE_EXCEEDED: grpc.status.DEADLINE_EXCEEDED,
  UNAUTHENTICATED: grpc.status.UNAUTHENTICATED,
  PERMISSION_DENIED: grpc.status.PERMISSION_DENIED,
  UNIMPLEMENTED: grpc.status.UNIMPLEMENTED,
  CANCELLED: grpc.status.CANCELLED,
  INTERNAL: grpc.status.INTERNAL,
  DATA_LOSS: grpc.status.DATA_LOSS,
};

export function createErrorMapper(types: RpcTypes, log: { error(o: object, m: string): void }) {
  const any = (type: { fullName: string; encode(m: object): { finish(): Uint8Array } }, msg: object) => ({
    type_url: `type.googleapis.com/${type.fullName.replace(/^\./, "")}`,
    value: Buffer.from(type.encode(msg).finish()),
  });

  return function toServiceError(e: unknown, requestId?: string): grpc.ServiceError {
    let err: HangarError;
    if (isHangarError(e))
      err = toWire(e); // domain subjects named as the request's wire fields
    else {
      log.error({ err: e, request_id: requestId }, "internal error");
      err = new HangarError({ code: "INTERNAL", message: `internal error${requestId ? ` (request ${requestId})` : ""}` });
    }
    const code = CODES[err.code];
    const details = [];
    if (err.reason) details.push(any(types.ErrorInfo, { reason: err.reason, domain: ERROR_DOMAIN, metadata: { ...err.metadata } }));
    if (err.violations.length)
      details.push(
        any(types.BadRequest, { field_violations: err.violations.map((v) => ({ field: v.field, description: v.description })) }),
      );
    if (err.retryAfterMs !== undefined) {
      const s = Math.floor(err.retryAfterMs / 1000);
      details.push(any(types.RetryInfo, { retry_delay: { seconds: s, nanos: (err.retryAfterMs % 1000) * 1e6 } }));
    }
    const metadata = new grpc.Metadata();
    if (details.length) {
      const status = types.Status.encode({ code, message: err.message, details }).finish();
      metadata.set("grpc-status-details-bin", Buffer.from(status));
    }
    return Object.assign(new Error(err.message), { code, details: err.message, metadata }) as grpc.ServiceError;
  };
}
export type ErrorMapper = ReturnType<typeof createErrorMapper>;
