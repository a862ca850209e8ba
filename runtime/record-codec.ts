/**
 * A sandbox record as text and back (pure, table-tested), shared by both runtimes: the Kubernetes
 * runtime keeps it in a pod annotation (the pod is the record, ADR 0005), the local one in a file
 * (ADR 0030). Bytes (mounted file contents in the echoed spec) are kept
 * as base64 while the record stays under RECORD_BUDGET; past it they are dropped (paths kept),
 * so one record never nears the apiserver's 256 KiB annotation limit.
 */
import type { SandboxRecord, State } from "../core/types.js";

export const RECORD_BUDGET = 160 * 1024;
const VERSION = 1;
const STATES: State[] = ["PENDING", "CREATING", "RUNNING", "TERMINATING", "COMPLETED", "FAILED"];

function stringify(r: SandboxRecord, keepBytes: boolean): string {
  const body = { v: VERSION, ...r, spec: { ...r.spec, files: r.spec.files.map((f) => ({ path: f.path, content: Buffer.alloc(0) })) } };
  return JSON.stringify(body, function (this: Record<string, unknown>, key, value: unknown) {
    const raw = this[key];
    if (raw instanceof Uint8Array) return { $b64: keepBytes ? Buffer.from(raw).toString("base64") : "" };
    return value;
  });
}

export function encodeRecord(r: SandboxRecord): string {
  const full = stringify(r, true);
  return full.length <= RECORD_BUDGET ? full : stringify(r, false);
}

/** The record stored in an annotation, or undefined when it is missing or not one Hangar wrote. */
export function decodeRecord(text: string | undefined): SandboxRecord | undefined {
  const r = readRecord(text);
  return r.ok ? r.record : undefined;
}

/** Like decodeRecord, saying why a present annotation is not a record this Hangar can read. */
export function readRecord(text: string | undefined): { ok: true; record: SandboxRecord } | { ok: false; why: string; newer?: true } {
  if (!text) return { ok: false, why: "no record annotation" };
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text, (_k, v: unknown) => {
      if (
        v &&
        typeof v === "object" &&
        !Array.isArray(v) &&
        Object.keys(v).length === 1 &&
        typeof (v as { $b64?: unknown }).$b64 === "string"
      ) {
        return Buffer.from((v as { $b64: string }).$b64, "base64");
      }
      return v;
    }) as Record<string, unknown>;
  } catch (e) {
    return { ok: false, why: `not JSON (${(e as Error).message})` };
  }
  if (!o || typeof o !== "object" || Array.isArray(o)) return { ok: false, why: "not a JSON object" };
  if (typeof o.v === "number" && Number.isInteger(o.v) && o.v > VERSION)
    return { ok: false, why: `record version ${o.v}, written by a newer Hangar (this one reads ${VERSION})`, newer: true };
  if (o.v !== VERSION) return { ok: false, why: `record version ${JSON.stringify(o.v)}, this Hangar reads ${VERSION}` };
  if (typeof o.id !== "string" || typeof o.tenant !== "string" || !STATES.includes(o.state as State))
    return { ok: false, why: "id, tenant or state missing or invalid" };
  if (typeof o.createdAtMs !== "number" || typeof o.spec !== "object" || o.spec === null)
    return { ok: false, why: "createdAtMs or spec missing" };
  const { v: _v, ...rest } = o;
  void _v;
  return { ok: true, record: rest as unknown as SandboxRecord };
}

/**
 * What a pod whose record cannot be read becomes: a FAILED sandbox saying why, owned by the
 * tenant its label names (a hashed label, for a tenant name that is not a label value, matches
 * no caller), so Get shows it and retention releases its finalizer; never silently dropped.
 */
export function unreadableRecord(
  pod: { name: string; id: string; tenantLabel?: string; createdMs: number },
  why: string,
  nowMs: number,
): SandboxRecord {
  return {
    id: pod.id,
    tenant: pod.tenantLabel ?? "",
    spec: {
      image: "",
      argv: [],
      env: {},
      files: [],
      requests: {},
      limits: {},
      tags: [],
      maxLifetimeSeconds: 0,
      runnerIds: [],
      annotations: {},
      volumes: [],
    },
    echo: {},
    state: "FAILED",
    stateReason: `the record on pod ${pod.name} could not be read (${why}); the pod was stopped`,
    createdAtMs: pod.createdMs,
    endedAtMs: nowMs,
    runnerId: "",
    runnerGroupId: "",
    effectiveLifetimeSeconds: 0,
    imageNote: "",
  };
}
