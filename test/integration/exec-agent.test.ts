/**
 * The persistent exec path on the real cluster: one Hangar replica with the agent, one
 * without, serving the same sandboxes. Commands on the agent channel behave exactly like
 * plain exec (output, stderr, exit codes, stdin EOF, env), a kill takes the whole tree down,
 * many commands at once share the one channel, and when the agent dies commands fall back to
 * plain exec at once and the channel comes back. A third replica opens the agent's direct link
 * (ADR 0022) and runs the same commands over it, straight to the pod's IP.
 */
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAIN_ARGV, type SandboxSpec } from "../../core/types.js";
import { POOL_LABEL, poolName } from "../../runtime/kubernetes/pool/warm-pool.js";
import { hangarReplica } from "./replica.js";
import { kubeConfig, NAMESPACE, PYTHON_IMAGE, releaseRecords, waitFor } from "./kube.js";

const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
const sa = new k8s.KubeConfig();
sa.loadFromFile((process.env.KUBECONFIG as string).replace(/kubeconfig$/, "hangar-sa.kubeconfig"));

const withAgent = hangarReplica({ kubeConfig: sa, execAgent: true, maxExecsPerSandbox: 100 });
const plain = hangarReplica({ kubeConfig: sa });
const direct = hangarReplica({ kubeConfig: sa, execAgent: true, agentDirectPorts: { first: 47960, count: 16 }, maxExecsPerSandbox: 100 });
const directCount = () => direct.runtime.execStats?.().direct ?? 0;
const pooled = hangarReplica({ kubeConfig: sa, execAgent: true, warmPools: [{ image: PYTHON_IMAGE, size: 1 }] });
const poolPods = async () =>
  (await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: `${POOL_LABEL}=${poolName(PYTHON_IMAGE)}` })).items;
const spec: SandboxSpec = {
  image: PYTHON_IMAGE,
  argv: [...DEFAULT_MAIN_ARGV],
  env: { BASE: "from-spec" },
  files: [],
  requests: {},
  limits: {},
  tags: ["agent"],
  maxLifetimeSeconds: 0,
  runnerIds: [],
  annotations: {},
  volumes: [],
};
/** The program that runs the command: the agent on the channel, the sh kill wrapper on plain exec. */
const PARENT = ["/bin/sh", "-c", 'tr "\\0" " " < /proc/$PPID/cmdline'];
const onAgent = async (id: string) => /\.hangar-agent-/.test((await withAgent.run(id, PARENT)).out);
let id = "";

beforeAll(async () => {
  await Promise.all([withAgent.start(), plain.start(), direct.start()]);
  const r = await withAgent.c.create("t", { spec, echo: {}, requestId: "" });
  id = r.id;
  await withAgent.until(id, ["RUNNING"]);
  await plain.until(id, ["RUNNING"]);
  await direct.until(id, ["RUNNING"]);
  await waitFor("the agent channel to open", 30_000, async () => ((await onAgent(id)) ? true : undefined));
  await waitFor("the direct link to open", 30_000, async () => {
    const before = directCount();
    await direct.run(id, ["true"]);
    return directCount() > before ? true : undefined;
  });
}, 120_000);

afterAll(async () => {
  withAgent.c.remove("t", id, { graceMs: 0, allowMissing: true });
  await withAgent.until(id, ["COMPLETED", "FAILED"]).catch(() => undefined);
  await Promise.all([withAgent.c.close(), plain.c.close(), pooled.c.close(), direct.c.close()]);
  for (const p of await poolPods())
    await core.deleteNamespacedPod({ name: p.metadata?.name ?? "", namespace: NAMESPACE, gracePeriodSeconds: 0 }).catch(() => undefined);
  expect(await releaseRecords(core)).toEqual([]);
}, 120_000);

