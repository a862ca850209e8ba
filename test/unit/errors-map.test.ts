import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { createErrorMapper, ERROR_DOMAIN } from "../../api/grpc-errors.js";
import { loadRpcTypes, PROTO_DIR } from "../../api/proto.js";
import { errors } from "../../core/errors.js";

const types = loadRpcTypes(PROTO_DIR);
const logged: object[] = [];
const map = createErrorMapper(types, { error: (o) => logged.push(o) });

function decode(e: grpc.ServiceError) {
  const raw = e.metadata?.get("grpc-status-details-bin")[0] as Buffer | undefined;
  if (!raw) return undefined;
  const st = types.Status.toObject(types.Status.decode(raw), { defaults: true }) as {
    code: number;
    message: string;
    details: { type_url: string; value: Buffer }[];
  };
  const find = (name: string, t: typeof types.ErrorInfo) => {
    const d = st.details.find((x) => x.type_url === `type.googleapis.com/google.rpc.${name}`);
    return d ? (t.toObject(t.decode(d.value), { defaults: true, longs: Number }) as Record<string, unknown>) : undefined;
  };
  return {
    code: st.code,
    message: st.message,
    info: find("ErrorInfo", types.ErrorInfo),
    bad: find("BadRequest", types.BadRequest),
    retry: find("RetryInfo", types.RetryInfo),
  };
}

describe("HangarError -> gRPC status", () => {
  it("file errors carry ErrorInfo with the contract's reason and metadata", () => {
    const e = map(errors.fileTooLarge("/a", "read", 100, 10));
    expect(e.code).toBe(grpc.status.FAILED_PRECONDITION);
    const d = decode(e);
    expect(d?.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(d?.info).toEqual({
      reason: "CWSANDBOX_FILE_TOO_LARGE",
      domain: ERROR_DOMAIN,
      metadata: { filepath: "/a", operation: "read", size_bytes: "100", max_size_bytes: "10" },
    });
  });
  it("validation errors carry BadRequest field violations", () => {
    const d = decode(map(errors.invalid([{ field: "sandbox.spec.tags[0]", description: "bad" }])));
    expect(d?.bad).toEqual({
      field_violations: [{ field: "sandbox.spec.tags[0]", description: "bad", reason: "", localized_message: null }],
    });
  });
  it("retryable errors carry RetryInfo", () => {
    const d = decode(map(errors.tooManyExecs("busy", 1500)));
    expect(JSON.parse(JSON.stringify(d?.retry))).toEqual({ retry_delay: { seconds: 1, nanos: 500_000_000 } });
  });
  const codes: [string, Error, grpc.status][] = [
    ["not found", errors.sandboxNotFound("x"), grpc.status.NOT_FOUND],
    ["timeout", errors.commandTimeout(1), grpc.status.DEADLINE_EXCEEDED],
    ["auth", errors.unauthenticated(), grpc.status.UNAUTHENTICATED],
    ["not implemented", errors.notImplemented("x"), grpc.status.UNIMPLEMENTED],
    ["unavailable", errors.unavailable("x"), grpc.status.UNAVAILABLE],
  ];
  for (const [name, err, code] of codes) it(`${name} -> ${grpc.status[code]}`, () => expect(map(err).code).toBe(code));
  it("unknown failures become a generic INTERNAL, the cause only in the log", () => {
    const e = map(new Error("secret database password in message"), "req-1");
    expect(e.code).toBe(grpc.status.INTERNAL);
    expect(e.message).not.toContain("secret");
    expect(e.message).toContain("req-1");
    expect(JSON.stringify(logged.at(-1))).toContain("req-1");
  });
});
