/**
 * Puts hangar-agent into a sandbox pod and keeps one exec websocket per pod open to it
 * (ADR 0008). In pods with hangar-netinit the init container has copied it from Hangar's image
 * into a read-only mount, AGENT_MOUNT_PATH/hangar-agent-<hash> (ADR 0023); elsewhere (or when that
 * copy is another version's) it is copied once per pod through exec stdin to
 * /tmp/.hangar-agent-<hash> (the hash of the binary, so two Hangar versions never share a
 * file); each Hangar process then opens its own channel with a single exec. Which pods have
 * a channel, and when a closed one may be reopened, is kept here; callers ask `channelFor`
 * and use plain exec whenever it answers nothing.
 */
import * as k8s from "@kubernetes/client-node";
import { createHash } from "node:crypto";
import { PassThrough, Writable } from "node:stream";
import { type AgentChannel, createAgentChannel } from "./agent-channel.js";
import { dialDirectLink, type DirectDial, type DirectPorts, listenDirect } from "./agent-direct.js";
import { AGENT_MOUNT_PATH } from "../../../core/volumes.js";
import { NO_PROGRAM } from "../no-program.js";

const NOT_INSTALLED = 120;
const HELLO_TIMEOUT_MS = 10_000;
/** A channel that closed is reopened no sooner than this after the last attempt (it may be the pod ending). */
const REOPEN_AFTER_MS = 2_000;
/** How long the direct link may take to open (listen reply, TLS, hello) before exec keeps the exec channel. */
const DIRECT_TIMEOUT_MS = 3_000;

export interface AgentBinary {
  bytes: Buffer;
  /** Where it is installed through exec stdin when the pod has no copy from the image. */
  path: string;
  /** Where hangar-netinit's copy of this very binary is, in pods that have one. */
  mounted: string;
}

export function agentBinary(bytes: Buffer): AgentBinary {
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  return { bytes, path: `/tmp/.hangar-agent-${hash}`, mounted: `${AGENT_MOUNT_PATH}/hangar-agent-${hash}` };
}

/** Argv that starts the first of these copies of the agent that exists, or exits NOT_INSTALLED when this pod has none yet. */
export const startArgv = (...paths: string[]) => [
  "/bin/sh",
  "-c",
  `for p in "$@"; do [ -x "$p" ] && exec "$p"; done; exit ${NOT_INSTALLED}`,
  "hangar-agent",
  ...paths,
];
/** Argv that installs the agent from stdin (atomically: a half-written file is never run). */
export const installArgv = (path: string) => [
  "/bin/sh",
  "-c",
  'umask 077; t="$0.$$"; cat > "$t" && chmod 700 "$t" && mv -f "$t" "$0"',
  path,
];

/** The pod has no agent of this build (the start script exited NOT_INSTALLED). */
export class AgentMissing extends Error {}

/** One exec running the agent; resolves with an open channel, or rejects (AgentMissing when not installed). */
async function connect(kc: k8s.KubeConfig, namespace: string, pod: string, bin: AgentBinary, shell = true): Promise<AgentChannel> {
  const stdin = new PassThrough();
  const link: { ws?: { close(): void } } = {};
  const ch = createAgentChannel({ send: (b) => stdin.write(b), close: () => link.ws?.close() });
  let status: k8s.V1Status | undefined;
  const stdout = new Writable({
    write: (c: Buffer, _e, cb) => {
      ch.receive(c);
      cb();
    },
  });
  let stderr = "";
  const errSink = new Writable({
    write: (c: Buffer, _e, cb) => {
      if (stderr.length < 2000) stderr += c.toString();
      cb();
    },
  });
  // Without a shell only netinit's copy can run, started as it is (ADR 0032): nothing can install one.
  const ws = await new k8s.Exec(kc).exec(
    namespace,
    pod,
    "main",
    shell ? startArgv(bin.mounted, bin.path) : [bin.mounted],
    stdout,
    errSink,
    stdin,
    false,
    (s) => (status = s),
  );
  link.ws = ws as unknown as { close(): void };
  ws.on("error", () => undefined);
  ws.on("close", () => {
    const code = status?.details?.causes?.find((c) => c.reason === "ExitCode")?.message;
    ch.end(
      code === String(NOT_INSTALLED)
        ? "not installed"
        : `the agent's exec ended (${status?.message ?? status?.status ?? "websocket closed"}${stderr ? `: ${stderr.trim().slice(0, 200)}` : ""})`,
    );
  });
  const timer = setTimeout(() => ch.close(), HELLO_TIMEOUT_MS);
  try {
    await ch.ready;
  } catch (e) {
    if (/not installed/.test((e as Error).message) || (!shell && NO_PROGRAM.test((e as Error).message ?? ""))) throw new AgentMissing();
    throw e;
  } finally {
    clearTimeout(timer);
  }
  return ch;
}

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

