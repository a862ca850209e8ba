/** CIDR ranges of either family as (bits, prefix length) pairs: parsing and containment, pure. */
import { isIPv4, isIPv6 } from "node:net";

export interface Cidr {
  family: 4 | 6;
  /** The network address (host bits cleared). */
  net: bigint;
  bits: number;
}

function v4(a: string): bigint {
  return a.split(".").reduce((acc, o) => (acc << 8n) | BigInt(Number(o)), 0n);
}

function v6(a: string): bigint {
  let s = a.split("%")[0] ?? a;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail?.[1]) {
    const x = v4(tail[1]);
    s = `${s.slice(0, -tail[1].length)}${(x >> 16n).toString(16)}:${(x & 0xffffn).toString(16)}`;
  }
  const [head = "", rest] = s.split("::");
  const h = head ? head.split(":") : [];
  const r = rest === undefined ? [] : rest ? rest.split(":") : [];
  const groups = rest === undefined ? h : [...h, ...Array<string>(8 - h.length - r.length).fill("0"), ...r];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** "10.0.0.0/8", "fd00::/8" or a bare address (a /32 or /128); undefined when it is neither. */
export function parseCidr(text: string): Cidr | undefined {
  const m = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(text.trim());
  if (!m?.[1]) return undefined;
  const family = isIPv4(m[1]) ? 4 : isIPv6(m[1]) ? 6 : undefined;
  if (!family) return undefined;
  const width = family === 4 ? 32 : 128;
  const bits = m[2] === undefined ? width : Number(m[2]);
  if (bits > width) return undefined;
  const addr = family === 4 ? v4(m[1]) : v6(m[1]);
  const hostMask = (1n << BigInt(width - bits)) - 1n;
  return { family, net: addr & ~hostMask & ((1n << BigInt(width)) - 1n), bits };
}

/** Whether every address of `inner` is in `outer`. */
export function contains(outer: Cidr, inner: Cidr): boolean {
  if (outer.family !== inner.family || inner.bits < outer.bits) return false;
  const width = outer.family === 4 ? 32 : 128;
  return inner.net >> BigInt(width - outer.bits) === outer.net >> BigInt(width - outer.bits);
}

export const overlaps = (a: Cidr, b: Cidr) => contains(a, b) || contains(b, a);

export function formatCidr(c: Cidr): string {
  if (c.family === 4) return `${[24n, 16n, 8n, 0n].map((s) => String((c.net >> s) & 255n)).join(".")}/${c.bits}`;
  const groups = Array.from({ length: 8 }, (_, i) => ((c.net >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  return `${groups.join(":").replace(/(^|:)0(:0)+(:|$)/, "::")}/${c.bits}`;
}
