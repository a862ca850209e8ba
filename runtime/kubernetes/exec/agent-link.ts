/**
 * Keeps one channel per pod to its hangar-agent (ADR 0008), opened through agent-start.ts, with
 * its direct link beside it when it opens (agent-direct.ts, ADR 0022). Which pods have a channel,
 * and when a closed one may be reopened, is kept here; callers ask `channelFor` and use plain exec
 * whenever it answers nothing.
 */
import type * as k8s from "@kubernetes/client-node";
import type { AgentChannel, CellReset } from "./agent-channel.js";
import type { CgroupWant } from "../pool/caps.js";
import { createDirectLinks, type DirectPorts, type DirectState } from "./agent-direct.js";
import { type AgentBinary, AgentMissing, connectAgent, installArgv } from "./agent-start.js";

export { type AgentBinary, agentBinary, AgentMissing, installArgv, startArgv } from "./agent-start.js";

/** A channel that closed is reopened no sooner than this after the last attempt (it may be the pod ending). */
const REOPEN_AFTER_MS = 2_000;

export interface AgentLinks {
  /**
   * The open channel to this pod's agent, if there is one (its direct link when open, ADR 0022);
   * starts (re)opening it in the background when there is not.
   */
  channelFor(pod: string): AgentChannel | undefined;
  /** Whether this channel is a direct link (ADR 0022) rather than the exec channel. */
  isDirect(ch: AgentChannel): boolean;
  /**
   * Installs the agent if needed and opens a channel; resolves false when this pod cannot run it.
   * `shell` false (the image has no /bin/sh): only netinit's copy is started, directly; its
   * commands are then killable through the agent (ADR 0032).
   */
  open(pod: string, shell?: boolean): Promise<boolean>;
  /** A reusable pool pod (ADR 0040): a fresh cell through its exec channel (opened first when needed). */
  reset(pod: string, volumes?: string): Promise<CellReset>;
  /** A sized pool's claim (ADR 0043): once the pod's cgroup shows these limits, through its exec channel. */
  awaitLimits(pod: string, want: CgroupWant): Promise<{ waitedMs: number }>;
  /**
   * Closes this pod's direct link, if open (its exec channel stays): a `+egress` pod's rules are
   * about to be replaced and its connection tracking flushed (ADR 0044), after which the link's
   * packets would be judged as new; the next command redials it.
   */
  closeDirect(pod: string): void;
  /** Closes this pod's channel (the sandbox ended). */
  drop(pod: string): void;
  close(): void;
  /** How this process's agent starts went since start (metrics). */
  stats(): AgentStats;
}

/**
 * Agent starts by how the binary got into the pod: `found` a copy already there (netinit's from
 * Hangar's image, ADR 0023, or an earlier install), `installed` streamed in through exec stdin first
 * (the pod had none of this build: another version's netinit image, a pod without netinit, the
 * copy turned off), `unusable` neither worked (the pod's commands use plain exec).
 */
export interface AgentStats {
  found: number;
  installed: number;
  unusable: number;
}

interface Entry extends DirectState {
  ch?: AgentChannel;
  opening?: Promise<boolean>;
  lastTryMs: number;
  /** The pod cannot run the agent (no writable /tmp, noexec, no sh): plain exec only. */
  unusable?: string;
  /** The image has no /bin/sh: only netinit's copy, started directly. */
  noShell?: boolean;
}

export interface AgentLinksOptions {
  kc: k8s.KubeConfig;
  namespace: string;
  binary: AgentBinary;
  /** Runs a command to completion with `input` on stdin; resolves its exit code. */
  run(pod: string, argv: string[], input?: Buffer): Promise<number>;
  /** How a pod's exec channel is opened; default an exec through the apiserver (unit tests run the agent locally). */
  connect?: (pod: string, shell: boolean) => Promise<AgentChannel>;
  log: { warn(o: object, m: string): void; debug?(o: object, m: string): void };
  /** Open direct links (ADR 0022) on these ports to the pod's IP; absent: the exec channel only. */
  direct?: { ports: DirectPorts; podIp(pod: string): string | undefined };
}

type Connect = (pod: string, shell: boolean) => Promise<AgentChannel>;

/**
 * Connects to the pod's agent, installing it first through exec stdin when the pod has none of
 * this build; or why this pod cannot run it (with the installer's exit code when that failed).
 */
