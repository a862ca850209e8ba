/**
 * Keys stored as hashes (api/auth-keys.ts, ADR 0037): a `tenant:sha256:<hex>` line takes the key
 * whose SHA-256 it holds, never the hash itself; plain lines keep working beside them; bad lines
 * name the line. And which check a JWT goes to (api/auth.ts tokenRoute).
 */
import * as grpc from "@grpc/grpc-js";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyTable, parseKeysFile } from "../../api/auth-keys.js";
import { createAuthenticator, tokenRoute } from "../../api/auth.js";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const K1 = "alpha-0123456789abcdef";
const K2 = "beta-fedcba9876543210";

describe("hashed keys", () => {
  const file = `# plain and hashed\nalpha:${K1}\nbeta:sha256:${sha(K2)}\ngamma:SHA256:${sha("gamma-key-000000000000").toUpperCase()}\n`;
  const keys = parseKeysFile(file, "keys");
  it("parses both forms", () =>
    expect(keys).toEqual([
      { tenant: "alpha", key: K1 },
      { tenant: "beta", sha256: sha(K2) },
      { tenant: "gamma", sha256: sha("gamma-key-000000000000") },
    ]));
  it.each([
    [K1, "alpha"],
    [K2, "beta"],
    ["gamma-key-000000000000", "gamma"],
    [`sha256:${sha(K2)}`, undefined],
    [sha(K2), undefined],
    ["beta-fedcba9876543211", undefined],
  ])("%s -> %s", (key, tenant) => expect(keyTable(keys)(key)).toBe(tenant));
  it("through the authenticator", () => {
    const md = new grpc.Metadata();
    md.set("authorization", `Bearer ${K2}`);
    expect(createAuthenticator(keys)(md)).toBe("beta");
  });
  it.each([
    ["alpha:sha256:abc", /keys:1: "sha256:" must be followed by the key's SHA-256 as 64 hex digits/],
    [`alpha:sha256:${"g".repeat(64)}`, /keys:1: "sha256:"/],
    [`alpha:${K1}\nbeta:sha256:${sha(K1)}`, /keys:2: key repeats an earlier line/],
    [`alpha:sha256:${sha(K1)}\nbeta:${K1}`, /keys:2: key repeats an earlier line/],
    ["Alpha:sha256:" + sha(K1), /keys:1: tenant "Alpha"/],
  ])("refuses %j", (text, err) => expect(() => parseKeysFile(text, "keys")).toThrow(err));
});

describe("which check a JWT goes to", () => {
  it.each<[string | undefined, { oidcIssuer?: string; serviceAccounts: boolean }, string]>([
    ["https://idp", { oidcIssuer: "https://idp", serviceAccounts: true }, "oidc"],
    ["https://kubernetes.default.svc", { oidcIssuer: "https://idp", serviceAccounts: true }, "serviceAccounts"],
    [undefined, { oidcIssuer: "https://idp", serviceAccounts: true }, "serviceAccounts"],
    ["https://kubernetes.default.svc", { oidcIssuer: "https://idp", serviceAccounts: false }, "oidc"],
    ["https://idp", { serviceAccounts: true }, "serviceAccounts"],
  ])("iss %s with %j -> %s", (iss, ids, want) => expect(tokenRoute(iss, ids)).toBe(want));
});
