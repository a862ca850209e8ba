/**
 * Kills are never silent, on the real cluster (issue 38, ADR 0032): an exec stream cut without an
 * exit status (here the apiserver connection Hangar uses, cut and restored as a restart would)
 * kills its command within KILL_GIVE_UP_MS; a shell-less image's command is killed on every exec
 * path: through netinit's copy of the exec agent, started directly, and where the pod has none,
 * by ending the sandbox. A kubelet restart, which cuts every exec stream of the node (containerd
 * then SIGKILLs each exec's own process, the sh wrapper or the exec agent, and nothing else): the
 * commands on both paths are gone all the same (the wrapper's watch and the kill exec's reach into its
 * group; the agent's guard: ADR 0045).
 * Each check polls the pod; none sleeps and hopes.
 */
import * as k8s from "@kubernetes/client-node";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KILL_GIVE_UP_MS } from "../../core/kill.js";
import { DEFAULT_MAIN_ARGV, type SandboxSpec } from "../../core/types.js";
import { hangarReplica } from "./replica.js";
import {
  apiserverProxy,
  exec,
  kubeConfig,
  kubeConfigVia,
  NAMESPACE,
  NOSHELL_IMAGE,
  PYTHON_IMAGE,
  releaseRecords,
  waitFor,
} from "./kube.js";

const admin = kubeConfig();
const core = admin.makeApiClient(k8s.CoreV1Api);
const SA_FILE = (process.env.KUBECONFIG as string).replace(/kubeconfig$/, "hangar-sa.kubeconfig");
const sa = new k8s.KubeConfig();
sa.loadFromFile(SA_FILE);
const spec = (over: Partial<SandboxSpec> = {}): SandboxSpec => ({
  image: PYTHON_IMAGE,
  argv: [...DEFAULT_MAIN_ARGV],
  env: {},
  files: [],
  requests: {},
  limits: {},
  tags: ["kill"],
  maxLifetimeSeconds: 0,
  runnerIds: [],
  annotations: {},
  volumes: [],
  ...over,
});
/** The pids in the pod whose command line holds `mark` (the pattern quoted apart so this probe does not match itself). */
const pidsWith = async (pod: string, mark: string) =>
  (
    await exec(admin, pod, [
      "/bin/sh",
      "-c",
      'for p in /proc/[0-9]*; do case "$( { tr "\\0" " " < $p/cmdline; } 2>/dev/null)" in *"$0"-"$1"*) echo "${p#/proc/}";; esac; done; true',
      ...mark.split("-", 2),
    ])
  ).stdout
    .toString()
    .trim();

let proxy: Awaited<ReturnType<typeof apiserverProxy>>;
let cut: ReturnType<typeof hangarReplica>;
// Its pods hold their record until retention ends (ADR 0005): a short one, so that "the pod is gone"
// is seen well inside the wait (with the default 60 s it raced the 60 s wait).
const plain = hangarReplica({ kubeConfig: sa, retentionMs: 5_000 });
const agentFromImage = hangarReplica({ kubeConfig: sa, execAgent: true, netinit: { agentImagePath: "/app/.build/hangar-agent" } });

beforeAll(async () => {
  proxy = await apiserverProxy(new URL(sa.getCurrentCluster()?.server ?? ""));
  cut = hangarReplica({ kubeConfig: kubeConfigVia(SA_FILE, proxy.url()) });
  await Promise.all([cut.start(), plain.start(), agentFromImage.start()]);
});
afterAll(async () => {
  await Promise.all([cut.c.close(), plain.c.close(), agentFromImage.c.close()]);
  await proxy.cut();
  expect(await releaseRecords(core)).toEqual([]);
}, 120_000);

