/**
 * How a command reaches a sandbox pod: the pod's hangar-agent channel when it has one (ADR 0008),
 * else one exec websocket per command (plain.ts) under a small sh kill wrapper; and what an
 * exit by signal means when the pod went away meanwhile (the pod failed, not the command).
 */
import * as k8s from "@kubernetes/client-node";
import { errors } from "../../../core/errors.js";
import type { ExecOptions, ExecProcess, ExecStats } from "../../types.js";
import type { createAgentLinks } from "./agent-link.js";
import { kubeExec } from "./plain.js";
import { claimWrap } from "./claim-wrap.js";
import { NO_PROGRAM } from "../pod/no-program.js";
import { endedBySignal } from "../../../core/exit-code.js";

/** What the exec path needs to know of a sandbox. */
export interface ExecTarget {
  id: string;
  pod: string;
  /** The image has /bin/sh (the probe said so): env, the kill wrapper and the agent need it. */
  shell: boolean;
  exited: boolean;
  /** Env applied to every command: the spec's env when the pod was claimed from a pool. */
  baseEnv?: Record<string, string>;
  /** A working directory applied at claim (the pod was made without it): every command starts there. */
  workingDir?: string;
  /** The sandbox's secrets, written by the claim into this file (claim-wrap.ts): every command gets them. */
  secretEnvFile?: string;
}

export function createExecPath(o: {
  kubeConfig: k8s.KubeConfig;
  namespace: string;
  agents?: ReturnType<typeof createAgentLinks>;
  /**
   * The last resort for a command nothing in the pod can kill (no /bin/sh for the kill wrapper, not
   * on the exec agent): ends the sandbox (ADR 0032). Absent, such a kill fails (no_kill_path).
   */
  lastResort?: (t: ExecTarget, why: string) => Promise<void>;
  /**
   * A reusable pool pod's agent path (ADR 0040), undefined for other pods: a plain exec into the
   * main container then runs `hangar-agent run`, which puts the command into the sandbox's cell
   * (nothing of the sandbox's runs beside it, where the supervisor's capabilities are).
   */
  cellAgent?: (pod: string) => string | undefined;
}) {
  const core = o.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const stats: ExecStats = { direct: 0, agent: 0, plain: 0 };

  /** Runs a command to completion (stdin from `input`), discarding its output; returns its exit code. */
  const inCell = (pod: string, argv: string[], container?: string) => cellArgv(o.cellAgent, pod, argv, container);
  const run = (pod: string, argv: string[], input?: Buffer, container?: string) =>
    runToEnd(o.kubeConfig, o.namespace, pod, inCell(pod, argv, container), input, container);

  const probe = (pod: string, container?: string, stop?: () => boolean) => probeShell(run, pod, container, stop);
  const probeOnce = (pod: string) => probeShellOnce(run, pod);

  /** Who a plain exec's command belongs to, and its last-resort kill (plain.ts). */
  const killing = (t: ExecTarget) => ({ sandboxId: t.id, ...(o.lastResort ? { lastResort: (why: string) => o.lastResort!(t, why) } : {}) });

  /** Whether each sidecar's image has a shell, learned on its first command. */
  const sidecarShells = new Map<string, Promise<boolean>>();

  async function exec(t: ExecTarget, opts: ExecOptions): Promise<ExecProcess> {
    if (opts.sidecar) return execSidecar(t, opts.sidecar, opts);
    if (Object.keys({ ...t.baseEnv, ...opts.env }).length && !t.shell)
      throw errors.invalidField("exec.env", "the image has no /bin/sh, which per-command environment variables need");
    if (!t.shell && /^(\/bin\/|\/usr\/bin\/)?(sh|bash)$/.test(opts.argv[0] ?? "")) throw errors.noShell(`"${opts.argv[0]}"`);
    // Bulk data waits for the agent (a new pod's opens as it starts): through the apiserver each
    // MiB costs the node about twice the CPU of the direct link (ADR 0022).
    if (opts.bulk && !opts.tty && t.shell && o.agents) await o.agents.open(t.pod);
    // A shell-less pod has a channel only when netinit's copy of the agent could be started
    // directly: its commands then ride it, killable by the agent (ADR 0032).
    const { argv, env } = claimApplied(t, opts.argv, { ...t.baseEnv, ...opts.env });
    let p = !opts.tty ? viaAgent(t.pod, argv, env) : undefined;
    if (!p) {
      p = await kubeExec({
        kc: o.kubeConfig,
        namespace: o.namespace,
        pod: t.pod,
        argv: inCell(t.pod, withEnv(argv, env)),
        tty: opts.tty,
        shell: t.shell,
        noInput: opts.noInput,
        ...killing(t),
      });
      stats.plain++;
    }
    const podGone = () =>
      core.readNamespacedPod({ name: t.pod, namespace: o.namespace }).then(
        (pod) => !!pod.metadata?.deletionTimestamp,
        () => true,
      );
    return { ...p, exited: blamePodOnSignal(p.exited, () => t.exited, podGone) };
  }

  /** A command in a sidecar: plain exec into that container (the exec agent lives in the primary only). */
  async function execSidecar(t: ExecTarget, container: string, opts: ExecOptions): Promise<ExecProcess> {
    const key = `${t.pod}/${container}`;
    let shell = sidecarShells.get(key);
    if (!shell) sidecarShells.set(key, (shell = probe(t.pod, container)));
    const hasShell = await shell.catch((e: unknown) => {
      sidecarShells.delete(key);
      throw e;
    });
    const env = opts.env ?? {};
    if (Object.keys(env).length && !hasShell)
      throw errors.invalidField("exec.env", `container ${container} has no /bin/sh, which per-command environment variables need`);
    return kubeExec({
      kc: o.kubeConfig,
      namespace: o.namespace,
      pod: t.pod,
      container,
      argv: withEnv(opts.argv, env),
      tty: opts.tty,
      shell: hasShell,
      noInput: opts.noInput,
      ...killing(t),
    });
  }

  /** The command on this pod's agent channel, or undefined for plain exec (no channel, or it just closed). */
  function viaAgent(pod: string, argv: string[], env: Record<string, string>): ExecProcess | undefined {
    const ch = o.agents?.channelFor(pod);
    try {
      const p = ch?.exec(argv, env);
      if (p) stats[o.agents?.isDirect(ch!) ? "direct" : "agent"]++;
      return p;
    } catch {
      return undefined;
    }
  }

  return { run, probe, probeOnce, exec, stats: (): ExecStats => ({ ...stats }) };
}

