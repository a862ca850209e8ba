/**
 * The keys file: `tenant:key` lines, or `tenant:sha256:<64 hex>` lines that hold only the key's
 * SHA-256 (ADR 0037), so that the file, its Secret and its backups never hold a usable key. A key
 * is looked up by its digest, compared in constant time with every line's.
 */
import { createHash, timingSafeEqual } from "node:crypto";

/** One line: the key itself, or its SHA-256 as 64 hex digits. */
export type KeyEntry = { tenant: string; key: string } | { tenant: string; sha256: string };

export const TENANT_NAME = /^[a-z0-9]([a-z0-9._-]{0,61}[a-z0-9])?$/;
export const TENANT_NAME_RULE = "1-63 characters of a-z, 0-9, '.', '_', '-'";

const digest = (s: string) => createHash("sha256").update(s).digest();

/** One line's secret part: `sha256:<hex>` is a stored hash; anything else is a plain key. */
function entryOf(tenant: string, secret: string, at: string): KeyEntry {
  if (secret.toLowerCase().startsWith("sha256:")) {
    const hex = secret.slice("sha256:".length).toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(hex))
      throw new Error(`${at}: "sha256:" must be followed by the key's SHA-256 as 64 hex digits (printf %s "$KEY" | sha256sum)`);
    return { tenant, sha256: hex };
  }
  if (secret.length < 16 || /\s/.test(secret)) throw new Error(`${at}: key must be at least 16 characters with no spaces`);
  return { tenant, key: secret };
}

/** Parses a keys file; throws an Error naming the first bad line. */
export function parseKeysFile(text: string, fileName: string): KeyEntry[] {
  const out: KeyEntry[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const at = `${fileName}:${i + 1}`;
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Error(`${at}: expected "tenant:key" or "tenant:sha256:<hex>"`);
    const tenant = line.slice(0, colon).trim();
    if (!TENANT_NAME.test(tenant)) throw new Error(`${at}: tenant "${tenant}" must be ${TENANT_NAME_RULE}`);
    const entry = entryOf(tenant, line.slice(colon + 1).trim(), at);
    const d = digestOf(entry).toString("hex");
    if (seen.has(d)) throw new Error(`${at}: key repeats an earlier line`);
    seen.add(d);
    out.push(entry);
  });
  if (out.length === 0) throw new Error(`${fileName}: no keys (an empty keys file would lock every caller out)`);
  return out;
}

const digestOf = (k: KeyEntry): Buffer => ("key" in k ? digest(k.key) : Buffer.from(k.sha256, "hex"));

/** The lookup from a presented key to its tenant: every line's digest compared in constant time, no early exit. */
export function keyTable(keys: KeyEntry[]): (key: string) => string | undefined {
  const table = keys.map((k) => ({ tenant: k.tenant, digest: digestOf(k) }));
  return (key) => {
    const d = digest(key);
    let tenant: string | undefined;
    for (const t of table) if (timingSafeEqual(t.digest, d) && tenant === undefined) tenant = t.tenant;
    return tenant;
  };
}