describe("commands over the exec agent", () => {
  const cases: [string, string[], Record<string, string>?, string?][] = [
    ["true", ["true"]],
    ["exit code", ["/bin/sh", "-c", "echo out; sleep 0.2; echo err >&2; exit 7"]],
    ["signal", ["/bin/sh", "-c", "kill -TERM $$"]],
    ["missing program", ["no-such-program-hangar"]],
    ["env from the spec and the call", ["/bin/sh", "-c", 'echo "$BASE $CALL"'], { CALL: "from-call" }],
    ["stdin to EOF", ["/bin/sh", "-c", "wc -c; cat /dev/stdin"], undefined, "hello\n"],
    ["python", ["python3", "-c", "import sys; print(sys.version_info[0]); sys.exit(3)"]],
  ];
  for (const [name, argv, env, input] of cases) {
    it(`${name}: the same output and exit code as plain exec`, async () => {
      const viaAgent = await withAgent.run(id, argv, env, input === undefined ? undefined : Buffer.from(input));
      const viaPlain = await plain.run(id, argv, env, input === undefined ? undefined : Buffer.from(input));
      // sh names itself in "not found" messages, the agent names the program; the plain path's
      // kill wrapper (a shell) adds "Terminated" for a signalled command: compare what matters.
      if (name === "missing program") {
        expect([viaAgent.exitCode, viaPlain.exitCode]).toEqual([127, 127]);
        expect(viaAgent.out).toContain("no-such-program-hangar: not found");
      } else if (name === "signal") {
        expect([viaAgent.exitCode, viaPlain.exitCode]).toEqual([143, 143]);
        expect(viaAgent.out).toBe("");
      } else expect(viaAgent).toEqual(viaPlain);
      // The same command over the direct link: what the exec channel gave, and it went direct.
      const before = directCount();
      const viaDirect = await direct.run(id, argv, env, input === undefined ? undefined : Buffer.from(input));
      expect(viaDirect).toEqual(viaAgent);
      expect(directCount()).toBe(before + 1);
    });
  }

  it("the direct link carries 8 MiB of output and 8 MiB of stdin intact", async () => {
    const back = await direct.run(
      id,
      ["/bin/sh", "-c", "cat > /tmp/in; wc -c < /tmp/in; tr -d y < /tmp/in | wc -c"],
      undefined,
      Buffer.alloc(8 << 20, 0x79),
    );
    expect(back).toEqual({ out: "8388608\n0\n", exitCode: 0 });
    const big = await direct.c.exec("t", id, { argv: ["head", "-c", String(8 << 20), "/dev/zero"] });
    big.process.closeStdin();
    let n = 0;
    for await (const c of big.process.output()) n += c.data.length;
    big.release();
    expect(n).toBe(8 << 20);
  }, 60_000);

  it("commands really go through the agent on one replica and through the sh wrapper on the other", async () => {
    expect(await onAgent(id)).toBe(true);
    expect((await plain.run(id, PARENT)).out).not.toMatch(/\.hangar-agent-/);
  });

  it("kill takes down the whole process tree", async () => {
    const h = await withAgent.c.exec("t", id, { argv: ["/bin/sh", "-c", "sleep 4242 & setsid sleep 4243 & sleep 4244"] });
    const drained = (async () => {
      for await (const _ of h.process.output()) void _;
    })();
    await new Promise((r) => setTimeout(r, 300));
    await h.process.kill();
    await drained;
    await expect(h.process.exited).resolves.toEqual({ exitCode: 137 });
    h.release();
    const left = await waitFor("no sleep 424x left", 10_000, async () => {
      const r = await plain.run(id, [
        "/bin/sh",
        "-c",
        "cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' ' | grep -o 'sleep 424[0-9]' || true",
      ]);
      return r.out === "" ? true : undefined;
    });
    expect(left).toBe(true);
  });

  it("64 commands at once share the channel, each with its own output", async () => {
    const rs = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        withAgent.c.exec("t", id, { argv: ["/bin/sh", "-c", `echo ${i}; exit ${i % 5}`] }).then(async (h) => {
          let out = "";
          h.process.closeStdin();
          for await (const c of h.process.output()) out += c.data.toString();
          const r = { out, exitCode: (await h.process.exited).exitCode };
          h.release();
          return r;
        }),
      ),
    );
    rs.forEach((r, i) => expect(r).toEqual({ out: `${i}\n`, exitCode: i % 5 }));
  }, 60_000);

  it("the agent killed: the running command fails UNAVAILABLE, the next one runs on plain exec, and the channel comes back", async () => {
    const h = await withAgent.c.exec("t", id, { argv: ["sleep", "300"] });
    const drained = (async () => {
      for await (const _ of h.process.output()) void _;
    })();
    // From the other replica (plain exec): kill every hangar-agent process in the pod. The agent's
    // guard (same binary) exits by itself once the agent is gone, so a kill may find its pid already
    // free: that failure is not counted, and its message must not reach the count on stdout.
    const killed = await plain.run(id, [
      "/bin/sh",
      "-c",
      'n=0; for d in /proc/[0-9]*; do case "$(cat $d/cmdline 2>/dev/null | tr "\\0" " ")" in /tmp/.hangar-agent-*) kill -9 ${d#/proc/} 2>/dev/null && n=$((n+1));; esac; done; echo $n',
    ]);
    expect(Number(killed.out)).toBeGreaterThanOrEqual(1);
    await drained;
    await expect(h.process.exited).rejects.toMatchObject({ code: "UNAVAILABLE" });
    h.release();
    const next = await withAgent.run(id, ["/bin/sh", "-c", "echo still works"]);
    expect(next).toEqual({ out: "still works\n", exitCode: 0 });
    await waitFor("the agent channel to reopen", 30_000, async () => ((await onAgent(id)) ? true : undefined));
  }, 60_000);

  it("a sandbox claimed from the warm pool runs its first command on the agent channel opened while the pod was idle", async () => {
    await pooled.start();
    await waitFor("an idle pool pod", 60_000, async () =>
      (await poolPods()).some((p) => p.metadata?.annotations?.["hangar.dev/exec"] && p.status?.phase === "Running") ? true : undefined,
    );
    const r = await pooled.c.create("t", { spec: { ...spec, env: { GREETING: "warm" } }, echo: {}, requestId: "" });
    const s = await pooled.until(r.id, ["RUNNING"]);
    expect(s.imageNote).toMatch(/warm pod/);
    const first = await pooled.run(r.id, ["/bin/sh", "-c", 'echo "$GREETING"; tr "\\0" " " < /proc/$PPID/cmdline']);
    expect(first.out).toMatch(/^warm\n\/tmp\/\.hangar-agent-/);
    pooled.c.remove("t", r.id, { graceMs: 0, allowMissing: false });
    await pooled.until(r.id, ["COMPLETED", "FAILED"]);
  }, 90_000);
});
