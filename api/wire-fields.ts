/**
 * Domain subjects to wire fields, in one place. Below api/ an error names what it is about as a
 * path in the domain spec or request ("spec.egress[0].cidr", "spec.runtimeClass", "exec.env");
 * the API answers with the field of the request the SDK sent ("sandbox.spec.network.egress[0].cidr").
 * api/grpc-errors.ts applies it to every error. A path that is not a known subject (a wire path
 * the API computed and stored, such as a volume's `registered.at`) passes through unchanged.
 */
import { HangarError } from "../core/errors.js";

/**
 * Subject prefix → wire prefix; `[]` stands for an index, carried over in order. The longest
 * prefix that matches on a path boundary wins; what follows it is kept as it is.
 */
const TABLE: readonly (readonly [string, string])[] = [
  ["spec.egress[].hostname", "sandbox.spec.network.egress[].https_hostname"],
  ["spec.egress", "sandbox.spec.network.egress"],
  ["spec.denyEgress", "sandbox.spec.network.deny_egress"],
  ["spec.runtimeClass", "sandbox.spec.runtime_class"],
  ["spec.command", "sandbox.spec.containers[0].command"],
  ["spec.image", "sandbox.spec.containers[0].image"],
  ["spec.imagePull", "sandbox.spec.containers[0].image_pull_credentials"],
  ["spec.sidecars", "sandbox.spec.containers"],
  ["spec.hostAliases", "sandbox.spec.containers"],
  ["spec.services[].public", "sandbox.spec.services[].visibility"],
  ["spec.services", "sandbox.spec.services"],
  ["exec.env", "init.env"],
];

const INDEX = /\[(\d+)\]/g;
const boundary = (rest: string) => rest === "" || rest.startsWith(".") || rest.startsWith("[");

/** The wire field of a domain subject; anything else (a wire path already, an unknown name) unchanged. */
export function wireField(subject: string): string {
  const indices = [...subject.matchAll(INDEX)].map((m) => m[1] as string);
  const shape = subject.replace(INDEX, "[]");
  let best: readonly [string, string] | undefined;
  for (const row of TABLE)
    if (shape.startsWith(row[0]) && boundary(shape.slice(row[0].length)) && row[0].length > (best?.[0].length ?? -1)) best = row;
  if (!best) return subject;
  const [from, to] = best;
  const used = (from.match(/\[\]/g) ?? []).length;
  let i = 0;
  const head = to.replace(/\[\]/g, () => `[${indices[i++] ?? ""}]`);
  // The rest of the subject after the matched prefix, with its own indices, as it was.
  let rest = shape.slice(from.length);
  let j = used;
  rest = rest.replace(/\[\]/g, () => `[${indices[j++] ?? ""}]`);
  return head + rest;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Text with each of `subjects` replaced by its wire field where it stands as a whole path (not
 * inside a longer one); without `subjects`, every known subject found in the text.
 */
export function wireText(text: string, subjects?: readonly string[]): string {
  const names = subjects ?? [...text.matchAll(/(?<![\w.\]])(?:spec|exec)\.[A-Za-z0-9_.[\]]*[A-Za-z0-9_\]]/g)].map((m) => m[0]);
  let out = text;
  for (const s of [...new Set(names)].sort((a, b) => b.length - a.length)) {
    const w = wireField(s);
    if (w !== s) out = out.replace(new RegExp(`(?<![\\w.\\]])${escape(s)}(?![\\w.[])`, "g"), w);
  }
  return out;
}

const START_FAILURE = /^(failed to start: invalid request: )((?:spec|exec)\.[A-Za-z0-9_.[\]]*[A-Za-z0-9_\]])(?=: )/;

/**
 * A state reason as the SDK is shown it: a start that failed on a field ("failed to start: invalid
 * request: spec.command: …") names the wire field. Only that leading subject is mapped: what follows
 * may quote the sandbox's own output, which is never rewritten.
 */
export const wireStateReason = (reason: string): string =>
  reason.replace(START_FAILURE, (_, head: string, s: string) => head + wireField(s));

/** The error as the SDK is answered: violation fields and the subjects in its message as wire fields. */
export function toWire(e: HangarError): HangarError {
  const subjects = [...e.violations.map((v) => v.field), ...e.subjects];
  if (!subjects.some((s) => wireField(s) !== s)) return e;
  return new HangarError({
    code: e.code,
    message: wireText(e.message, subjects),
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
    metadata: { ...e.metadata },
    violations: e.violations.map((v) => ({ ...v, field: wireField(v.field) })),
    ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
    ...(e.cause !== undefined ? { cause: e.cause } : {}),
  });
}
