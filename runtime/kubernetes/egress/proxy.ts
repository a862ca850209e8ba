/**
 * Hostname egress grants (EgressRule.https_hostname): an HTTP CONNECT proxy run by Hangar. A
 * sandbox with hostname grants may reach only this proxy (netinit's rules name its address) and
 * gets HTTPS_PROXY pointing at it. The proxy knows the sandbox by the connection's source address
 * (its pod IP, from the pod watch), allows CONNECT to a granted name on port 443 only, resolves
 * the name itself and refuses an address in the never or private ranges (no DNS rebinding into
 * the cluster), then splices bytes. Decisions are pure functions (table-tested); ADR 0012.
 */
import { lookup } from "node:dns/promises";
import net from "node:net";
import os from "node:os";
import { contains, judgedAddresses, parseCidr } from "../../../core/cidr.js";
import { hostGranted } from "../../../core/hostname.js";
import { HOSTS_ANNOTATION } from "../pod/keys.js";
export { HOSTS_ANNOTATION };

export interface ProxyPolicy {
  never: string[];
  private: string[];
  grantable: string[];
}

/**
 * Whether the proxy may connect to a resolved address: never the never ranges, private ones only where
 * grantable. An IPv6 form carrying an IPv4 address (mapped, NAT64, 6to4, Teredo, ...) is judged as
 * itself and as the IPv4 address inside, and allowed only when both are (core/cidr.ts judgedAddresses).
 */
export function addressAllowed(address: string, p: ProxyPolicy): boolean {
  const judged = judgedAddresses(address);
  if (!judged.length) return false;
  const ranges = (list: string[]) => list.map((c) => parseCidr(c)).filter((x) => x !== undefined);
  const never = ranges(p.never);
  const priv = ranges(p.private);
  const grantable = ranges(p.grantable);
  return judged.every((a) => {
    const inAny = (list: typeof never) => list.some((x) => contains(x, a));
    return !inAny(never) && (!inAny(priv) || inAny(grantable));
  });
}

/** The CONNECT request line: `CONNECT host:port HTTP/1.x`; undefined when it is anything else. */
export function parseConnect(head: string): { host: string; port: number } | undefined {
  const m = /^CONNECT ([^\s:]+|\[[0-9a-fA-F:]+\]):(\d{1,5}) HTTP\/1\.[01]\r\n/.exec(head);
  if (!m?.[1] || !m[2]) return undefined;
  return { host: m[1].replace(/^\[|\]$/g, ""), port: Number(m[2]) };
}

export type Verdict = { ok: true; host: string } | { ok: false; status: number; why: string };

/** What to do with one CONNECT: pure, from the sandbox's grants (undefined: not a sandbox we know). */
export function decide(target: { host: string; port: number } | undefined, grants: string[] | undefined): Verdict {
  if (!grants) return { ok: false, status: 403, why: "not a sandbox with hostname grants" };
  if (!target) return { ok: false, status: 405, why: "only CONNECT host:443 is served" };
  if (target.port !== 443) return { ok: false, status: 403, why: `port ${target.port}: hostname grants are for HTTPS (443) only` };
  if (net.isIP(target.host)) return { ok: false, status: 403, why: "an address, not a granted name" };
  if (!hostGranted(target.host, grants)) return { ok: false, status: 403, why: `${target.host} is not granted to this sandbox` };
  return { ok: true, host: target.host };
}

export interface EgressProxyOptions {
  listen: { host: string; port: number };
  /** Read at each connection: the never list follows the nodes as they come and go. */
  policy: () => ProxyPolicy;
  /** The hostname grants of the sandbox whose pod has this IP, or undefined (a pool pod's are read fresh: ADR 0042). */
  grantsOf: (podIp: string) => string[] | undefined | Promise<string[] | undefined>;
  /** Names resolved without DNS (operator pins, offline tests); the rest through the system resolver. */
  pinned: Record<string, string>;
  /** Where upstream connections go (443: hostname grants are HTTPS); tests use another. */
  upstreamPort?: number;
  log: { warn(o: object, m: string): void; info(o: object, m: string): void };
}

const MAX_HEAD = 8192;

