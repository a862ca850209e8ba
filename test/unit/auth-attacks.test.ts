/**
 * Tenant isolation with every kind of identity (ADR 0037), through the real grpc-js server: a plain
 * key, a key stored as its SHA-256, a ServiceAccount token (an in-memory TokenReview) and an OIDC ID
 * token (a local issuer). Each tenant sees only its own sandboxes; forged, expired and misdirected
 * tokens are refused; a token that names the OIDC issuer is never judged by anything but its keys.
 */
import * as grpc from "@grpc/grpc-js";
import { createHash } from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOidcAuth } from "../../api/auth-oidc.js";
import { createServiceAccountAuth, type TokenReviewResult } from "../../api/auth-service-accounts.js";
import { createAuthenticator, OPEN_TENANT } from "../../api/auth.js";
import { loadApi, PROTO_DIR } from "../../api/proto.js";
import { fakeRuntime } from "./fake-runtime.js";
import { newKey, startIssuer } from "./oidc-issuer.js";
import { startTestServer } from "./test-server.js";

type Client = grpc.Client & Record<string, (...a: unknown[]) => unknown>;
type Res = { err: grpc.ServiceError | null; res: { sandbox_id?: string; sandboxes?: { sandbox_id: string }[] } };

const ALPHA_KEY = "alpha-0123456789abcdef";
const BETA_KEY = "beta-0123456789abcdef0";
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const hs = (sub: string) =>
  new SignJWT({ sub })
    .setProtectedHeader({ alg: "HS256" })
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode("k".repeat(32)));

let iss: Awaited<ReturnType<typeof startIssuer>>;
let stop: () => Promise<void>;
let call: (method: string, req: object, bearer: string) => Promise<Res>;
const creds: Record<string, string> = {};

beforeAll(async () => {
  iss = await startIssuer();
  creds.alpha = ALPHA_KEY;
  creds.beta = BETA_KEY;
  creds.gamma = await hs("sa-gamma");
  creds.delta = await iss.sign({ hangar_tenant: "delta" });
  creds.saWrongAudience = await hs("sa-vault");
  const reviewed: Record<string, { user: string; aud: string }> = {
    [creds.gamma]: { user: "system:serviceaccount:team-g:trainer", aud: "hangar" },
    [creds.saWrongAudience]: { user: "system:serviceaccount:team-g:trainer", aud: "vault" },
  };
  const reviewer = {
    async review(token: string, audiences: string[]): Promise<TokenReviewResult> {
      const r = reviewed[token];
      if (!r || !audiences.includes(r.aud))
        return { authenticated: false, error: r ? "token audiences are invalid" : "invalid bearer token" };
      return { authenticated: true, username: r.user, audiences: [r.aud] };
    },
  };
  const s = await startTestServer(fakeRuntime(), {
    keys: [
      { tenant: "alpha", key: ALPHA_KEY },
      { tenant: "beta", sha256: sha256(BETA_KEY) },
    ],
    identities: {
      serviceAccounts: createServiceAccountAuth({
        reviewer,
        audience: "hangar",
        tenants: { byNamespace: { "team-g": "gamma" }, byServiceAccount: {} },
        cacheSeconds: 30,
      }),
      oidc: {
        issuer: iss.issuer,
        verify: createOidcAuth({ issuer: iss.issuer, audience: "hangar-test", tenantClaim: "hangar_tenant", clockSkewSeconds: 5 }),
      },
    },
  });
  const { v1 } = loadApi(PROTO_DIR);
  const client = new v1.SandboxService(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure()) as unknown as Client;
  call = (method, req, bearer) =>
    new Promise<Res>((resolve) => {
      const md = new grpc.Metadata();
      md.set("authorization", `Bearer ${bearer}`);
      client[method]?.(req, md, (err: grpc.ServiceError | null, res: Res["res"]) => resolve({ err, res }));
    });
  stop = async () => {
    client.close();
    await s.api.shutdown(500);
    await s.controller.close();
  };
});
afterAll(async () => {
  await stop();
  await iss.close();
});

const TENANTS = ["alpha", "beta", "gamma", "delta"] as const;

