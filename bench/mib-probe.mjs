// make bench-relay: the 1 MiB relay alone (ADR 0020, 0022). N execs of `head -c SIZE /dev/zero`
// in one warm sandbox: their latency, and the CPU per exec of Hangar, the apiserver, the kubelet,
// containerd, every containerd shim, this probe (the gRPC client) and the whole machine, over the
// loop only; once over the agent's direct link and once over its exec channel through the
// apiserver (HANGAR_KUBE_AGENT_DIRECT_PORTS=off), in that order, in one run, each with the number
// of commands Hangar's metrics say took each path. BENCH_NODE_FLAGS sets the measured Hangar's node
// flags (--cpu-prof, --trace-gc); BENCH_PATHS=direct or =channel runs one of them.
import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { core, NODE_FLAGS, NS, now, sleep, stats, startHangar, unary, waitRunning, readyWarmPods, procUsage, hangarExec } from "./lib.mjs";
/** CPU seconds so far of the cluster's daemons, every containerd shim, this probe and the whole machine. */
const pids = (re) => execSync(`pgrep -f '${re}' || true`).toString().split("\n").filter(Boolean).map(Number);
const cpuOf = (ps) =>
  ps.reduce((a, p) => {
    try {
      return a + procUsage(p).cpuSeconds;
    } catch {
      return a;
    }
  }, 0);
const machine = () => {
  const f = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  return (f[0] + f[1] + f[2] + f[5] + f[6]) / 100;
};
const N = Number(process.env.N ?? 40),
  SIZE = Number(process.env.SIZE ?? 1048576);
async function measure(path) {
  const h = await startHangar({
    HANGAR_KUBE_WARM_POOLS: "python:3.11=1",
    HANGAR_MAX_SANDBOXES: "100",
    HANGAR_KUBE_EXEC_AGENT: "true",
    HANGAR_METRICS_LISTEN: "127.0.0.1:0",
    ...(path === "channel" ? { HANGAR_KUBE_AGENT_DIRECT_PORTS: "off" } : {}),
  });
  try {
    while ((await readyWarmPods()) < 1) await sleep(300);
    const s = await unary(h.client, "CreateSandbox", {
      sandbox: { spec: { containers: [{ name: "main", image: "python:3.11" }], max_lifetime_seconds: 600 } },
      request_id: `mib-${Date.now()}`,
    });
    await waitRunning(h.client, s.sandbox_id);
    for (let i = 0; i < 5; i++) await hangarExec(h.client, s.sandbox_id, ["head", "-c", String(SIZE), "/dev/zero"]);
    const groups = {
      apiserver: pids("(^|/)kube-apiserver "),
      kubelet: pids("(^|/)kubelet "),
      containerd: pids("(^|/)containerd "),
      shims: pids("containerd-shim"),
      probe: [process.pid],
    };
    const g0 = Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, cpuOf(v)])),
      m0 = machine();
    const c0 = procUsage(h.proc.pid).cpuSeconds;
    const lat = [];
    for (let i = 0; i < N; i++) {
      const t = now();
      const r = await hangarExec(h.client, s.sandbox_id, ["head", "-c", String(SIZE), "/dev/zero"]);
      if (r.bytes !== SIZE) throw new Error(`got ${r.bytes}`);
      lat.push(now() - t);
    }
    const cpu = procUsage(h.proc.pid).cpuSeconds - c0;
    const perExec = (s) => +((s * 1000) / N).toFixed(1);
    const others = Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, perExec(cpuOf(v) - g0[k])]));
    const metrics = await (await globalThis.fetch(`http://127.0.0.1:${h.metricsPort}/metrics`)).text();
    const took = Object.fromEntries(
      [...metrics.matchAll(/^hangar_kube_exec_commands\{path="(\w+)"\} (\d+)/gm)].map((m) => [m[1], Number(m[2])]),
    );
    console.log(
      JSON.stringify({
        path,
        commands_by_path: took,
        flags: process.env.BENCH_NODE_FLAGS ?? NODE_FLAGS,
        size: SIZE,
        ...stats(lat),
        hangar_cpu_ms_per_exec: perExec(cpu),
        cpu_ms_per_exec: { ...others, machine: perExec(machine() - m0) },
        rss_mib: procUsage(h.proc.pid).rssMiB,
      }),
    );
    await unary(h.client, "DeleteSandbox", { sandbox_id: s.sandbox_id, grace_period_seconds: 0 });
  } finally {
    h.proc.kill("SIGTERM");
    await new Promise((r) => h.proc.once("exit", r));
    for (const p of (await core.listNamespacedPod({ namespace: NS, labelSelector: "hangar.dev/warm-pool" })).items)
      await core.deleteNamespacedPod({ name: p.metadata.name, namespace: NS, gracePeriodSeconds: 0 }).catch(() => {});
  }
}
for (const path of (process.env.BENCH_PATHS ?? "direct,channel").split(",")) await measure(path);
