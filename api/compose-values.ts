/** Compose's scalar values: interpolation, durations, byte sizes, CPUs and command lines. Pure. */
import type { FieldViolation } from "../core/errors.js";

export type Obj = Record<string, unknown>;
export const isObj = (x: unknown): x is Obj => !!x && typeof x === "object" && !Array.isArray(x);

/** Compose's variable interpolation with an empty environment: defaults apply, `$$` is `$`, an unset variable is refused. */
function interpolate(s: string, at: string, v: FieldViolation[]): string {
  return s.replace(
    /\$(\$|\{([^}]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (whole, esc: string, braced: string | undefined, bare: string | undefined) => {
      if (esc === "$") return "$";
      const expr = braced ?? bare ?? "";
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)(.*)|(:?\?)(.*)|(:?\+)(.*))?$/s.exec(expr);
      if (m && m[2] !== undefined) return m[3] ?? "";
      if (m && m[6] !== undefined) return ""; // ${VAR:+alt}: VAR is unset, so empty
      v.push({
        field: at,
        description: `${whole} names variable ${m?.[1] ?? expr}: Hangar interpolates with no variables set (use \${${m?.[1] ?? "VAR"}:-default}, or $$ for a literal $)`,
      });
      return "";
    },
  );
}

/** Every string in the document, interpolated (Compose interpolates values, not keys). */
export function interpolateAll(x: unknown, at: string, v: FieldViolation[]): unknown {
  if (typeof x === "string") return interpolate(x, at, v);
  if (Array.isArray(x)) return x.map((y, i) => interpolateAll(y, `${at}[${i}]`, v));
  if (isObj(x)) return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, interpolateAll(y, `${at}.${k}`, v)]));
  return x;
}

/** Compose durations: "1m30s", "500ms", "10s", or a number of seconds. */
export function durationSeconds(x: unknown): number | undefined {
  if (typeof x === "number" && Number.isFinite(x) && x >= 0) return x;
  if (typeof x !== "string" || !/^(\d+(\.\d+)?(h|ms|m|s|us|ns))+$/.test(x)) return undefined;
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, ns: 1e-9 };
  let total = 0;
  for (const m of x.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|ns)/g)) total += Number(m[1]) * (unit[m[2] as string] as number);
  return total;
}

/** Compose byte sizes ("256m", "1gb", 1048576) -> a Kubernetes quantity. */
export function composeBytes(x: unknown): string | undefined {
  let n: number;
  if (typeof x === "number") n = x;
  else if (typeof x === "string") {
    const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(x.trim());
    if (!m) return undefined;
    n = Number(m[1]) * 1024 ** " kmg".indexOf((m[2] || " ").toLowerCase());
  } else return undefined;
  if (!Number.isFinite(n) || n <= 0 || !Number.isInteger(n)) return undefined;
  for (const [s, f] of [
    ["Gi", 1024 ** 3],
    ["Mi", 1024 ** 2],
    ["Ki", 1024],
  ] as const)
    if (n % f === 0) return `${n / f}${s}`;
  return String(n);
}

export const cpus = (x: unknown): string | undefined => {
  const n = typeof x === "number" ? x : typeof x === "string" && /^\d+(\.\d+)?$/.test(x.trim()) ? Number(x) : NaN;
  return Number.isFinite(n) && n > 0 ? `${Math.round(n * 1000)}m` : undefined;
};

/** A command as Compose writes it: a list, or a string split as a shell would (no expansion). */
export function commandArgv(x: unknown): string[] | undefined {
  if (Array.isArray(x)) return x.every((a) => typeof a === "string" || typeof a === "number") ? x.map(String) : undefined;
  if (typeof x !== "string") return undefined;
  const out: string[] = [];
  let cur = "";
  let has = false;
  let q: '"' | "'" | undefined;
  for (let i = 0; i < x.length; i++) {
    const ch = x[i] as string;
    const next = x[i + 1] ?? "";
    if (q === "'") {
      if (ch === "'") q = undefined;
      else cur += ch;
    } else if (q === '"') {
      if (ch === '"') q = undefined;
      else if (ch === "\\" && next && '"\\$`'.includes(next)) {
        cur += next;
        i++;
      } else cur += ch;
    } else if (/\s/.test(ch)) {
      if (has) out.push(cur);
      cur = "";
      has = false;
    } else {
      has = true;
      if (ch === "'" || ch === '"') q = ch;
      else if (ch === "\\" && next) {
        cur += next;
        i++;
      } else cur += ch;
    }
  }
  if (q) return undefined;
  if (has) out.push(cur);
  return out;
}
