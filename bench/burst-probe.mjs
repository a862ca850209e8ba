// make bench-burst: bursts of N claims (100) from a full, settled warm pool, REPS times, then the RL
// workload (RL completions at once), on the test cluster. For each burst: when every create was
// answered and every sandbox listed RUNNING, the CPU each cluster process used, and the apiserver's
// pod PATCH/POST and etcd update counts and mean latencies over the burst. SECOND=1 adds a second
// Hangar (plain exec, no pool) on the namespace, as make bench runs. REUSE=1 makes the pool's pods
// reusable (ADR 0040). Prints JSON lines.
import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { core, NS, now, sleep, stats, startHangar, unary, readyWarmPods, procUsage, rlWorkload } from "./lib.mjs";
const N = Number(process.env.N ?? 100),
  REPS = Number(process.env.REPS ?? 3),
  RL = Number(process.env.RL ?? 64);
const warmSpec = { containers: [{ name: "main", image: "python:3.11" }], max_lifetime_seconds: 600, tags: ["bench"] };
const create = (client, spec, i) =>
  unary(client, "CreateSandbox", { sandbox: { spec }, request_id: `p-${Date.now()}-${i}-${Math.random()}` });
const del = (client, id) => unary(client, "DeleteSandbox", { sandbox_id: id, grace_period_seconds: 0 });
const KUBECTL = execSync("bash test/cluster/lib.sh --print-bin").toString().trim() + "/kubectl";
const series = [
  ["patch", /^apiserver_request_duration_seconds_(sum|count)\{.*resource="pods".*subresource="",verb="PATCH"/],
  ["etcd_update", /^etcd_request_duration_seconds_(sum|count)\{operation="update",type="pods"/],
  ["etcd_get", /^etcd_request_duration_seconds_(sum|count)\{operation="get",type="pods"/],
  ["post", /^apiserver_request_duration_seconds_(sum|count)\{.*resource="pods".*subresource="",verb="POST"/],
];
function metrics() {
  const out = {};
  for (const line of execSync(`${KUBECTL} get --raw /metrics`, { maxBuffer: 1 << 26 })
    .toString()
    .split("\n"))
    for (const [k, re] of series) {
      const m = re.exec(line);
      if (m) out[`${k}_${m[1]}`] = Number(line.split(" ").pop());
    }
  return out;
}
/** CPU seconds the whole machine used so far (user + nice + system + irq + softirq), from /proc/stat. */
const machineCpu = () => {
  const f = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  return (f[0] + f[1] + f[2] + f[5] + f[6]) / 100;
};
const cpuNow = () => ({
  ...Object.fromEntries(
    Object.entries({ ...procs, hangar: h.proc.pid, ...(h2 ? { hangar2: h2.proc.pid } : {}), probe: process.pid }).map(([k, v]) => [
      k,
      procUsage(v).cpuSeconds,
    ]),
  ),
  machine: machineCpu(),
});
const cpuSince = (c0) => {
  const c = cpuNow();
  const d = Object.fromEntries(Object.keys(c).map((k) => [k, +(c[k] - c0[k]).toFixed(2)]));
  d.rest = +(
    d.machine -
    Object.entries(d)
      .filter(([k]) => k !== "machine")
      .reduce((a, [, v]) => a + v, 0)
  ).toFixed(2);
  return d;
};
const mdiff = (a, b) =>
  Object.fromEntries(
    series.map(([k]) => [
      k,
      {
        n: b[`${k}_count`] - a[`${k}_count`],
        mean_ms: +((1000 * (b[`${k}_sum`] - a[`${k}_sum`])) / Math.max(1, b[`${k}_count`] - a[`${k}_count`])).toFixed(1),
      },
    ]),
  );
const pid = (n) => Number(execSync(`pgrep -o -f "(^|/)${n} "`).toString().trim());
const procs = Object.fromEntries(
  ["kube-apiserver", "etcd", "kubelet", "containerd", "kube-scheduler", "kube-controller-manager"].map((n) => [n, pid(n)]),
);
async function waitPool(n) {
  while ((await readyWarmPods()) < n) await sleep(500);
}
for (const p of (await core.listNamespacedPod({ namespace: NS, labelSelector: "hangar.dev/warm-pool" })).items)
  await core.deleteNamespacedPod({ name: p.metadata.name, namespace: NS, gracePeriodSeconds: 0 }).catch(() => {});
// AGENT_IMAGE_PATH=off: the agent streamed into each pod through exec stdin instead of copied by netinit (ADR 0023).
const h = await startHangar({
  HANGAR_KUBE_WARM_POOLS: `python:3.11=${N}`,
  HANGAR_MAX_SANDBOXES: "1000",
  HANGAR_KUBE_EXEC_AGENT: "true",
  ...(process.env.AGENT_IMAGE_PATH ? { HANGAR_KUBE_AGENT_IMAGE_PATH: process.env.AGENT_IMAGE_PATH } : {}),
  // REUSE=1: reusable pool pods (ADR 0040): the burst's sandboxes go back to the pool when deleted.
  ...(process.env.REUSE ? { HANGAR_KUBE_POOL_REUSE: "true" } : {}),
});
const { client } = h;
// SECOND=1: a second Hangar (plain exec, no pool) on the same namespace, as in make bench.
const h2 = process.env.SECOND ? await startHangar({ HANGAR_MAX_SANDBOXES: "1000" }) : undefined;
try {
  const fill0 = cpuNow();
  let t = now();
  await waitPool(N);
  console.log(
    JSON.stringify({
      pool_fill_ms: +(now() - t).toFixed(0),
      agent_image_path: process.env.AGENT_IMAGE_PATH ?? "default",
      cpu: cpuSince(fill0),
    }),
  );
  for (let rep = 0; rep < REPS; rep++) {
    await waitPool(N);
    await sleep(5000);
    const cpu0 = Object.fromEntries(
      Object.entries({ ...procs, hangar: h.proc.pid, ...(h2 ? { hangar2: h2.proc.pid } : {}), probe: process.pid }).map(([k, v]) => [
        k,
        procUsage(v).cpuSeconds,
      ]),
    );
    const tag = `b-${Date.now()}`;
    const m0 = metrics();
    const t0 = now();
    const resp = [];
    const made = await Promise.allSettled(
      Array.from({ length: N }, async (_, i) => {
        const s = now();
        const r = await create(client, { ...warmSpec, tags: ["bench", tag] }, i);
        resp.push(now() - s);
        return r;
      }),
    );
    const allResp = now() - t0;
    const ids = made.filter((m) => m.status === "fulfilled").map((m) => m.value.sandbox_id);
    const seen = new Map();
    while (seen.size < ids.length && now() - t0 < 60000) {
      const l = await unary(client, "ListSandboxes", { tags: [tag], page_size: 1000 });
      for (const s of l.sandboxes ?? [])
        if (s.status?.state === "STATE_RUNNING" && !seen.has(s.sandbox_id)) seen.set(s.sandbox_id, now() - t0);
      await sleep(20);
    }
    const allRun = Math.max(...seen.values());
    const apis = mdiff(m0, metrics());
    const cpu = Object.fromEntries(
      Object.entries({ ...procs, hangar: h.proc.pid, ...(h2 ? { hangar2: h2.proc.pid } : {}), probe: process.pid }).map(([k, v]) => [
        k,
        +(procUsage(v).cpuSeconds - cpu0[k]).toFixed(2),
      ]),
    );
    console.log(
      JSON.stringify({
        rep,
        ok: ids.length,
        all_responses_ms: +allResp.toFixed(0),
        all_running_ms: +allRun.toFixed(0),
        create: stats(resp),
        cpu,
        apis,
      }),
    );
    await Promise.all(ids.map((id) => del(client, id)));
  }
  if (RL) {
    await waitPool(N);
    await sleep(5000);
    const c0 = cpuNow();
    const rl = await rlWorkload(client, RL, warmSpec);
    console.log(JSON.stringify({ rl: RL, cpu: cpuSince(c0), correct: rl.correct, per_s: +(RL / rl.seconds).toFixed(2), steps: rl.steps }));
  }
} finally {
  for (const x of [h, h2].filter(Boolean)) {
    x.proc.kill("SIGTERM");
    await new Promise((r) => x.proc.once("exit", r));
  }
  const { PatchStrategy, setHeaderOptions } = await import("@kubernetes/client-node");
  const left = await core.listNamespacedPod({ namespace: NS, labelSelector: "app.kubernetes.io/managed-by=hangar" });
  await Promise.all(
    left.items.map(async (p) => {
      await core
        .patchNamespacedPod(
          { name: p.metadata.name, namespace: NS, body: { metadata: { finalizers: null } } },
          setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
        )
        .catch(() => {});
      await core.deleteNamespacedPod({ name: p.metadata.name, namespace: NS, gracePeriodSeconds: 0 }).catch(() => {});
    }),
  );
}
