/**
 * A local OIDC issuer for the tests: an HTTP server on 127.0.0.1:0 serving the discovery document
 * and a JWKS, and ID tokens signed with jose. Keys can be rotated (a new key id served, the old one
 * dropped); the JWKS fetches are counted.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";

type Key = { kid: string; privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"]; jwk: Record<string, unknown> };

export async function newKey(kid: string): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

export async function startIssuer() {
  let served: Key[] = [await newKey("k1")];
  let jwksFetches = 0;
  const server = http.createServer((req, res) => {
    const send = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.url === "/.well-known/openid-configuration") return send({ issuer, jwks_uri: `${issuer}/jwks` });
    if (req.url === "/jwks") {
      jwksFetches++;
      return send({ keys: served.map((k) => k.jwk) });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    get key() {
      return served[0] as Key;
    },
    jwksFetches: () => jwksFetches,
    /** Serves a new key in place of the old ones; returns it. */
    async rotate(kid: string) {
      const k = await newKey(kid);
      served = [k];
      return k;
    },
    /** An ID token: issuer, audience and a 5-minute life unless `over` says otherwise. */
    sign(claims: JWTPayload, over: { key?: Key; iss?: string; aud?: string; exp?: number; iat?: number } = {}) {
      const key = over.key ?? (served[0] as Key);
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: key.kid })
        .setIssuer(over.iss ?? issuer)
        .setAudience(over.aud ?? "hangar-test")
        .setIssuedAt(over.iat ?? now)
        .setExpirationTime(over.exp ?? now + 300)
        .sign(key.privateKey);
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
