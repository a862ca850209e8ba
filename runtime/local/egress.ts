/**
 * Egress for local sandboxes (Hangar is root). Every sandbox has a network namespace of its
 * own with only loopback. When egress is allowed, pasta (user-mode networking, from package
 * passt) runs as the sandbox's slot uid and relays the sandbox's connections from ordinary
 * host sockets; a host firewall chain matched on the slot uids then rejects every host
 * address (so Hangar's ports and every host listener), loopback, private, shared, link-local
 * (cloud metadata) and multicast ranges, and the operator's extra ranges, except DNS to the
 * host's resolvers, which pasta forwards for the sandbox. See docs/security.md#network.
 */
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { inCgroups } from "./bwrap-args.js";

const run = promisify(execFile);

export const EGRESS_CHAIN = "HANGAR-EGRESS";
/** The address sandboxes send DNS queries to; pasta forwards them to the host's first resolver. */
export const SANDBOX_DNS = "169.254.1.1";
/** Never reachable from a sandbox (HANGAR_LOCAL_EGRESS_DENY_CIDRS adds ranges, such as the machine's own LAN). */
export const DEFAULT_DENIED_CIDRS = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "224.0.0.0/4",
  "240.0.0.0/4",
];

/** iptables-restore input (with --noflush) for the shared egress chain: pure, table-tested. */
export function egressRuleset(nameservers: string[], deniedCidrs: string[]): string {
  const lines = ["*filter", `:${EGRESS_CHAIN} - [0:0]`];
  for (const ns of nameservers) {
    for (const proto of ["udp", "tcp"])
      lines.push(`-A ${EGRESS_CHAIN} -p ${proto} -d ${ns}/32 --dport 53 -m comment --comment "hangar: sandbox DNS via pasta" -j ACCEPT`);
  }
  lines.push(`-A ${EGRESS_CHAIN} -m addrtype --dst-type LOCAL -m comment --comment "hangar: no host address" -j REJECT`);
  for (const c of deniedCidrs) lines.push(`-A ${EGRESS_CHAIN} -d ${c} -m comment --comment "hangar: denied range" -j REJECT`);
  lines.push(`-A ${EGRESS_CHAIN} -j ACCEPT`, "COMMIT", "");
  return lines.join("\n");
}

/** The OUTPUT rule that sends every slot uid's traffic through the chain. */
export const jumpRule = (slotBase: number, slots: number) => [
  "OUTPUT",
  "-m",
  "owner",
  "--uid-owner",
  `${slotBase}-${slotBase + slots - 1}`,
  "-m",
  "comment",
  "--comment",
  "hangar: sandbox egress",
  "-j",
  EGRESS_CHAIN,
];

/** IPv4 nameservers of a resolv.conf text. */
export const nameserversOf = (resolvConf: string) =>
  resolvConf
    .split("\n")
    .map((l) => /^\s*nameserver\s+(\d+\.\d+\.\d+\.\d+)\s*$/.exec(l)?.[1])
    .filter((x): x is string => Boolean(x));

export interface EgressTools {
  iptables: string;
  iptablesRestore: string;
  pasta: string;
  setpriv: string;
  unshare: string;
}

/** Installs (or refreshes) the chain and its jump rule. Idempotent. */
export async function installEgressFirewall(t: EgressTools, slotBase: number, slots: number, deniedCidrs: string[]): Promise<string[]> {
  const nameservers = nameserversOf(await readFile("/etc/resolv.conf", "utf8").catch(() => ""));
  const child = spawn(t.iptablesRestore, ["--noflush", "-w"], { stdio: ["pipe", "ignore", "pipe"] });
  let err = "";
  child.stderr?.on("data", (b: Buffer) => (err += b.toString()));
  child.stdin?.end(egressRuleset(nameservers, deniedCidrs));
  const code = await new Promise<number>((r) => child.once("close", (c) => r(c ?? 1)).once("error", () => r(127)));
  if (code !== 0) throw new Error(`iptables-restore failed (${code}): ${err.trim()}`);
  const rule = jumpRule(slotBase, slots);
  const present = await run(t.iptables, ["-w", "-C", ...rule]).then(
    () => true,
    () => false,
  );
  if (!present) await run(t.iptables, ["-w", "-I", ...rule.slice(0, 1), "1", ...rule.slice(1)]);
  return nameservers;
}

/**
 * Starts pasta for the sandbox whose init is `initPid`, as its slot uid, in a private mount
 * namespace where /dev/net/tun is `tunNode` (a 0666 node: the host's may be 0600). Resolves
 * once the sandbox's namespace has its default route.
 */
export async function startPasta(
  t: EgressTools,
  tunNode: string,
  slotUid: number,
  initPid: number,
  procsFiles: string[],
): Promise<ChildProcess> {
  const pasta = [
    t.setpriv,
    "--reuid",
    String(slotUid),
    "--regid",
    String(slotUid),
    "--clear-groups",
    "--",
    t.pasta,
    "-q",
    "-f",
    "--config-net",
    "--no-map-gw",
    "-4",
    "-t",
    "none",
    "-u",
    "none",
    "-T",
    "none",
    "-U",
    "none",
    "--dns-forward",
    SANDBOX_DNS,
    "--userns",
    `/proc/${initPid}/ns/user`,
    "--netns",
    `/proc/${initPid}/ns/net`,
  ];
  // In the sandbox's cgroups: its memory counts against the sandbox, and it dies with the sandbox.
  const argv = inCgroups(procsFiles, [
    t.unshare,
    "--mount",
    "--propagation",
    "private",
    "--",
    "/bin/sh",
    "-c",
    'mount --bind "$1" /dev/net/tun || exit 125; shift; exec "$@"',
    "hangar-tun",
    tunNode,
    ...pasta,
  ]);
  const child = spawn(argv[0] as string, argv.slice(1), { stdio: ["ignore", "ignore", "pipe"], detached: true });
  let err = "";
  child.stderr?.on("data", (b: Buffer) => (err = (err + b.toString()).slice(-2000)));
  child.once("error", () => undefined);
  const until = Date.now() + 5000;
  for (;;) {
    const routes = await readFile(`/proc/${initPid}/net/route`, "utf8").catch(() => "");
    if (/^\S+\t00000000\t/m.test(routes)) return child;
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > until) {
      child.kill("SIGKILL");
      throw new Error(
        `pasta could not set up the sandbox's network${child.exitCode !== null ? ` (exit ${child.exitCode})` : " in 5 s"}: ${err.trim() || "no output"}`,
      );
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}