async function connectOrInstall(
  pod: string,
  e: Entry,
  o: AgentLinksOptions,
  connectTo: Connect,
): Promise<{ ch: AgentChannel; how: "found" | "installed" } | { unusable: string; installExit?: number }> {
  try {
    return { ch: await connectTo(pod, !e.noShell), how: "found" };
  } catch (err) {
    if (!(err instanceof AgentMissing)) throw err;
  }
  if (e.noShell) return { unusable: "the image has no /bin/sh and the pod no copy of the exec agent from netinit" };
  const code = await o.run(pod, installArgv(o.binary.path), o.binary.bytes);
  if (code !== 0) return { unusable: `installing the exec agent exited ${code}`, installExit: code };
  return { ch: await connectTo(pod, true), how: "installed" };
}

/** A pod's exec channel, opened when needed: the only one the agent takes control frames on (R, Q). */
async function controlChannel(pod: string, open: (pod: string) => Promise<boolean>, entries: Map<string, Entry>): Promise<AgentChannel> {
  if (!(await open(pod))) throw new Error(`no exec channel to pod ${pod}: ${entries.get(pod)?.unusable ?? "it did not open"}`);
  const ch = entries.get(pod)?.ch;
  if (!ch || ch.closed) throw new Error(`the exec channel to pod ${pod} closed`);
  return ch;
}

/** Closes an entry's direct link (its exec channel stays; the next command redials the link). */
function closeDirect(e: Entry | undefined): void {
  e?.direct?.close();
  if (e) e.direct = undefined;
}

export function createAgentLinks(o: AgentLinksOptions): AgentLinks {
  const connectTo: Connect = o.connect ?? ((pod, shell) => connectAgent(o.kc, o.namespace, pod, o.binary, shell));
  const entries = new Map<string, Entry>();
  let closing = false;
  const stats: AgentStats = { found: 0, installed: 0, unusable: 0 };
  const direct = createDirectLinks<Entry>({
    direct: o.direct,
    log: o.log,
    reopenAfterMs: REOPEN_AFTER_MS,
    current: (pod, e, ch) => !closing && entries.get(pod) === e && e.ch === ch && !ch.closed,
  });

  async function attempt(pod: string, e: Entry): Promise<boolean> {
    e.lastTryMs = Date.now();
    try {
      const got = await connectOrInstall(pod, e, o, connectTo);
      if ("unusable" in got) {
        e.unusable = got.unusable;
        stats.unusable++;
        if (got.installExit !== undefined)
          o.log.warn({ pod, code: got.installExit }, "the exec agent cannot be installed in this pod; its commands use plain exec");
        return false;
      }
      const { ch, how } = got;
      stats[how]++;
      if (closing || entries.get(pod) !== e) {
        ch.close();
        return false;
      }
      e.ch = ch;
      e.direct = undefined;
      e.dial = undefined;
      await direct.open(pod, e, ch);
      return true;
    } catch (err) {
      if (err instanceof AgentMissing) {
        e.unusable = "the installed exec agent cannot be started";
        stats.unusable++;
      } else o.log.warn({ pod, err: (err as Error).message }, "could not open the exec agent channel; plain exec until it reopens");
      return false;
    } finally {
      e.opening = undefined;
    }
  }

  function open(pod: string, shell = true): Promise<boolean> {
    let e = entries.get(pod);
    if (!e) entries.set(pod, (e = { lastTryMs: 0, ...(shell ? {} : { noShell: true }) }));
    if (e.unusable) return Promise.resolve(false);
    if (e.ch && !e.ch.closed) return Promise.resolve(true);
    e.opening ??= attempt(pod, e);
    return e.opening;
  }

  return {
    channelFor(pod) {
      const e = entries.get(pod);
      if (e?.ch && !e.ch.closed) return direct.pick(pod, e, e.ch);
      if (closing || e?.unusable || e?.opening) return undefined;
      if (!e || Date.now() - e.lastTryMs >= REOPEN_AFTER_MS) void open(pod);
      return undefined;
    },
    isDirect: (ch) => direct.isDirect(ch),
    open,
    reset: async (pod, volumes) => (await controlChannel(pod, open, entries)).reset(volumes),
    awaitLimits: async (pod, want) => (await controlChannel(pod, open, entries)).awaitLimits(want),
    stats: () => ({ ...stats }),
    closeDirect: (pod) => closeDirect(entries.get(pod)),
    drop(pod) {
      closeDirect(entries.get(pod));
      entries.get(pod)?.ch?.close();
      entries.delete(pod);
    },
    close() {
      closing = true;
      for (const e of entries.values()) {
        e.direct?.close();
        e.ch?.close();
      }
      entries.clear();
    },
  };
}
