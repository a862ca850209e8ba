/** Hostname egress grants: names as the SDK sends them (exact, or one leftmost "*." wildcard). Pure. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** An exact name or one leftmost "*." wildcard; undefined when it is neither. */
export function normaliseHostname(text: string): string | undefined {
  const h = text.trim().toLowerCase().replace(/\.$/, "");
  if (!h || h.length > 253) return undefined;
  const labels = h.split(".");
  const rest = labels[0] === "*" ? labels.slice(1) : labels;
  if (rest.length < 2 || !rest.every((l) => LABEL.test(l)) || /^\d+$/.test(rest.at(-1) ?? "")) return undefined;
  return h;
}

/** Whether `host` is granted: an exact match, or "*.x.y" matching any name below x.y (not x.y itself). */
export function hostGranted(host: string, grants: string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return grants.some((g) => (g.startsWith("*.") ? h.endsWith(g.slice(1)) && h.length > g.length - 1 : h === g));
}
