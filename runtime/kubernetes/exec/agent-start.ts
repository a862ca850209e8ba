/**
 * Puts hangar-agent into a sandbox pod and opens one exec channel to it (ADR 0008). In pods with
 * hangar-netinit the init container has copied it from Hangar's image into a read-only mount,
 * AGENT_MOUNT_PATH/hangar-agent-<hash> (ADR 0023); elsewhere (or when that copy is another
 * version's) it is copied once per pod through exec stdin to /tmp/.hangar-agent-<hash> (the hash
 * of the binary, so two Hangar versions never share a file); each Hangar process then opens its
 * own channel with a single exec.
 */
import * as k8s from "@kubernetes/client-node";
import { createHash } from "node:crypto";
import { PassThrough, Writable } from "node:stream";
import { AGENT_MOUNT_PATH } from "../../../core/volumes.js";
import { NO_PROGRAM } from "../pod/no-program.js";
import { type AgentChannel, createAgentChannel } from "./agent-channel.js";

const NOT_INSTALLED = 120;
const HELLO_TIMEOUT_MS = 10_000;

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
export async function connectAgent(
  kc: k8s.KubeConfig,
  namespace: string,
  pod: string,
  bin: AgentBinary,
  shell = true,
): Promise<AgentChannel> {
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
