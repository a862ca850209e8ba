/**
 * The direct link to a pod's hangar-agent (ADR 0022): the same command frames as the exec
 * channel, over TLS from Hangar straight to the pod's IP, so that output does not cross the
 * kube-apiserver, the kubelet and containerd. The exec channel (already authenticated and
 * encrypted by the apiserver) carries the secrets: Hangar sends a fresh 32-byte token; the agent
 * answers with the port it listens on and a certificate whose key exists only in its memory.
 * Hangar trusts that certificate alone (no other CA) and presents the token first thing; the agent
 * closes any connection that does not within 5 s. The link lives no longer than the exec channel
 * (the agent exits with it).
 */
import { randomBytes } from "node:crypto";
import tls from "node:tls";
import { type AgentChannel, createAgentChannel } from "./agent-channel.js";

/** The name in the agent's certificate (agent/direct.go). */
const AGENT_NAME = "hangar-agent";

export interface DirectPorts {
  /** First port of the range the agent may listen on (each Hangar process's agent takes one). */
  first: number;
  count: number;
}

const within = <T>(p: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.();
      reject(new Error(`no ${what} within ${ms} ms`));
    }, ms);
    p.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e as Error)),
    );
  });

/** What dials an agent's direct link: where it listens, the certificate it holds, the token it wants. */
export interface DirectDial {
  host: string;
  port: number;
  cert: string;
  token: Buffer;
}

/** Asks the agent behind `control` to listen (once per agent: it keeps listening while it runs); resolves with how to dial it. */
export async function listenDirect(control: AgentChannel, o: { host: string; ports: DirectPorts; timeoutMs: number }): Promise<DirectDial> {
  const token = randomBytes(32);
  const { port, cert } = await within(control.listen(token, o.ports.first, o.ports.count), o.timeoutMs, "listen reply from the agent");
  if (!Number.isInteger(port) || port < o.ports.first || port >= o.ports.first + o.ports.count)
    throw new Error(`the agent listens on port ${port}, outside ${o.ports.first}-${o.ports.first + o.ports.count - 1}`);
  return { host: o.host, port, cert, token };
}

/** Asks the agent behind `control` to listen, then connects to it at `host`; resolves with the open link. */
export async function openDirectLink(
  control: AgentChannel,
  o: { host: string; ports: DirectPorts; timeoutMs: number },
): Promise<AgentChannel> {
  return dialDirectLink({ ...(await listenDirect(control, o)), timeoutMs: o.timeoutMs });
}

/** Connects to an agent's direct link: TLS trusting only `cert`, then the token, then the agent's hello. */
export function dialDirectLink(o: { host: string; port: number; cert: string; token: Buffer; timeoutMs: number }): Promise<AgentChannel> {
  const sock = tls.connect({ host: o.host, port: o.port, ca: [o.cert], servername: AGENT_NAME, minVersion: "TLSv1.3" });
  sock.setNoDelay(true);
  const ch = createAgentChannel({ send: (b) => sock.write(b), close: () => sock.destroy() });
  sock.once("secureConnect", () => sock.write(o.token));
  sock.on("data", (b: Buffer) => ch.receive(b));
  sock.on("error", (e) => ch.end(`direct link: ${e.message}`));
  sock.on("close", () => ch.end("the direct link closed"));
  return within(ch.ready, o.timeoutMs, "hello on the direct link", () => ch.close()).then(
    () => ch,
    (e: unknown) => {
      ch.close();
      throw e;
    },
  );
}
