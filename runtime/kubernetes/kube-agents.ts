import { createHash } from "node:crypto";
import type { Agent } from "node:http";
import https from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";

const POOLED = Symbol("hangar.pooledAgents");
type Cluster = { server?: string; proxyUrl?: string } | null;
type Context = { getAgent(): Agent | undefined; setAgent(a: Agent): void };

/**
 * Shared HTTPS agents for the apiserver (ADR 0019).
 *
 * @kubernetes/client-node 1.4 builds a new `https.Agent` for every request (KubeConfig's private
 * `createAgent`), so every call opened a new TCP connection and paid a full TLS handshake. On
 * the scale bed that was the largest single cost in a replica's profile. Two pools, each keyed by
 * the server and every TLS option (a renewed client certificate hashes differently and gets new
 * agents; at most 8 identities are kept):
 * - API calls (create, get, patch, list: `applySecurityAuthentication`) share one keep-alive
 *   agent: connections are reused.
 * - Watches and exec websockets (`applyToHTTPSOptions`) share one agent without keep-alive: each
 *   holds its connection for its whole life (keep-alive would bring nothing), and the shared agent
 *   resumes TLS sessions instead of a full handshake per exec.
 * Proxied and plain-HTTP clusters keep the library's own agents.
 */
export function poolAgents(kc: KubeConfig, opts: { maxSockets?: number } = {}): KubeConfig {
  const target = kc as unknown as {
    createAgent: (cluster: Cluster, o: https.AgentOptions) => Agent;
    applySecurityAuthentication: (context: Context) => Promise<void>;
    [POOLED]?: true;
  };
  if (target[POOLED]) return kc;
  target[POOLED] = true;
  const streams = new Map<string, Agent>();
  const apis = new Map<string, Agent>();
  const pooled = (cluster: Cluster) => !cluster?.proxyUrl && !!cluster?.server?.startsWith("https:");
  const get = (pool: Map<string, Agent>, key: string, make: () => Agent): Agent => {
    let agent = pool.get(key);
    if (!agent) {
      // Bounded: an identity that keeps changing (it should not) cannot grow the map forever.
      if (pool.size >= 8) {
        for (const a of pool.values()) a.destroy();
        pool.clear();
      }
      agent = make();
      pool.set(key, agent);
    }
    return agent;
  };

  const createAgent = target.createAgent.bind(kc);
  target.createAgent = (cluster, o) =>
    pooled(cluster)
      ? get(streams, agentKey(cluster!.server!, o), () => new https.Agent({ ...o, keepAlive: false }))
      : createAgent(cluster, o);

  const applySecurityAuthentication = target.applySecurityAuthentication.bind(kc);
  target.applySecurityAuthentication = async (context) => {
    await applySecurityAuthentication(context);
    const cluster = kc.getCurrentCluster();
    const made = context.getAgent();
    if (!pooled(cluster) || !(made instanceof https.Agent)) return;
    context.setAgent(
      get(
        apis,
        agentKey(cluster!.server, made.options),
        () => new https.Agent({ ...made.options, keepAlive: true, maxSockets: opts.maxSockets ?? 64 }),
      ),
    );
  };
  return kc;
}

/** What an agent's connections depend on: the server and every TLS option, hashed (never kept in clear). */
export function agentKey(server: string, o: https.AgentOptions): string {
  const h = createHash("sha256").update(server);
  for (const k of [
    "ca",
    "cert",
    "key",
    "pfx",
    "passphrase",
    "rejectUnauthorized",
    "servername",
    "ciphers",
    "crl",
    "secureProtocol",
  ] as const) {
    const v = o[k];
    h.update(`\0${k}=`);
    if (v === undefined) continue;
    for (const part of Array.isArray(v) ? v : [v]) {
      if (typeof part === "string" || Buffer.isBuffer(part)) h.update(part);
      else h.update(JSON.stringify(part));
      h.update("\0");
    }
  }
  return h.digest("hex");
}