describe("kills on Kubernetes", () => {
  it("a plain exec whose stream is cut (no exit status) has its command killed once the apiserver answers again", async () => {
    const r = await cut.c.create("t", { spec: spec(), echo: {}, requestId: "" });
    await cut.until(r.id, ["RUNNING"]);
    const pod = `sbx-${r.id}`;
    const mark = `cut-${Date.now()}`;
    const h = await cut.c.exec("t", r.id, { argv: ["/bin/sh", "-c", "echo up; sleep 300; true", mark], noInput: true });
    const out = h.process.output()[Symbol.asyncIterator]();
    expect(String((await out.next()).value?.data)).toBe("up\n");
    expect(await pidsWith(pod, mark)).not.toBe("");
    await proxy.cut(); // the exec websocket drops without a status; the kill exec cannot get through yet
    await expect(h.process.exited).rejects.toMatchObject({ code: "UNAVAILABLE" });
    await proxy.restore();
    await waitFor(`the cut command gone from ${pod}`, KILL_GIVE_UP_MS, async () => ((await pidsWith(pod, mark)) === "" ? true : undefined));
    h.release();
    cut.c.remove("t", r.id, { graceMs: 0, allowMissing: false });
    await cut.until(r.id, ["COMPLETED", "FAILED"]);
  }, 90_000);

  it("a kubelet restart cuts every exec stream: the commands on the plain path and on the exec agent are gone all the same", async () => {
    const onPlain = await plain.c.create("t", { spec: spec(), echo: {}, requestId: "" });
    const onAgent = await agentFromImage.c.create("t", { spec: spec(), echo: {}, requestId: "" });
    await plain.until(onPlain.id, ["RUNNING"]);
    await agentFromImage.until(onAgent.id, ["RUNNING"]);
    const agentRuns = () => (agentFromImage.runtime.execStats?.().agent ?? 0) + (agentFromImage.runtime.execStats?.().direct ?? 0);
    await waitFor("a command on the agent", 30_000, async () => {
      const before = agentRuns();
      await agentFromImage.run(onAgent.id, ["true"]);
      return agentRuns() > before ? true : undefined;
    });
    const t = Date.now();
    // A loop in a shell (its children come and go; the shell is the command that must die) and a child
    // that left the command's process group (setsid): on both paths, each must go.
    const script = 'echo up; setsid sh -c "sleep 600; :" "$0" & while :; do sleep 1; done';
    const start = async (r: ReturnType<typeof hangarReplica>, id: string, mark: string) => {
      const h = await r.c.exec("t", id, { argv: ["/bin/sh", "-c", script, mark], noInput: true });
      const out = h.process.output()[Symbol.asyncIterator]();
      expect(String((await out.next()).value?.data)).toBe("up\n");
      expect(await pidsWith(`sbx-${id}`, mark)).not.toBe("");
      return h;
    };
    const marks = { plain: `kubelet-plain${t}`, agent: `kubelet-agent${t}` };
    const hs = [await start(plain, onPlain.id, marks.plain), await start(agentFromImage, onAgent.id, marks.agent)];
    execFileSync("bash", ["test/cluster/restart-daemon.sh", "kubelet"], { stdio: "ignore", timeout: 120_000 });
    for (const h of hs) await expect(h.process.exited).rejects.toMatchObject({ code: "UNAVAILABLE" });
    for (const [id, mark] of [
      [onPlain.id, marks.plain],
      [onAgent.id, marks.agent],
    ] as const)
      await waitFor(`the cut command ${mark} gone from sbx-${id}`, KILL_GIVE_UP_MS + 10_000, async () => {
        const left = await pidsWith(`sbx-${id}`, mark).catch(() => "?"); // the kubelet may not answer yet
        return left === "" ? true : undefined;
      });
    for (const h of hs) h.release();
    plain.c.remove("t", onPlain.id, { graceMs: 0, allowMissing: false });
    agentFromImage.c.remove("t", onAgent.id, { graceMs: 0, allowMissing: false });
    await plain.until(onPlain.id, ["COMPLETED", "FAILED"]);
    await agentFromImage.until(onAgent.id, ["COMPLETED", "FAILED"]);
  }, 180_000);

  it("a shell-less image with netinit's copy of the agent: its command runs on the agent, and a kill ends it (exit 137)", async () => {
    const r = await agentFromImage.c.create("t", { spec: spec({ image: NOSHELL_IMAGE, argv: ["/bin/pause"] }), echo: {}, requestId: "" });
    await agentFromImage.until(r.id, ["RUNNING"]);
    const onAgent = () => (agentFromImage.runtime.execStats?.().agent ?? 0) + (agentFromImage.runtime.execStats?.().direct ?? 0);
    await waitFor("a shell-less command on the agent", 30_000, async () => {
      const before = onAgent();
      const res = await agentFromImage.run(r.id, ["/bin/hello", "on", "agent"]);
      expect(res).toEqual({ out: "on agent\n", exitCode: 0 });
      return onAgent() > before ? true : undefined;
    });
    const h = await agentFromImage.c.exec("t", r.id, { argv: ["/bin/pause"], noInput: true });
    await h.process.kill();
    expect(await h.process.exited).toEqual({ exitCode: 137 });
    h.release();
    expect(agentFromImage.c.get("t", r.id).state).toBe("RUNNING"); // the sandbox lives on
    agentFromImage.c.remove("t", r.id, { graceMs: 0, allowMissing: false });
    await agentFromImage.until(r.id, ["COMPLETED", "FAILED"]);
  }, 90_000);

  it("a shell-less image without the agent: nothing in the pod can kill the command, so the kill ends the sandbox", async () => {
    const r = await plain.c.create("t", { spec: spec({ image: NOSHELL_IMAGE, argv: ["/bin/pause"] }), echo: {}, requestId: "" });
    await plain.until(r.id, ["RUNNING"]);
    const h = await plain.c.exec("t", r.id, { argv: ["/bin/pause"], noInput: true });
    await h.process.kill();
    h.release();
    const s = await plain.until(r.id, ["COMPLETED", "FAILED"], 30_000);
    expect(s.exitCode).toBeDefined();
    await waitFor(
      `pod sbx-${r.id} gone`,
      60_000,
      async () =>
        await core.readNamespacedPod({ name: `sbx-${r.id}`, namespace: NAMESPACE }).then(
          () => undefined,
          () => true,
        ),
    );
  }, 90_000);
});
