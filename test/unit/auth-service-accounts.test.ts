/**
 * ServiceAccount tokens (api/auth-service-accounts.ts, ADR 0037) against an in-memory TokenReview:
 * the mapping names the tenant, a refusal or an unmapped identity never becomes another tenant, and
 * the verdict cache is bounded, short, never outlives the token and never mixes two tokens.
 */
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { VerdictCache, verdictExpiry } from "../../api/auth-cache.js";
import {
  createServiceAccountAuth,
  judgeReview,
  tenantOfServiceAccount,
  type ServiceAccountTenants,
  type TokenReviewResult,
} from "../../api/auth-service-accounts.js";

const TENANTS: ServiceAccountTenants = {
  byServiceAccount: { "team-a/special": "gamma" },
  byNamespace: { "team-a": "alpha", "team-b": "beta" },
};

/** An in-memory TokenReview: tokens it knows, with the audiences they are for; counts its calls. */
function fakeReviewer(known: Record<string, { user: string; audiences: string[] }>, o: { failing?: boolean } = {}) {
  const calls: string[] = [];
  return {
    calls,
    async review(token: string, audiences: string[]): Promise<TokenReviewResult> {
      calls.push(token);
      if (o.failing) throw new Error("connection refused");
      const k = known[token];
      if (!k) return { authenticated: false, error: "invalid bearer token" };
      const aud = audiences.filter((a) => k.audiences.includes(a));
      if (aud.length === 0) return { authenticated: false, error: "token audiences [other] is invalid for the target audiences" };
      return { authenticated: true, username: k.user, audiences: aud };
    },
  };
}

/** A JWT-shaped token with the given exp (the reviewer is what judges it; the exp bounds the cache). */
const jwt = (name: string, exp?: number) => {
  const t = new SignJWT({ sub: name }).setProtectedHeader({ alg: "HS256" });
  if (exp !== undefined) t.setExpirationTime(exp);
  return t.sign(new TextEncoder().encode("x".repeat(32)));
};

describe("the mapping and the verdict (pure)", () => {
  it.each([
    ["team-a", "special", "gamma"],
    ["team-a", "worker", "alpha"],
    ["team-b", "special", "beta"],
    ["team-c", "worker", undefined],
    ["__proto__", "x", undefined],
    ["constructor", "x", undefined],
  ])("%s/%s -> %s", (ns, sa, want) => expect(tenantOfServiceAccount(TENANTS, ns, sa)).toBe(want));

  it.each<[string, TokenReviewResult, string | RegExp, string?]>([
    ["mapped", { authenticated: true, username: "system:serviceaccount:team-a:worker", audiences: ["hangar"] }, "alpha"],
    ["no audiences said", { authenticated: true, username: "system:serviceaccount:team-b:x" }, "beta"],
    [
      "refused",
      { authenticated: false, error: "token has expired" },
      /refused by the cluster's TokenReview: token has expired/,
      "UNAUTHENTICATED",
    ],
    [
      "another audience",
      { authenticated: true, username: "system:serviceaccount:team-a:w", audiences: ["vault"] },
      /not for audience "hangar"/,
      "UNAUTHENTICATED",
    ],
    ["not a ServiceAccount", { authenticated: true, username: "alice@example.com" }, /is not a ServiceAccount/, "PERMISSION_DENIED"],
    [
      "unmapped",
      { authenticated: true, username: "system:serviceaccount:team-c:w" },
      /team-c\/w is authenticated but no tenant is mapped/,
      "PERMISSION_DENIED",
    ],
  ])("%s", (_n, r, want, code) => {
    const v = judgeReview(r, "hangar", TENANTS);
    if (typeof want === "string") expect(v).toBe(want);
    else expect(v).toMatchObject({ code, message: expect.stringMatching(want) });
  });

  it.each([
    [1000, 30_000, undefined, 31_000],
    [1000, 30_000, 5, 5000],
    [1000, 30_000, 100, 31_000],
    [1000, 0, 100, 1000],
  ])("verdictExpiry(now %d, max %d, exp %s) = %d", (now, max, exp, want) => expect(verdictExpiry(now, max, exp)).toBe(want));

  it("the cache is bounded (oldest out first) and forgets expired entries", () => {
    const c = new VerdictCache<string>(2);
    c.set("a", "A", 100, 0);
    c.set("b", "B", 100, 0);
    c.set("c", "C", 100, 0);
    expect([c.get("a", 1), c.get("b", 1), c.get("c", 1)]).toEqual([undefined, "B", "C"]);
    expect(c.get("b", 100)).toBeUndefined();
    c.set("d", "D", 5, 10);
    expect(c.get("d", 10)).toBeUndefined();
  });
});

