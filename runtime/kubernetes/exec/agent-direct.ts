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

/** How long the direct link may take to open (listen reply, TLS, hello) before exec keeps the exec channel. */
const DIRECT_TIMEOUT_MS = 3_000;

/** A pod's direct link, beside its exec channel (agent-link.ts keeps one per pod). */
export interface DirectState {
  /** The direct link, when it opened; it closes with the exec channel. */
  direct?: AgentChannel;
  /** How to dial that link again (the agent keeps listening while the exec channel lives), once it opened. */
  dial?: DirectDial;
  /** A redial of a closed direct link in flight, and when the last one began. */
  redialing?: boolean;
  lastDialMs?: number;
}

type Log = { warn(o: object, m: string): void; debug?(o: object, m: string): void };

/**
 * Opens and keeps the direct links beside the pods' exec channels; on any failure commands keep
 * the exec channel. `current` says whether a link just opened is still wanted (the exec channel it
 * belongs to is still the pod's, open, and Hangar not closing); one that is not is closed.
 */
export function createDirectLinks<S extends DirectState>(o: {
  /** Absent: the exec channel only. */
  direct?: { ports: DirectPorts; podIp(pod: string): string | undefined };
  log: Log;
  reopenAfterMs: number;
  current(pod: string, s: S, ch: AgentChannel): boolean;
}) {
  const links = new WeakSet<AgentChannel>();
  let warned = false;
  const debug = (fields: object, m: string) => (o.log.debug ?? (() => undefined)).call(o.log, fields, m);

  /** Opens the direct link beside an open exec channel. */
  async function open(pod: string, s: S, ch: AgentChannel): Promise<void> {
    const host = o.direct?.podIp(pod);
    if (!o.direct || !host) return;
    try {
      const dial = await listenDirect(ch, { host, ports: o.direct.ports, timeoutMs: DIRECT_TIMEOUT_MS });
      const d = await dialDirectLink({ ...dial, timeoutMs: DIRECT_TIMEOUT_MS });
      if (!o.current(pod, s, ch)) d.close();
      else {
        s.direct = d;
        s.dial = dial;
        s.lastDialMs = Date.now();
        links.add(d);
      }
    } catch (err) {
      // Once per process at warn (Hangar outside the cluster cannot reach pod IPs), then quietly.
      (warned ? debug : (fields: object, m: string) => o.log.warn(fields, m))(
        { pod, host, err: (err as Error).message },
        "the exec agent's direct link did not open; this pod's commands use the exec channel",
      );
      warned = true;
    }
  }

  /**
   * A direct link that closed while its exec channel lives (a network blip, a restarted CNI) is
   * dialled again, at most every reopenAfterMs; commands use the exec channel meanwhile.
   */
  function redial(pod: string, s: S, ch: AgentChannel, dial: DirectDial): void {
    s.redialing = true;
    s.lastDialMs = Date.now();
    dialDirectLink({ ...dial, timeoutMs: DIRECT_TIMEOUT_MS })
      .then(
        (d) => {
          if (!o.current(pod, s, ch)) return d.close();
          s.direct = d;
          links.add(d);
        },
        (err: unknown) =>
          debug(
            { pod, err: (err as Error).message },
            "the exec agent's direct link did not reopen; this pod's commands use the exec channel",
          ),
      )
      .finally(() => (s.redialing = false));
  }

  return {
    open,
    /** The channel a command takes: the open direct link, else the exec channel `ch` (redialling the link when due). */
    pick(pod: string, s: S, ch: AgentChannel): AgentChannel {
      if (s.direct && !s.direct.closed) return s.direct;
      if (s.dial && !s.redialing && o.current(pod, s, ch) && Date.now() - (s.lastDialMs ?? 0) >= o.reopenAfterMs)
        redial(pod, s, ch, s.dial);
      return ch;
    },
    isDirect: (ch: AgentChannel) => links.has(ch),
  };
}
