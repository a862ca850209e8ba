/** Kubernetes quantity strings ("500m", "1.5", "256Mi", "1G") as numbers, for limits and capacity. */

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, "": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const RE = /^([+]?[0-9]+(?:\.[0-9]*)?|[+]?\.[0-9]+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?[0-9]+))?$/;

/** The quantity's value in base units, or undefined when the string is not a quantity. */
export function parseQuantity(q: string): number | undefined {
  const m = RE.exec(q.trim());
  if (!m || q.length > 64) return undefined;
  const n = Number(m[1]);
  if (m[3] !== undefined) return n * 10 ** Number(m[3]);
  const suffix = m[2] ?? "";
  const mult = BINARY[suffix] ?? DECIMAL[suffix];
  return mult === undefined ? undefined : n * mult;
}

export const cpuMillicores = (q: string): number | undefined => {
  const v = parseQuantity(q);
  return v === undefined ? undefined : Math.ceil(v * 1000);
};
