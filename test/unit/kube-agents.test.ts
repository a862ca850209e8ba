import { HttpMethod, KubeConfig, RequestContext } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { agentKey, poolAgents } from "../../runtime/kubernetes/kube-agents.js";

const config = (server: string, cert: string, proxy?: string) => {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "c", server, skipTLSVerify: false, ...(proxy ? { proxyUrl: proxy } : {}) }],
    users: [{ name: "u", certData: Buffer.from(cert).toString("base64"), keyData: Buffer.from("key").toString("base64") }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  return kc;
};
/** The agent a watch or an exec websocket gets. */
const streamAgent = async (kc: KubeConfig) => {
  const opts: { agent?: unknown } = {};
  await kc.applyToHTTPSOptions(opts as never);
  return opts.agent;
};
/** The agent an API call (create, get, patch, list) gets. */
const agentOf = async (kc: KubeConfig) => {
  const ctx = new RequestContext("https://127.0.0.1:6443/api/v1/pods", HttpMethod.GET);
  await kc.applySecurityAuthentication(ctx);
  return ctx.getAgent();
};

describe("apiserver agents", () => {
  it("client-node alone builds a new agent per request (why this exists)", async () => {
    const kc = config("https://127.0.0.1:6443", "cert-a");
    expect(await agentOf(kc)).not.toBe(await agentOf(kc));
  });
  it("pooled: one keep-alive agent reused while the TLS identity is the same", async () => {
    const kc = poolAgents(config("https://127.0.0.1:6443", "cert-a"));
    const a = await agentOf(kc);
    expect(a).toBe(await agentOf(kc));
    expect((a as { keepAlive?: boolean }).keepAlive).toBe(true);
    expect(poolAgents(kc)).toBe(kc); // twice is once
    expect(await agentOf(kc)).toBe(a);
  });
  it("a changed client certificate gets a new agent", async () => {
    const kc = poolAgents(config("https://127.0.0.1:6443", "cert-a"));
    const a = await agentOf(kc);
    (kc.getCurrentUser() as { certData?: string }).certData = Buffer.from("cert-b").toString("base64");
    expect(await agentOf(kc)).not.toBe(a);
  });
  it("watches and exec websockets share an agent without keep-alive (TLS sessions resumed)", async () => {
    const kc = poolAgents(config("https://127.0.0.1:6443", "cert-a"));
    const s = await streamAgent(kc);
    expect(s).toBe(await streamAgent(kc));
    expect((s as { keepAlive?: boolean }).keepAlive).toBe(false);
    expect(s).not.toBe(await agentOf(kc));
  });
  it("proxied clusters keep the library's own agents", async () => {
    const kc = poolAgents(config("https://127.0.0.1:6443", "cert-a", "http://127.0.0.1:3128"));
    expect(await agentOf(kc)).not.toBe(await agentOf(kc));
    expect(await streamAgent(kc)).not.toBe(await streamAgent(kc));
  });
  it("the key covers the server and every TLS option", () => {
    const base = agentKey("https://a", { ca: "x", cert: "c", key: "k" });
    expect(agentKey("https://a", { ca: "x", cert: "c", key: "k" })).toBe(base);
    expect(agentKey("https://b", { ca: "x", cert: "c", key: "k" })).not.toBe(base);
    expect(agentKey("https://a", { ca: "y", cert: "c", key: "k" })).not.toBe(base);
    expect(agentKey("https://a", { ca: "x", cert: "c", key: "k2" })).not.toBe(base);
    expect(agentKey("https://a", { ca: "x", cert: "c", key: "k", rejectUnauthorized: false })).not.toBe(base);
    expect(agentKey("https://a", { ca: "x", cert: "ck" })).not.toBe(agentKey("https://a", { ca: "x", cert: "c", key: "k" }));
  });
});