describe("ServiceAccount tokens through the TokenReview interface", () => {
  const setup = async (o: { cacheSeconds?: number; failing?: boolean } = {}) => {
    let now = 1_000_000;
    const exp = Math.floor(now / 1000) + 3600;
    const tokens = {
      a: await jwt("a", exp),
      b: await jwt("b", exp),
      wrongAud: await jwt("w", exp),
      short: await jwt("s", Math.floor(now / 1000) + 2),
    };
    const reviewer = fakeReviewer(
      {
        [tokens.a]: { user: "system:serviceaccount:team-a:worker", audiences: ["hangar"] },
        [tokens.b]: { user: "system:serviceaccount:team-b:worker", audiences: ["hangar"] },
        [tokens.wrongAud]: { user: "system:serviceaccount:team-a:worker", audiences: ["vault"] },
        [tokens.short]: { user: "system:serviceaccount:team-a:worker", audiences: ["hangar"] },
      },
      { failing: o.failing },
    );
    const verify = createServiceAccountAuth({
      reviewer,
      audience: "hangar",
      tenants: TENANTS,
      cacheSeconds: o.cacheSeconds ?? 30,
      now: () => now,
    });
    return { verify, reviewer, tokens, tick: (ms: number) => (now += ms) };
  };

  it("a token for the audience names its namespace's tenant; asked once within the cache time", async () => {
    const { verify, reviewer, tokens, tick } = await setup({ cacheSeconds: 10 });
    await expect(verify(tokens.a)).resolves.toBe("alpha");
    await expect(verify(tokens.a)).resolves.toBe("alpha");
    expect(reviewer.calls.length).toBe(1);
    tick(10_001);
    await expect(verify(tokens.a)).resolves.toBe("alpha");
    expect(reviewer.calls.length).toBe(2);
  });

  it("two tokens of two tenants through one cache never cross, in either order, however often", async () => {
    const { verify, tokens } = await setup();
    for (let i = 0; i < 3; i++) {
      expect(await verify(tokens.a)).toBe("alpha");
      expect(await verify(tokens.b)).toBe("beta");
    }
    expect(await Promise.all([verify(tokens.b), verify(tokens.a), verify(tokens.b)])).toEqual(["beta", "alpha", "beta"]);
  });

  it("a token for another audience is refused, also the second time (cached refusal)", async () => {
    const { verify, tokens } = await setup();
    for (let i = 0; i < 2; i++)
      await expect(verify(tokens.wrongAud)).rejects.toMatchObject({
        code: "UNAUTHENTICATED",
        message: expect.stringMatching(/TokenReview/),
      });
  });

  it("a forged token is refused", async () => {
    const { verify } = await setup();
    await expect(verify(await jwt("forged"))).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
      message: expect.stringMatching(/invalid bearer token/),
    });
  });

  it("a cached verdict never outlives the token's own expiry", async () => {
    const { verify, reviewer, tokens, tick } = await setup({ cacheSeconds: 30 });
    await expect(verify(tokens.short)).resolves.toBe("alpha");
    tick(2500); // past the token's exp, inside the 30 s cache time: the apiserver is asked again
    await verify(tokens.short).catch(() => undefined);
    expect(reviewer.calls.filter((t) => t === tokens.short).length).toBe(2);
  });

  it("an apiserver that cannot be asked is UNAVAILABLE and nothing is cached", async () => {
    const { verify, reviewer, tokens } = await setup({ failing: true });
    await expect(verify(tokens.a)).rejects.toMatchObject({ code: "UNAVAILABLE" });
    await expect(verify(tokens.a)).rejects.toMatchObject({ code: "UNAVAILABLE" });
    expect(reviewer.calls.length).toBe(2);
  });

  it("concurrent calls with one token ask the apiserver once", async () => {
    const { verify, reviewer, tokens } = await setup();
    expect(await Promise.all([verify(tokens.a), verify(tokens.a), verify(tokens.a)])).toEqual(["alpha", "alpha", "alpha"]);
    expect(reviewer.calls.length).toBe(1);
  });
});
