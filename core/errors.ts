/**
 * Hangar's one error catalogue. Every layer throws HangarError built by the factories
 * below; api/grpc-errors.ts maps it to a gRPC status in exactly one place. Anything that
 * is not a HangarError becomes INTERNAL there, with the cause logged and never sent.
 */

/** gRPC-aligned codes (names as in google.rpc.Code). */
export type ErrorCode =
  | "INVALID_ARGUMENT"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "FAILED_PRECONDITION"
  | "RESOURCE_EXHAUSTED"
  | "UNAVAILABLE"
  | "DEADLINE_EXCEEDED"
  | "UNAUTHENTICATED"
  | "PERMISSION_DENIED"
  | "UNIMPLEMENTED"
  | "CANCELLED"
  | "INTERNAL"
  | "DATA_LOSS";

export interface FieldViolation {
  field: string;
  description: string;
}

export interface HangarErrorInit {
  code: ErrorCode;
  message: string;
  /** ErrorInfo reason in the cwsandbox.com domain, e.g. CWSANDBOX_FILE_NOT_FOUND. */
  reason?: string;
  metadata?: Record<string, string>;
  violations?: FieldViolation[];
  /** When set, callers are told (RetryInfo) to retry after this many milliseconds. */
  retryAfterMs?: number;
  cause?: unknown;
  /**
   * Domain subjects ("spec.services[0].endpoint.kind") the message names without a violation of
   * their own: the API names them as wire fields (api/wire-fields.ts), as it does violation fields.
   */
  subjects?: string[];
}

export class HangarError extends Error {
  readonly code: ErrorCode;
  readonly reason: string | undefined;
  readonly metadata: Readonly<Record<string, string>>;
  readonly violations: readonly FieldViolation[];
  readonly retryAfterMs: number | undefined;
  readonly subjects: readonly string[];

  constructor(init: HangarErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "HangarError";
    this.code = init.code;
    this.reason = init.reason;
    this.metadata = init.metadata ?? {};
    this.violations = init.violations ?? [];
    this.retryAfterMs = init.retryAfterMs;
    this.subjects = init.subjects ?? [];
  }
}

export const isHangarError = (e: unknown): e is HangarError => e instanceof HangarError;