/** This process's own addresses (its pod's, or the host's): the proxy never dials Hangar itself. */
export const ownAddresses = (): string[] =>
  Object.values(os.networkInterfaces()).flatMap((as) => (as ?? []).map((a) => a.address.split("%")[0] ?? a.address));

/**
 * The addresses of the apiserver Hangar talks to (the kubeconfig's server: in a pod, the kubernetes
 * Service), for the proxy's never list; a name is resolved once. Empty when it cannot be told.
 */
export async function apiserverAddresses(kc: { getCurrentCluster(): { server: string } | null }): Promise<string[]> {
  let host: string;
  try {
    host = new URL(kc.getCurrentCluster()?.server ?? "").hostname.replace(/^\[|\]$/g, "");
  } catch {
    return [];
  }
  if (net.isIP(host)) return [host];
  return lookup(host, { all: true }).then(
    (as) => as.map((a) => a.address),
    () => [],
  );
}

export async function startEgressProxy(o: EgressProxyOptions): Promise<{ port: number; close(): Promise<void> }> {
  const resolve = async (host: string): Promise<string[]> => {
    const pin = o.pinned[host];
    if (pin) return [pin];
    return (await lookup(host, { all: true })).map((a) => a.address);
  };
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    client.setTimeout(30_000, () => client.destroy());
    client.on("error", () => undefined);
    /** Answers and closes; reading on, so the caller's end is seen and the socket goes away. */
    const refuse = (text: string) => {
      client.end(text);
      client.resume();
    };
    let head = "";
    const onData = (b: Buffer) => {
      head += b.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        if (head.length > MAX_HEAD) {
          client.off("data", onData);
          refuse("HTTP/1.1 431 Request Header Fields Too Large\r\n\r\n");
        }
        return;
      }
      client.off("data", onData);
      client.pause();
      const rest = Buffer.from(head.slice(end + 4), "latin1");
      const source = (client.remoteAddress ?? "").replace(/^::ffff:/, "");
      void Promise.resolve(o.grantsOf(source))
        .catch((e: Error) => {
          o.log.warn({ source, err: e.message }, "egress proxy could not read a sandbox's grants");
          return undefined;
        })
        .then((grants) => serve(source, decide(parseConnect(head), grants), rest));
    };
    const serve = (source: string, v: Verdict, rest: Buffer) => tunnel(o, resolve, client, refuse, source, v, rest);
    client.on("data", onData);
  });
  await new Promise<void>((res, rej) => {
    server.once("error", rej);
    server.listen(o.listen.port, o.listen.host, () => res());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((res) => {
        server.close(() => res());
        for (const c of open) c.destroy();
      }),
  };
}

/** Answers one judged CONNECT: refused with its reason, or resolved, checked and spliced to the upstream. */
function tunnel(
  o: EgressProxyOptions,
  resolve: (host: string) => Promise<string[]>,
  client: net.Socket,
  refuse: (text: string) => void,
  source: string,
  v: Verdict,
  rest: Buffer,
): void {
  if (!v.ok) {
    o.log.info({ source, status: v.status, why: v.why }, "egress proxy refused a connection");
    refuse(`HTTP/1.1 ${v.status} Forbidden\r\nContent-Type: text/plain\r\n\r\nhangar egress: ${v.why}\n`);
    return;
  }
  const policy = o.policy();
  void resolve(v.host).then(
    (addrs) => {
      const address = addrs.find((a) => addressAllowed(a, policy));
      if (!address) {
        o.log.info({ source, host: v.host, addrs }, "egress proxy refused a name resolving into a denied range");
        refuse(
          `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\n\r\nhangar egress: ${v.host} resolves only to addresses sandboxes never reach\n`,
        );
        return;
      }
      const upstream = net.connect({ host: address, port: o.upstreamPort ?? 443 }, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (rest.length) upstream.write(rest);
        client.setTimeout(0);
        client.pipe(upstream).pipe(client);
        client.resume();
      });
      upstream.on("error", () => refuse("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
      client.on("close", () => upstream.destroy());
    },
    () => refuse(`HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\n\r\nhangar egress: ${v.host} does not resolve\n`),
  );
}