interface Entry {
  ch?: AgentChannel;
  /** The direct link (ADR 0022), when it opened; it closes with `ch`. */
  direct?: AgentChannel;
  /** How to dial that link again (the agent keeps listening while `ch` lives), once it opened. */
  dial?: DirectDial;
  /** A redial of a closed direct link in flight, and when the last one began. */
  redialing?: boolean;
  lastDialMs?: number;
  opening?: Promise<boolean>;
  lastTryMs: number;
  /** The pod cannot run the agent (no writable /tmp, noexec, no sh): plain exec only. */
  unusable?: string;
  /** The image has no /bin/sh: only netinit's copy, started directly. */
  noShell?: boolean;
}

export function createAgentLinks(o: {
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
}): AgentLinks {
  const connectTo = o.connect ?? ((pod: string, shell: boolean) => connect(o.kc, o.namespace, pod, o.binary, shell));
  const entries = new Map<string, Entry>();
  const directLinks = new WeakSet<AgentChannel>();
  let closing = false;
  let directWarned = false;
  const stats: AgentStats = { found: 0, installed: 0, unusable: 0 };

  /** Opens the direct link beside an open exec channel; on any failure commands keep the exec channel. */
  async function openDirect(pod: string, e: Entry, ch: AgentChannel): Promise<void> {
    const host = o.direct?.podIp(pod);
    if (!o.direct || !host) return;
    try {
      const dial = await listenDirect(ch, { host, ports: o.direct.ports, timeoutMs: DIRECT_TIMEOUT_MS });
      const d = await dialDirectLink({ ...dial, timeoutMs: DIRECT_TIMEOUT_MS });
      if (closing || entries.get(pod) !== e || e.ch !== ch || ch.closed) d.close();
      else {
        e.direct = d;
        e.dial = dial;
        e.lastDialMs = Date.now();
        directLinks.add(d);
      }
    } catch (err) {
      // Once per process at warn (Hangar outside the cluster cannot reach pod IPs), then quietly.
      (directWarned ? (o.log.debug ?? (() => undefined)) : o.log.warn).call(
        o.log,
        { pod, host, err: (err as Error).message },
        "the exec agent's direct link did not open; this pod's commands use the exec channel",
      );
      directWarned = true;
    }
  }

  /**
   * A direct link that closed while its exec channel lives (a network blip, a restarted CNI) is
   * dialled again, at most every REOPEN_AFTER_MS; commands use the exec channel meanwhile.
   */
  function redial(pod: string, e: Entry, ch: AgentChannel, dial: DirectDial): void {
    e.redialing = true;
    e.lastDialMs = Date.now();
    dialDirectLink({ ...dial, timeoutMs: DIRECT_TIMEOUT_MS })
      .then(
        (d) => {
          if (closing || entries.get(pod) !== e || e.ch !== ch || ch.closed) return d.close();
          e.direct = d;
          directLinks.add(d);
        },
        (err: unknown) =>
          (o.log.debug ?? (() => undefined)).call(
            o.log,
            { pod, err: (err as Error).message },
            "the exec agent's direct link did not reopen; this pod's commands use the exec channel",
          ),
      )
      .finally(() => (e.redialing = false));
  }

  async function attempt(pod: string, e: Entry): Promise<boolean> {
    e.lastTryMs = Date.now();
    try {
      let ch: AgentChannel;
      let how: "found" | "installed" = "found";
      try {
        ch = await connectTo(pod, !e.noShell);
      } catch (err) {
        if (!(err instanceof AgentMissing)) throw err;
        if (e.noShell) {
          e.unusable = "the image has no /bin/sh and the pod no copy of the exec agent from netinit";
          stats.unusable++;
          return false;
        }
        const code = await o.run(pod, installArgv(o.binary.path), o.binary.bytes);
        if (code !== 0) {
          e.unusable = `installing the exec agent exited ${code}`;
          stats.unusable++;
          o.log.warn({ pod, code }, "the exec agent cannot be installed in this pod; its commands use plain exec");
          return false;
        }
        how = "installed";
        ch = await connectTo(pod, true);
      }
      stats[how]++;
      if (closing || entries.get(pod) !== e) {
        ch.close();
        return false;
      }
      e.ch = ch;
      e.direct = undefined;
      e.dial = undefined;
      await openDirect(pod, e, ch);
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
      if (e?.ch && !e.ch.closed) {
        if (e.direct && !e.direct.closed) return e.direct;
        if (e.dial && !e.redialing && !closing && Date.now() - (e.lastDialMs ?? 0) >= REOPEN_AFTER_MS) redial(pod, e, e.ch, e.dial);
        return e.ch;
      }
      if (closing || e?.unusable || e?.opening) return undefined;
      if (!e || Date.now() - e.lastTryMs >= REOPEN_AFTER_MS) void open(pod);
      return undefined;
    },
    isDirect: (ch) => directLinks.has(ch),
    open,
    stats: () => ({ ...stats }),
    drop(pod) {
      entries.get(pod)?.direct?.close();
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
