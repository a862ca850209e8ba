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

const V4_IN_V6: { prefix: string; at: (a: bigint) => bigint[] }[] = [
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d, SIIT): the last 32 bits.
  { prefix: "::ffff:0:0/96", at: (a) => [a & 0xffffffffn] },
  { prefix: "::ffff:0:0:0/96", at: (a) => [a & 0xffffffffn] },
  // IPv4-compatible (::a.b.c.d, deprecated but still routed by some stacks); :: and ::1 are not IPv4.
  { prefix: "::/96", at: (a) => (a > 1n ? [a & 0xffffffffn] : []) },
  // NAT64: the well-known prefix and the local-use range (RFC 6052, RFC 8215), the last 32 bits.
  { prefix: "64:ff9b::/96", at: (a) => [a & 0xffffffffn] },
  { prefix: "64:ff9b:1::/48", at: (a) => [a & 0xffffffffn] },
  // 6to4 (2002:V4::/48): bits 16..48.
  { prefix: "2002::/16", at: (a) => [(a >> 80n) & 0xffffffffn] },
  // Teredo (2001:0::/32): the server in bits 32..64, the client in the last 32 bits inverted.
  { prefix: "2001::/32", at: (a) => [(a >> 64n) & 0xffffffffn, ~a & 0xffffffffn] },
];

/**
 * Every address a range check must judge for `address`: the address itself and, for an IPv6 form
 * that carries an IPv4 address (mapped, translated, compatible, NAT64, 6to4, Teredo), that IPv4
 * address too. A check allows the address only when it allows every one of them. Empty when the
 * text is not an address.
 */
export function judgedAddresses(address: string): Cidr[] {
  const a = parseCidr(address.replace(/^\[|\]$/g, ""));
  if (!a || a.bits !== (a.family === 4 ? 32 : 128)) return [];
  if (a.family === 4) return [a];
  const inner = V4_IN_V6.flatMap((f) => {
    const p = parseCidr(f.prefix);
    return p && contains(p, a) ? f.at(a.net) : [];
  });
  return [a, ...inner.map((net): Cidr => ({ family: 4, net, bits: 32 }))];
}
