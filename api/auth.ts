/**
 * API keys: `Authorization: Bearer <key>` (or `x-api-key: <key>`) names a tenant. Keys
 * come from a file of `tenant:key` lines; with no file Hangar runs open and every caller
 * is the tenant "local".
 */
import type * as grpc from "@grpc/grpc-js";
import { createHash, timingSafeEqual } from "node:crypto";
import { errors } from "../core/errors.js";

export const OPEN_TENANT = "local";

export interface KeyEntry {
  tenant: string;
  key: string;
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
    if (colon <= 0) throw new Error(`${at}: expected "tenant:key"`);
    const tenant = line.slice(0, colon).trim();
    const key = line.slice(colon + 1).trim();
    if (!/^[a-z0-9]([a-z0-9._-]{0,61}[a-z0-9])?$/.test(tenant))
      throw new Error(`${at}: tenant "${tenant}" must be 1-63 characters of a-z, 0-9, '.', '_', '-'`);
    if (key.length < 16 || /\s/.test(key)) throw new Error(`${at}: key must be at least 16 characters with no spaces`);
    if (seen.has(key)) throw new Error(`${at}: key repeats an earlier line`);
    seen.add(key);
    out.push({ tenant, key });
  });
  if (out.length === 0) throw new Error(`${fileName}: no keys (an empty keys file would lock every caller out)`);
  return out;
}

const digest = (s: string) => createHash("sha256").update(s).digest();

export function createAuthenticator(keys: KeyEntry[] | undefined) {
  const table = keys?.map((k) => ({ tenant: k.tenant, digest: digest(k.key) }));
  return function authenticate(md: grpc.Metadata): string {
    if (!table) return OPEN_TENANT;
    const auth = md.get("authorization")[0];
    let key: string | undefined;
    if (typeof auth === "string" && /^bearer\s+/i.test(auth)) key = auth.replace(/^bearer\s+/i, "").trim();
    const xKey = md.get("x-api-key")[0];
    if (!key && typeof xKey === "string") key = xKey.trim();
    if (!key) throw errors.unauthenticated("missing API key: send 'authorization: Bearer <key>'");
    const d = digest(key);
    const hit = table.find((t) => timingSafeEqual(t.digest, d));
    if (!hit) throw errors.unauthenticated("invalid API key");
    return hit.tenant;
  };
}
export type Authenticator = ReturnType<typeof createAuthenticator>;
