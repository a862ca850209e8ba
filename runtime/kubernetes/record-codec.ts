/**
 * A sandbox record as pod annotation text and back (pure, table-tested): the pod is the record
 * (docs/adr/0005-tags-as-labels.md). Bytes (mounted file contents in the echoed spec) are kept
 * as base64 while the record stays under RECORD_BUDGET; past it they are dropped (paths kept),
 * so one record never nears the apiserver's 256 KiB annotation limit.
 */
import type { SandboxRecord, State } from "../../core/types.js";

export const RECORD_ANNOTATION = "hangar.dev/record";
export const RECORD_FINALIZER = "hangar.dev/record";
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
  if (!text) return undefined;
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text, (_k, v: unknown) => {
      if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && typeof (v as { $b64?: unknown }).$b64 === "string") {
        return Buffer.from((v as { $b64: string }).$b64, "base64");
      }
      return v;
    }) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (!o || typeof o !== "object" || o.v !== VERSION || typeof o.id !== "string" || typeof o.tenant !== "string" || !STATES.includes(o.state as State)) return undefined;
  if (typeof o.createdAtMs !== "number" || typeof o.spec !== "object" || o.spec === null) return undefined;
  const { v: _v, ...rest } = o;
  void _v;
  return rest as unknown as SandboxRecord;
}