/** What the claim applied (working directory, secrets: claim-wrap.ts) wraps the command, its env inside the wrap. */
function claimApplied(t: ExecTarget, argv: string[], env: Record<string, string>) {
  if (!t.shell || (!t.workingDir && !t.secretEnvFile)) return { argv, env };
  return { argv: claimWrap(argv, { dir: t.workingDir, envFile: t.secretEnvFile, env }), env: {} };
}

/** A plain exec's argv into a reusable pod's main container: through `hangar-agent run`, into the sandbox's cell. */
function cellArgv(cellAgent: ((pod: string) => string | undefined) | undefined, pod: string, argv: string[], container?: string) {
  const agent = container ? undefined : cellAgent?.(pod);
  return agent ? [agent, "run", ...argv] : argv;
}

type Run = (pod: string, argv: string[], input?: Buffer, container?: string) => Promise<number>;

/** Runs a command to completion (stdin from `input`) by plain exec, discarding its output; returns its exit code. */
async function runToEnd(kc: k8s.KubeConfig, namespace: string, pod: string, argv: string[], input?: Buffer, container?: string) {
  const p = await kubeExec({ kc, namespace, pod, argv, shell: false, ...(container ? { container } : {}) });
  if (input) await p.write(input);
  p.closeStdin();
  for await (const _ of p.output()) void _;
  return (await p.exited).exitCode;
}

/**
 * Whether the image has a shell: true when `/bin/sh -c "exit 0"` runs, false only when the
 * runtime says there is no such program. Anything else (the apiserver or the kubelet away) is no
 * answer: asked again for up to PROBE_PATIENCE_MS, then thrown; never taken for "no shell" (a
 * sandbox started during a restart was once marked shell-less for good by the chaos suite).
 * `stop` ends the retries early (the container exited: there is nothing left to probe); the
 * answer is then false and the caller asks why.
 */
async function probeShell(run: Run, pod: string, container?: string, stop?: () => boolean): Promise<boolean> {
  const t0 = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return (await run(pod, SHELL_PROBE, undefined, container)) === 0;
    } catch (e) {
      if (NO_PROGRAM.test((e as Error).message ?? "")) return false;
      if (stop?.()) return false;
      if (Date.now() - t0 > PROBE_PATIENCE_MS) throw e;
      await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** attempt, 2000)));
    }
  }
}

/**
 * One try of the shell probe while the container may still be being started (ADR 0041): true when
 * `exit 0` ran, false only when the runtime says there is no such program, and no answer otherwise
 * — an exec into a container not started yet, or during a restart of the kubelet or the runtime,
 * can end with another code (the chaos suite once saw a sandbox marked shell-less for good that way).
 */
export const probeShellOnce = (run: Run, pod: string): Promise<boolean | undefined> =>
  run(pod, SHELL_PROBE).then(
    (code) => (code === 0 ? true : undefined),
    (e: Error) => (NO_PROGRAM.test(e.message ?? "") ? false : undefined),
  );

/**
 * A command killed by a signal while its pod went away did not fail on its own: the pod did
 * (UNAVAILABLE). `podGone` is asked only for such an exit, when the sandbox is not known to have exited.
 */
function blamePodOnSignal(
  exited: Promise<{ exitCode: number }>,
  sandboxExited: () => boolean,
  podGone: () => Promise<boolean>,
): Promise<{ exitCode: number }> {
  const blamed = exited.then(async (r) => {
    if (!endedBySignal(r.exitCode)) return r;
    const gone = sandboxExited() || (await podGone());
    if (gone) throw errors.unavailable("the sandbox's pod stopped while the command ran");
    return r;
  });
  blamed.catch(() => undefined);
  return blamed;
}

export { NO_PROGRAM } from "../pod/no-program.js";
const PROBE_PATIENCE_MS = 30_000;
const SHELL_PROBE = ["/bin/sh", "-c", "exit 0"];

const withEnv = (argv: string[], env: Record<string, string>) =>
  Object.keys(env).length ? ["env", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...argv] : argv;
