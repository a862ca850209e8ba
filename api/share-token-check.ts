/**
 * The share-token check the operator's Gateway calls before it sends a request to an HTTPS
 * share-token endpoint (a forward-auth / ext_authz hop; ADR 0021 "Share-token endpoints"): GET
 * /share-token with the request's own headers and X-Forwarded-Host / X-Forwarded-Uri as the Gateway
 * saw them. 200 when the request carries the sandbox's token (header X-Sandbox-Share-Token, or the
 * query parameter share_token), 401 otherwise. Stateless: the token is recomputed from the sandbox id
 * the host or path names (core/share-token.ts), so every replica answers alike.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { publicTarget, type PublicUrlBase } from "../core/public-url.js";
import { SHARE_TOKEN_HEADER, SHARE_TOKEN_QUERY, shareTokenMatches } from "../core/share-token.js";

export const SHARE_TOKEN_CHECK_PATH = "/share-token";

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The check's verdict for one forwarded request (pure apart from the HMAC): 200 or 401. */
export function checkForwarded(key: Buffer, base: PublicUrlBase, headers: { host?: string; uri?: string; token?: string }): 200 | 401 {
  const uri = headers.uri ?? "/";
  const target = publicTarget(base, headers.host ?? "", uri);
  if (!target) return 401;
  const query = new URLSearchParams(uri.includes("?") ? uri.slice(uri.indexOf("?") + 1) : "");
  const presented = headers.token ?? query.get(SHARE_TOKEN_QUERY) ?? undefined;
  return shareTokenMatches(key, target.id, presented) ? 200 : 401;
}

export function listenShareTokenCheck(key: Buffer, base: PublicUrlBase, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if ((req.url ?? "").split("?")[0] !== SHARE_TOKEN_CHECK_PATH) {
      res.writeHead(404).end(`see ${SHARE_TOKEN_CHECK_PATH}\n`);
      return;
    }
    const verdict = checkForwarded(key, base, {
      host: header(req, "x-forwarded-host"),
      uri: header(req, "x-forwarded-uri"),
      token: header(req, SHARE_TOKEN_HEADER),
    });
    if (verdict === 200) res.writeHead(200).end();
    else
      res
        .writeHead(401, { "content-type": "text/plain", "www-authenticate": `SandboxShareToken header="X-Sandbox-Share-Token"` })
        .end("this endpoint needs its sandbox's share token (header X-Sandbox-Share-Token or query parameter share_token)\n");
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}