describe("tenant isolation with each kind of identity", () => {
  it("each identity creates as its own tenant and never sees, stops or lists another's sandbox", async () => {
    const ids: Record<string, string> = {};
    for (const t of TENANTS) {
      const r = await call(
        "CreateSandbox",
        { sandbox: { spec: { containers: [{ name: "main", image: "python:3.11" }] } } },
        creds[t] as string,
      );
      expect(r.err, `${t}: ${r.err?.message}`).toBeNull();
      ids[t] = r.res.sandbox_id as string;
    }
    for (const t of TENANTS) {
      expect((await call("GetSandbox", { sandbox_id: ids[t] }, creds[t] as string)).err).toBeNull();
      const listed = (await call("ListSandboxes", {}, creds[t] as string)).res.sandboxes?.map((x) => x.sandbox_id);
      expect(listed).toEqual([ids[t]]);
      for (const other of TENANTS.filter((o) => o !== t)) {
        const get = await call("GetSandbox", { sandbox_id: ids[other] }, creds[t] as string);
        expect(get.err?.code, `${t} reading ${other}'s sandbox`).toBe(grpc.status.NOT_FOUND);
        const del = await call("DeleteSandbox", { sandbox_id: ids[other] }, creds[t] as string);
        expect(del.err?.code, `${t} deleting ${other}'s sandbox`).toBe(grpc.status.NOT_FOUND);
      }
    }
  });

  it("the hash stored for a key is no key itself", async () => {
    const r = await call("ListSandboxes", {}, `sha256:${sha256(BETA_KEY)}`);
    expect(r.err?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  const refused: [string, () => Promise<string>, number, RegExp][] = [
    ["a forged ServiceAccount token", () => hs("nobody"), grpc.status.UNAUTHENTICATED, /TokenReview: invalid bearer token/],
    [
      "a ServiceAccount token for another audience",
      async () => creds.saWrongAudience as string,
      grpc.status.UNAUTHENTICATED,
      /TokenReview/,
    ],
    [
      "an expired ID token",
      () => iss.sign({ hangar_tenant: "delta" }, { iat: Math.floor(Date.now() / 1000) - 600, exp: Math.floor(Date.now() / 1000) - 60 }),
      grpc.status.UNAUTHENTICATED,
      /expired/,
    ],
    [
      "an ID token for another audience",
      () => iss.sign({ hangar_tenant: "delta" }, { aud: "other" }),
      grpc.status.UNAUTHENTICATED,
      /audience/,
    ],
    [
      "an ID token naming the issuer, signed by another key",
      async () => iss.sign({ hangar_tenant: "alpha" }, { key: await newKey(iss.key.kid) }),
      grpc.status.UNAUTHENTICATED,
      /signature does not verify/,
    ],
    ["an ID token naming no tenant", () => iss.sign({ sub: "x" }), grpc.status.PERMISSION_DENIED, /no "hangar_tenant" claim/],
    ["no credential at all", async () => "", grpc.status.UNAUTHENTICATED, /missing API key/],
  ];
  it.each(refused)("refuses %s", async (_n, token, code, message) => {
    const r = await call("ListSandboxes", {}, await token());
    expect(r.err?.code).toBe(code);
    expect(r.err?.details).toMatch(message);
  });

  it("an ID token naming another issuer is judged by TokenReview, which refuses it", async () => {
    const r = await call("ListSandboxes", {}, await iss.sign({ hangar_tenant: "alpha" }, { iss: "https://kubernetes.default.svc" }));
    expect(r.err?.code).toBe(grpc.status.UNAUTHENTICATED);
    expect(r.err?.details).toMatch(/TokenReview/);
  });
});

describe("modes without tokens are as before", () => {
  const md = (h: Record<string, string>) => {
    const m = new grpc.Metadata();
    for (const [k, v] of Object.entries(h)) m.set(k, v);
    return m;
  };
  it("open mode: every caller is the local tenant, synchronously, whatever it sends", () => {
    for (const a of [createAuthenticator(undefined), createAuthenticator(undefined, {})]) {
      expect(a(md({}))).toBe(OPEN_TENANT);
      expect(a(md({ authorization: "Bearer anything.at.all" }))).toBe(OPEN_TENANT);
    }
  });
  it("keys only: a JWT-shaped bearer is an invalid key, never a token", async () => {
    const a = createAuthenticator([{ tenant: "alpha", key: ALPHA_KEY }]);
    expect(() => a(md({ authorization: `Bearer ${creds.delta}` }))).toThrow(
      expect.objectContaining({ code: "UNAUTHENTICATED", message: "invalid API key" }),
    );
    expect(a(md({ authorization: `Bearer ${ALPHA_KEY}` }))).toBe("alpha");
  });
});
