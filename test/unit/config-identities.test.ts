/**
 * The identity settings (cmd/config-auth.ts, ADR 0037): TokenReview and its mapping, the OIDC
 * issuer, each refused by name when wrong; with either on, Hangar is not open.
 */
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseServiceAccountTenants } from "../../cmd/config-auth.js";
import { loadConfig } from "../../cmd/config.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-cfg-id-"));
const tool = path.join(dir, "tool");
writeFileSync(tool, "#!/bin/sh\n");
chmodSync(tool, 0o755);
const local = {
  HANGAR_LOCAL_BWRAP: tool,
  HANGAR_LOCAL_PTY_HELPER: tool,
  HANGAR_LOCAL_GUARD: tool,
  HANGAR_LOCAL_SECCOMP_BPF: tool,
  HANGAR_DATA_DIR: dir,
};
const kube = { ...local, HANGAR_RUNTIME: "kubernetes", KUBECONFIG: tool, HANGAR_KUBE_NETINIT_IMAGE: "hangar:1" };
const tr = { ...kube, HANGAR_AUTH_TOKENREVIEW: "true", HANGAR_AUTH_TOKENREVIEW_TENANTS: "team-a=alpha" };

describe("identity settings", () => {
  it("all off by default: open as before", () => {
    const c = loadConfig(local, [], dir);
    expect(c.auth).toEqual({ tokenReview: undefined, oidc: undefined });
    expect(c.tenantLimits.defaults.creates_per_second).toBe(10_000);
  });
  it("TokenReview with its defaults", () => {
    expect(loadConfig(tr, [], dir).auth.tokenReview).toEqual({
      audience: "hangar",
      tenants: { byNamespace: { "team-a": "alpha" }, byServiceAccount: {} },
      cacheSeconds: 10,
    });
  });
  it("OIDC with its defaults", () => {
    const c = loadConfig({ ...local, HANGAR_AUTH_OIDC_ISSUER: "https://idp.example", HANGAR_AUTH_OIDC_AUDIENCE: "hangar" }, [], dir);
    expect(c.auth.oidc).toEqual({ issuer: "https://idp.example", audience: "hangar", tenantClaim: "hangar_tenant", clockSkewSeconds: 30 });
  });
  it("with tokens taken, a public listen address needs no keys file, and the tenants are not the open one", () => {
    const c = loadConfig({ ...tr, HANGAR_LISTEN: "0.0.0.0:50051" }, [], dir);
    expect(c.listen.host).toBe("0.0.0.0");
    expect(c.tenantLimits.defaults.creates_per_second).toBe(10);
  });
  it.each<[string, Record<string, string>, RegExp]>([
    [
      "TokenReview on the local runtime",
      { ...local, HANGAR_AUTH_TOKENREVIEW: "true", HANGAR_AUTH_TOKENREVIEW_TENANTS: "a=b" },
      /HANGAR_AUTH_TOKENREVIEW=true: needs HANGAR_RUNTIME=kubernetes/,
    ],
    ["TokenReview with no mapping", { ...tr, HANGAR_AUTH_TOKENREVIEW_TENANTS: "" }, /HANGAR_AUTH_TOKENREVIEW_TENANTS: empty/],
    [
      "a cache longer than 30 s",
      { ...tr, HANGAR_AUTH_TOKENREVIEW_CACHE_SECONDS: "31" },
      /HANGAR_AUTH_TOKENREVIEW_CACHE_SECONDS=31: expected an integer from 0 to 30/,
    ],
    ["two audiences", { ...tr, HANGAR_AUTH_TOKENREVIEW_AUDIENCE: "a,b" }, /HANGAR_AUTH_TOKENREVIEW_AUDIENCE=a,b: one audience/],
    [
      "an http issuer",
      { ...local, HANGAR_AUTH_OIDC_ISSUER: "http://idp.example", HANGAR_AUTH_OIDC_AUDIENCE: "x" },
      /HANGAR_AUTH_OIDC_ISSUER=http:\/\/idp.example: must be https/,
    ],
    [
      "an issuer that is no URL",
      { ...local, HANGAR_AUTH_OIDC_ISSUER: "idp", HANGAR_AUTH_OIDC_AUDIENCE: "x" },
      /HANGAR_AUTH_OIDC_ISSUER=idp: not a URL/,
    ],
    ["an issuer without audience", { ...local, HANGAR_AUTH_OIDC_ISSUER: "https://idp.example" }, /HANGAR_AUTH_OIDC_AUDIENCE: required/],
    [
      "a bad claim name",
      { ...local, HANGAR_AUTH_OIDC_ISSUER: "https://i.example", HANGAR_AUTH_OIDC_AUDIENCE: "x", HANGAR_AUTH_OIDC_TENANT_CLAIM: "a b" },
      /HANGAR_AUTH_OIDC_TENANT_CLAIM=a b/,
    ],
    ["a typo", { ...local, HANGAR_AUTH_OIDC_ISUER: "https://i.example" }, /HANGAR_AUTH_OIDC_ISUER: unknown setting/],
  ])("refuses %s", (_n, env, err) => expect(() => loadConfig(env, [], dir)).toThrow(err));
});

describe("HANGAR_AUTH_TOKENREVIEW_TENANTS", () => {
  it("reads namespaces and ServiceAccounts", () =>
    expect(parseServiceAccountTenants(" team-a = alpha , team-a/trainer=gamma,ml=ml.prod ")).toEqual({
      byNamespace: { "team-a": "alpha", ml: "ml.prod" },
      byServiceAccount: { "team-a/trainer": "gamma" },
    }));
  it.each([
    ["team-a", /"team-a": expected namespace=tenant/],
    ["Team=alpha", /"Team" is not a namespace name/],
    ["team/SA=alpha", /"SA" is not a ServiceAccount name/],
    ["team=Alpha", /tenant "Alpha" must be/],
    ["team=a,team=b", /team is mapped twice/],
    ["t/s=a,t/s=b", /t\/s is mapped twice/],
  ])("refuses %j", (text, err) => expect(() => parseServiceAccountTenants(text)).toThrow(err));
});