export const errors = {
  invalid: (violations: FieldViolation[]) =>
    new HangarError({
      code: "INVALID_ARGUMENT",
      message: `invalid request: ${violations.map((v) => `${v.field}: ${v.description}`).join("; ")}`,
      violations,
    }),
  invalidField: (field: string, description: string) => errors.invalid([{ field, description }]),
  sandboxNotFound: (id: string) =>
    new HangarError({
      code: "NOT_FOUND",
      message: `sandbox ${id.replace(/[\u0000-\u001f\u007f]/g, "?")} not found`,
      reason: "CWSANDBOX_SANDBOX_NOT_FOUND",
    }),
  notRunning: (id: string, state: string) =>
    new HangarError({ code: "FAILED_PRECONDITION", message: `sandbox ${id} is not running (state ${state})` }),
  fileNotFound: (path: string, operation: string) =>
    new HangarError({
      code: "NOT_FOUND",
      message: `file not found: ${path}`,
      reason: "CWSANDBOX_FILE_NOT_FOUND",
      metadata: { filepath: path, operation },
    }),
  fileIsDirectory: (path: string, operation: string) =>
    new HangarError({
      code: "FAILED_PRECONDITION",
      message: `path is a directory: ${path}`,
      reason: "CWSANDBOX_FILE_IS_DIRECTORY",
      metadata: { filepath: path, operation },
    }),
  filePermissionDenied: (path: string, operation: string) =>
    new HangarError({
      code: "FAILED_PRECONDITION",
      message: `permission denied: ${path}`,
      reason: "CWSANDBOX_FILE_PERMISSION_DENIED",
      metadata: { filepath: path, operation },
    }),
  fileIoFailed: (path: string, operation: string, detail: string) =>
    new HangarError({
      code: "INTERNAL",
      message: `file ${operation} failed for ${path}: ${detail}`,
      reason: "CWSANDBOX_FILE_IO_FAILED",
      metadata: { filepath: path, operation },
    }),
  fileTooLarge: (path: string, operation: string, sizeBytes: number, maxSizeBytes: number) =>
    new HangarError({
      code: "FAILED_PRECONDITION",
      message: `file ${path} is ${sizeBytes} bytes, over the ${maxSizeBytes}-byte limit for unary ${operation}`,
      reason: "CWSANDBOX_FILE_TOO_LARGE",
      metadata: { filepath: path, operation, size_bytes: String(sizeBytes), max_size_bytes: String(maxSizeBytes) },
    }),
  /** A command's timeout: its kill confirmed, or (`killing`) still going on when the call had to answer (ADR 0032: a final failure is counted and logged). */
  commandTimeout: (seconds: number, killing = false) =>
    new HangarError({
      code: "DEADLINE_EXCEEDED",
      message: killing
        ? `command timed out after ${seconds.toFixed(1)}s; it is being killed (not confirmed yet when the call had to answer)`
        : `command timed out after ${seconds.toFixed(1)}s and was killed`,
      reason: "CWSANDBOX_COMMAND_TIMEOUT",
    }),
  /** A command's timeout whose kill failed after its retries (ADR 0032): it may still run; not a plain timeout. */
  commandNotKilled: (seconds: number, why: string) =>
    new HangarError({
      code: "INTERNAL",
      message: `command timed out after ${seconds.toFixed(1)}s and could not be killed: it may still run in the sandbox (${why.slice(0, 300)})`,
      reason: "CWSANDBOX_COMMAND_NOT_KILLED",
      metadata: { timeout_seconds: seconds.toFixed(1), may_still_run: "true" },
    }),
  unauthenticated: (message = "missing or invalid API key") => new HangarError({ code: "UNAUTHENTICATED", message }),
  /** An identity that is proven but may not use Hangar (an unmapped ServiceAccount, a token naming no tenant): never another tenant. */
  permissionDenied: (message: string) => new HangarError({ code: "PERMISSION_DENIED", message }),
  notImplemented: (what: string) =>
    new HangarError({ code: "UNIMPLEMENTED", message: `${what} is not supported by Hangar`, reason: "CWSANDBOX_NOT_IMPLEMENTED" }),
  /** A service endpoint kind this Hangar does not offer, with the reason the SDK branches on; `subject`: the domain path the message names. */
  endpointNotSupported: (
    reason: "CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED" | "CWSANDBOX_HTTPS_SHARE_TOKEN_NOT_SUPPORTED",
    message: string,
    subject?: string,
  ) => new HangarError({ code: "FAILED_PRECONDITION", message, reason, ...(subject ? { subjects: [subject] } : {}) }),
  snapshotsNotSupported: () =>
    new HangarError({
      code: "FAILED_PRECONDITION",
      message: "file-system snapshots are not supported by this Hangar deployment",
      reason: "CWSANDBOX_FSS_NOT_SUPPORTED",
    }),
  noSuitableRunner: (message: string) => new HangarError({ code: "FAILED_PRECONDITION", message, reason: "CWSANDBOX_NO_SUITABLE_RUNNER" }),
  runnerNotFound: (id: string) =>
    new HangarError({ code: "NOT_FOUND", message: `runner ${id} not found`, reason: "CWSANDBOX_RUNNER_NOT_FOUND" }),
  capacityExhausted: (message: string, retryAfterMs: number) =>
    new HangarError({ code: "RESOURCE_EXHAUSTED", message, reason: "CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED", retryAfterMs }),
  tooManyExecs: (message: string, retryAfterMs: number) =>
    new HangarError({ code: "RESOURCE_EXHAUSTED", message, reason: "CWSANDBOX_RUNNER_OVERLOADED", retryAfterMs }),
  /** A per-tenant limit (controller/tenant-limits.ts): names the limit and its value; not spillable (another mode would meet the same limit). */
  tenantLimit: (limit: string, value: number, what: string, retryAfterMs: number) =>
    new HangarError({
      code: "RESOURCE_EXHAUSTED",
      message: `tenant limit ${limit}=${value} reached: ${what}; retry in ${(retryAfterMs / 1000).toFixed(1)} s`,
      reason: "CWSANDBOX_TENANT_LIMIT_EXCEEDED",
      metadata: { limit, value: String(value) },
      retryAfterMs,
    }),
  /** A secret a sandbox names that its tenant's store does not hold (or cannot give): names the field, never a value. */
  secretUnavailable: (field: string, message: string) =>
    new HangarError({ code: "FAILED_PRECONDITION", message: `${field}: ${message}`, violations: [{ field, description: message }] }),
  clusterRefused: (message: string) => new HangarError({ code: "FAILED_PRECONDITION", message }),
  unavailable: (message: string, cause?: unknown) =>
    new HangarError({ code: "UNAVAILABLE", message, reason: "CWSANDBOX_BACKEND_UNAVAILABLE", retryAfterMs: 1000, cause }),
  /** A registered volume id the caller's tenant does not have (another tenant's reads the same). */
  volumeNotFound: (id: string, field: string) =>
    new HangarError({
      code: "NOT_FOUND",
      message: `${field}: no volume ${id.slice(0, 128)} is registered for you (ListVolumes lists yours)`,
      reason: "CWSANDBOX_VOLUME_NOT_FOUND",
      violations: [{ field, description: `no volume ${id.slice(0, 128)} is registered for you` }],
    }),
  volumeNotReady: (id: string, field: string, why: string) =>
    new HangarError({
      code: "FAILED_PRECONDITION",
      message: `${field}: volume ${id} is not ready: ${why}`,
      reason: "CWSANDBOX_VOLUME_NOT_READY",
      violations: [{ field, description: `not ready: ${why}` }],
    }),
  volumeInUse: (field: string, why: string) =>
    new HangarError({
      code: "FAILED_PRECONDITION",
      message: `${field}: ${why}`,
      reason: "CWSANDBOX_VOLUME_IN_USE",
      violations: [{ field, description: why }],
    }),
  volumesByOperator: (what: string) =>
    new HangarError({
      code: "FAILED_PRECONDITION",
      message: `${what}: volumes are registered by the operator on this Hangar (Kubernetes: a PersistentVolumeClaim labelled hangar.dev/volume-tenant=<tenant>; local: HANGAR_LOCAL_VOLUMES), not through the API`,
      reason: "CWSANDBOX_VOLUME_TYPE_NOT_SUPPORTED",
    }),
  /** The request_id of an earlier create sent with other declared inputs (a Compose file's bytes). */
  requestIdConflict: (requestId: string) =>
    new HangarError({
      code: "ALREADY_EXISTS",
      message: `request_id ${requestId.slice(0, 128)} was used for a create with other contents: use a new request_id`,
      reason: "CWSANDBOX_REQUEST_ID_CONFLICT",
    }),
  invalidRequest: (message: string) => new HangarError({ code: "INVALID_ARGUMENT", message, reason: "CWSANDBOX_INVALID_REQUEST" }),
  internal: (message: string, cause?: unknown) => new HangarError({ code: "INTERNAL", message, cause }),
  /** A command needs /bin/sh and the sandbox image has none. metadata.no_shell marks it for callers that rephrase it. */
  noShell: (what: string) =>
    new HangarError({
      code: "FAILED_PRECONDITION",
      message: `the sandbox image has no /bin/sh, which ${what} needs`,
      metadata: { no_shell: "true" },
    }),
} as const;
