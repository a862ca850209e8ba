import { createHash } from "node:crypto";
import type { Agent } from "node:http";
import https from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";

const POOLED = Symbol("hangar.pooledAgents");

/**
 * One keep-alive HTTPS agent per TLS identity for every apiserver call (ADR 0019).
 *
 * @kubernetes/client-node 1.4 builds a new `https.Agent` for every request (KubeConfig's private
 * `createAgent`, called from `applySecurityAuthentication` and `applyToHTTPSOptions`), so each
 * call opened a fresh TCP connection and paid a full TLS handshake, including the client
 * certificate's and the CA's parsing. On the scale bed that was the largest single cost in a
 * replica's profile. Here the agent is kept and reused while the TLS material it was made from is
 * the same; rotated credentials (a renewed client certificate in the kubeconfig) hash differently
 * and get a new agent. Proxied clusters keep the library's own agents.
 */
export function poolAgents(kc: KubeConfig, opts: { maxSockets?: number } = {}): KubeConfig {
  const target = kc as unknown as { createAgent: (cluster: { server?: string; proxyUrl?: string } | null, o: https.AgentOptions) => Agent; [POOLED]?: true };
  if (target[POOLED]) return kc;
  target[POOLED] = true;
  const original = target.createAgent.bind(kc);
  const agents = new Map<string, Agent>();
  target.createAgent = (cluster, o) => {
    if (cluster?.proxyUrl || !cluster?.server?.startsWith("https:")) return original(cluster, o);
    const key = agentKey(cluster.server, o);
    let agent = agents.get(key);
    if (!agent) {
      // A bounded set: an identity that keeps changing (it should not) cannot grow the map forever.
      if (agents.size >= 8) {
        for (const a of agents.values()) (a as https.Agent).destroy();
        agents.clear();
      }
      agent = new https.Agent({ ...o, keepAlive: true, maxSockets: opts.maxSockets ?? 64 });
      agents.set(key, agent);
    }
    return agent;
  };
  return kc;
}

/** What an agent's connections depend on: the server and every TLS option, hashed (never kept in clear). */
export function agentKey(server: string, o: https.AgentOptions): string {
  const h = createHash("sha256").update(server);
  for (const k of ["ca", "cert", "key", "pfx", "passphrase", "rejectUnauthorized", "servername", "ciphers", "crl", "secureProtocol"] as const) {
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
