/**
 * OIDC ID tokens (api/auth-oidc.ts, ADR 0037) against a local issuer this test starts: discovery and
 * JWKS over HTTP on 127.0.0.1, tokens signed with jose. A valid token names its tenant; every forged,
 * expired, misdirected or malformed one is refused saying which check failed; a rotated key is picked up.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOidcAuth, jwksUriOf, tenantOfClaims } from "../../api/auth-oidc.js";
import { newKey, startIssuer } from "./oidc-issuer.js";

let iss: Awaited<ReturnType<typeof startIssuer>>;
beforeAll(async () => {
  iss = await startIssuer();
});
afterAll(() => iss.close());

const verifier = (over: { jwksCooldownMs?: number; tenantClaim?: string } = {}) =>
  createOidcAuth({
    issuer: iss.issuer,
    audience: "hangar-test",
    tenantClaim: over.tenantClaim ?? "hangar_tenant",
    clockSkewSeconds: 5,
    ...over,
  });

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

describe("OIDC ID tokens from a local issuer", () => {
  it("a valid token names its tenant", async () => {
    await expect(verifier()(await iss.sign({ hangar_tenant: "alpha", sub: "job-1" }))).resolves.toBe("alpha");
  });
  it("the tenant claim is the configured one", async () => {
    await expect(verifier({ tenantClaim: "team" })(await iss.sign({ team: "beta", hangar_tenant: "alpha" }))).resolves.toBe("beta");
  });

  const refused: [string, () => Promise<string>, string, RegExp][] = [
    [
      "another issuer",
      () => iss.sign({ hangar_tenant: "alpha" }, { iss: "https://evil.example" }),
      "UNAUTHENTICATED",
      /not from issuer http:\/\/127\.0\.0\.1/,
    ],
    [
      "another audience",
      () => iss.sign({ hangar_tenant: "alpha" }, { aud: "someone-else" }),
      "UNAUTHENTICATED",
      /not for audience "hangar-test"/,
    ],
    [
      "expired past the clock skew",
      () => iss.sign({ hangar_tenant: "alpha" }, { iat: Math.floor(Date.now() / 1000) - 600, exp: Math.floor(Date.now() / 1000) - 60 }),
      "UNAUTHENTICATED",
      /expired/,
    ],
    [
      "a signature by a key the issuer never published (same kid)",
      async () => iss.sign({ hangar_tenant: "alpha" }, { key: { ...(await newKey(iss.key.kid)) } }),
      "UNAUTHENTICATED",
      /signature does not verify/,
    ],
    [
      "a signature tampered with (payload swapped to another tenant)",
      async () => {
        const [h, , s] = (await iss.sign({ hangar_tenant: "alpha" })).split(".");
        const now = Math.floor(Date.now() / 1000);
        return `${h}.${b64({ hangar_tenant: "beta", iss: iss.issuer, aud: "hangar-test", exp: now + 300, iat: now })}.${s}`;
      },
      "UNAUTHENTICATED",
      /signature does not verify/,
    ],
    [
      "alg none",
      async () => {
        const now = Math.floor(Date.now() / 1000);
        return `${b64({ alg: "none", typ: "JWT" })}.${b64({ hangar_tenant: "alpha", iss: iss.issuer, aud: "hangar-test", exp: now + 300 })}.`;
      },
      "UNAUTHENTICATED",
      /algorithm refused|malformed/,
    ],
    [
      "HS256 signed with the public key as a secret",
      async () => {
        const { SignJWT } = await import("jose");
        return new SignJWT({ hangar_tenant: "alpha" })
          .setProtectedHeader({ alg: "HS256", kid: iss.key.kid })
          .setIssuer(iss.issuer)
          .setAudience("hangar-test")
          .setExpirationTime("5m")
          .sign(new TextEncoder().encode(JSON.stringify(iss.key.jwk)));
      },
      "UNAUTHENTICATED",
      /algorithm refused/,
    ],
    ["no tenant claim", () => iss.sign({ sub: "job-1" }), "PERMISSION_DENIED", /no "hangar_tenant" claim naming a tenant/],
    ["a tenant claim that is no tenant name", () => iss.sign({ hangar_tenant: "../Beta" }), "PERMISSION_DENIED", /is not a tenant name/],
    ["not a JWT at all", async () => "a.b.c", "UNAUTHENTICATED", /malformed/],
  ];
  it.each(refused)("refuses %s", async (_n, token, code, message) => {
    const err = await verifier()(await token()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code });
    expect((err as Error).message).toMatch(message);
  });

  it("a rotated key is picked up (the JWKS is fetched again for the unknown kid); a kid still unknown after that is refused", async () => {
    const verify = verifier({ jwksCooldownMs: 0 });
    await expect(verify(await iss.sign({ hangar_tenant: "alpha" }))).resolves.toBe("alpha");
    const before = iss.jwksFetches();
    const k2 = await iss.rotate(`k2-${Date.now()}`);
    await expect(verify(await iss.sign({ hangar_tenant: "alpha" }, { key: k2 }))).resolves.toBe("alpha");
    expect(iss.jwksFetches()).toBeGreaterThan(before);
    const stranger = await newKey("never-published");
    const err = await verify(await iss.sign({ hangar_tenant: "alpha" }, { key: stranger })).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "UNAUTHENTICATED" });
    expect((err as Error).message).toMatch(/names a key the issuer's JWKS does not hold/);
  });

  it("unknown key ids do not refetch the JWKS faster than the cooldown", async () => {
    const verify = verifier({ jwksCooldownMs: 60_000 });
    await expect(verify(await iss.sign({ hangar_tenant: "alpha" }))).resolves.toBe("alpha");
    const before = iss.jwksFetches();
    for (let i = 0; i < 5; i++)
      await verify(await iss.sign({ hangar_tenant: "alpha" }, { key: await newKey(`x${i}`) })).catch(() => undefined);
    expect(iss.jwksFetches() - before).toBeLessThanOrEqual(1);
  });

  it("an issuer that cannot be reached is UNAVAILABLE, never a tenant", async () => {
    const verify = createOidcAuth({
      issuer: "http://127.0.0.1:1",
      audience: "a",
      tenantClaim: "t",
      clockSkewSeconds: 0,
      fetchTimeoutMs: 500,
    });
    await expect(verify(await iss.sign({ t: "alpha" }))).rejects.toMatchObject({ code: "UNAVAILABLE" });
  });
});

describe("discovery and claims (pure)", () => {
  const issuer = "https://issuer.example";
  it.each([
    [{ issuer, jwks_uri: "https://issuer.example/keys" }, "https://issuer.example/keys"],
    [{ issuer: "https://other.example", jwks_uri: "https://issuer.example/keys" }, /names issuer "https:\/\/other.example"/],
    [{ issuer }, /no jwks_uri/],
    [{ issuer, jwks_uri: "http://issuer.example/keys" }, /is not https/],
  ])("discovery %j", (doc, want) => {
    if (typeof want === "string") expect(jwksUriOf(doc, issuer).href).toBe(want);
    else expect(() => jwksUriOf(doc, issuer)).toThrow(want);
  });
  it.each([
    [{ t: "alpha" }, "alpha"],
    [{}, /no "t" claim/],
    [{ t: 7 }, /not a tenant name/],
    [{ t: "UPPER" }, /not a tenant name/],
    [{ t: ["alpha"] }, /not a tenant name/],
  ])("claims %j", (payload, want) => {
    if (typeof want === "string") expect(tenantOfClaims(payload, "t")).toBe(want);
    else expect(() => tenantOfClaims(payload, "t")).toThrow(want);
  });
});
