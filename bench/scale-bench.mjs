// make bench-scale: Hangar's control plane at 1k, 5k and 10k sandboxes, two replicas, on the test
// cluster's real apiserver and etcd with kwok playing the kubelet of fake nodes
// (test/cluster/kwok-up.sh). Writes the `scale` section of bench/results.json (other sections kept).
// Knobs: BENCH_SCALE_SIZES (1000,5000,10000), BENCH_SCALE_CONCURRENCY (64 creates in flight),
// BENCH_SCALE_REAP (20 short-lived sandboxes per size for the reaper's lag), BENCH_SCALE_RAW (1000
// bare pods created straight on the apiserver first, the raw Kubernetes side of the comparison).
// After the sizes: a replica killed and restarted, then the apiserver restarted (each replica's
// pod watch expires, 410 Gone, and relists every pod: how long until both have, and serve new sandboxes).
// Last, BENCH_SCALE_POOL (500; 0 skips): both replicas restarted with a warm pool of that many pods
// on the kwok runner, among every sandbox made before: the fill, a burst of as many claims through
// the API, and the refill.
import * as k8s from "@kubernetes/client-node";
import { PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { poolAgents } from "../dist/runtime/kubernetes/kube-agents.js";
import { poolName } from "../dist/runtime/kubernetes/pool/warm-pool.js";
import { core, now, NS, procUsage, sleep, startHangar, stats, throughput, unary } from "./lib.mjs";

const SIZES = (process.env.BENCH_SCALE_SIZES ?? "1000,5000,10000").split(",").map(Number);
const CONC = Number(process.env.BENCH_SCALE_CONCURRENCY ?? 64);
const N_REAP = Number(process.env.BENCH_SCALE_REAP ?? 20);
const PKI = "/var/lib/hangar-test/pki";
const log = (...a) => console.error("bench-scale:", ...a);
const env = {
  HANGAR_KUBE_RUNNERS: "kwok:type=kwok",
  HANGAR_KUBE_TOLERATIONS: JSON.stringify([{ key: "kwok.x-k8s.io/node", operator: "Exists", effect: "NoSchedule" }]),
  HANGAR_MAX_SANDBOXES: "20000",
  HANGAR_RETENTION_SECONDS: "60",
  // For the watch-expiry phase: hangar_kube_pod_watch_relists.
  HANGAR_METRICS_LISTEN: "127.0.0.1:0",
};
const spec = (tags, lifetime = 3600) => ({ containers: [{ name: "main", image: "python:3.11" }], max_lifetime_seconds: lifetime, tags });
const reqId = (i) => `scale-${process.pid}-${i}-${Math.random().toString(36).slice(2)}`;
const ms = (ts) => Number(ts?.seconds ?? 0) * 1000 + Number(ts?.nanos ?? 0) / 1e6;

/** Requests the apiserver has answered for pods, all clients, by verb and subresource (its own /metrics counter). */
function podRequestsBy() {
  const text = execFileSync(
    "curl",
    ["-sS", "--cacert", `${PKI}/ca.crt`, "--cert", `${PKI}/admin.crt`, "--key", `${PKI}/admin.key`, "https://127.0.0.1:6443/metrics"],
    { encoding: "utf8", maxBuffer: 256 << 20 },
  );
  const by = {};
  for (const line of text.split("\n")) {
    if (!line.startsWith("apiserver_request_total{") || !line.includes('resource="pods"')) continue;
    const k = `${/verb="([^"]*)"/.exec(line)?.[1]}${/subresource="([^"]+)"/.exec(line)?.[1] ? "/" + /subresource="([^"]+)"/.exec(line)[1] : ""}`;
    by[k] = (by[k] ?? 0) + Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return by;
}
const podRequests = () => Object.values(podRequestsBy()).reduce((a, b) => a + b, 0);
const perSecond = (a, b, s) =>
  Object.fromEntries(
    Object.keys(b)
      .map((k) => [k, +((b[k] - (a[k] ?? 0)) / s).toFixed(1)])
      .filter(([, v]) => v > 0),
  );

/** CPU seconds used so far by the cluster's daemons, both replicas and this process (where a phase's time goes). */
function cpu() {
  const c = {};
  for (const d of ["kube-apiserver", "etcd", "kwok", "kube-scheduler", "kube-controller-manager", "kubelet", "containerd"]) {
    try {
      c[d] = procUsage(Number(readFileSync(`/run/hangar-test/${d}.pid`, "utf8"))).cpuSeconds;
    } catch {
      // not running
    }
  }
  reps.forEach((x, i) => {
    try {
      c[`hangar-${i}`] = procUsage(x.proc.pid).cpuSeconds;
    } catch {
      c[`hangar-${i}`] = 0; // stopped (the pool phase restarts both): its successor counts from 0
    }
  });
  const u = process.cpuUsage();
  c["bench-client"] = (u.user + u.system) / 1e6;
  return c;
}
const cpuSince = (a, wallMs) => {
  const b = cpu();
  // A process restarted meanwhile (the watch-expiry phase's apiserver) counts from its start.
  const used = Object.fromEntries(
    Object.keys(b)
      .filter((k) => k in a)
      .map((k) => [k, +(b[k] >= a[k] ? b[k] - a[k] : b[k]).toFixed(1)]),
  );
  return {
    wall_s: +(wallMs / 1000).toFixed(1),
    cpu_s: used,
    cpu_total_s: +Object.values(used)
      .reduce((x, y) => x + y, 0)
      .toFixed(1),
  };
};

/** Runs fn(i) for i in [0, n) with `conc` in flight; returns each call's latency in ms. */
async function pool(n, conc, fn) {
  const lat = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = now();
        await fn(i);
        lat.push(now() - t0);
      }
    }),
  );
  return lat;
}

const stopHangar = async (x, sig = "SIGTERM") => {
  if (!x || x.proc.exitCode !== null || x.proc.signalCode !== null) return;
  x.proc.kill(sig);
  await new Promise((res) => x.proc.once("exit", res));
};

/**
 * Where a replica's memory is, from its /metrics: V8's heap (committed, used), external memory
 * (Buffers' backing stores), and the malloc_trim counters (calls, seconds in them, MiB handed back).
 */
async function memoryOf(x) {
  const text = await (await globalThis.fetch(`http://127.0.0.1:${x.metricsPort}/metrics`)).text();
  const v = (name) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, "m").exec(text)?.[1] ?? 0);
  const mib = (name) => +(v(name) / 2 ** 20).toFixed(1);
  return {
    heap_total_mib: mib("hangar_process_nodejs_heap_size_total_bytes"),
    heap_used_mib: mib("hangar_process_nodejs_heap_size_used_bytes"),
    external_mib: mib("hangar_process_nodejs_external_memory_bytes"),
    trims: v("hangar_malloc_trims"),
    trim_seconds: +v("hangar_malloc_trim_seconds").toFixed(3),
    trim_released_mib: mib("hangar_malloc_trim_released_bytes"),
  };
}

/**
 * What a replica's process did while a phase ran, from two readings of its /metrics (prom-client's
 * event-loop delay histogram restarts at each reading, so the second one covers just the phase):
 * ListSandboxes handler time by bucket, event-loop delay, and garbage collection by kind.
 */
async function processReading(x) {
  const text = await (await globalThis.fetch(`http://127.0.0.1:${x.metricsPort}/metrics`)).text();
  const num = (re) => Number(re.exec(text)?.[1] ?? NaN);
  const buckets = [...text.matchAll(/^hangar_grpc_request_duration_seconds_bucket\{([^}]*)\} (\d+)$/gm)]
    .filter((m) => /(^|,)method="ListSandboxes"/.test(m[1]))
    .map((m) => {
      const le = /le="([^"]+)"/.exec(m[1])?.[1] ?? "+Inf";
      return [le === "+Inf" ? Infinity : Number(le), Number(m[2])];
    })
    .sort((x, y) => x[0] - y[0]);
  const gc = Object.fromEntries(
    [...text.matchAll(/^hangar_process_nodejs_gc_duration_seconds_sum\{kind="(\w+)"\} ([0-9.e+-]+)$/gm)].map((m) => [m[1], Number(m[2])]),
  );
  return {
    buckets,
    loopP50: num(/^hangar_process_nodejs_eventloop_lag_p50_seconds ([0-9.e+-]+)$/m),
    loopP99: num(/^hangar_process_nodejs_eventloop_lag_p99_seconds ([0-9.e+-]+)$/m),
    loopMax: num(/^hangar_process_nodejs_eventloop_lag_max_seconds ([0-9.e+-]+)$/m),
    gc,
  };
}

/** Between two readings: the handler's p50/p99 as bucket bounds (ms), the loop delay (ms), GC ms by kind. */
function processDelta(a, b) {
  const counts = b.buckets.map(([le, n], i) => [le, n - (a.buckets[i]?.[1] ?? 0)]);
  const total = counts.at(-1)?.[1] ?? 0;
  const q = (f) => (total ? counts.find(([, n]) => n >= f * total)?.[0] * 1000 : null);
  const gc = Object.fromEntries(Object.entries(b.gc).map(([k, v]) => [k, +((v - (a.gc[k] ?? 0)) * 1000).toFixed(1)]));
  const ms = (s) => (Number.isFinite(s) ? +(s * 1000).toFixed(2) : null);
  return {
    list_calls: total,
    list_handler_p50_le_ms: q(0.5),
    list_handler_p99_le_ms: q(0.99),
    eventloop_delay_p50_ms: ms(b.loopP50),
    eventloop_delay_p99_ms: ms(b.loopP99),
    eventloop_delay_max_ms: ms(b.loopMax),
    gc_ms: gc,
  };
}

// BENCH_SCALE_ENV_A / BENCH_SCALE_ENV_B: extra environment (JSON) for the first / second replica only, to compare two settings in one run.
const envA = { ...env, ...JSON.parse(process.env.BENCH_SCALE_ENV_A ?? "{}") };
const envB = { ...env, ...JSON.parse(process.env.BENCH_SCALE_ENV_B ?? "{}") };
/**
 * Raw Kubernetes on the same bed, same concurrency: `n` bare pods created straight on the
 * apiserver (one keep-alive client, as Hangar has), until kwok reports every one Running.
 */
async function rawPhase(n) {
  const kc = poolAgents(new k8s.KubeConfig());
  kc.loadFromDefault();
  const api = kc.makeApiClient(k8s.CoreV1Api);
  const running = new Set();
  let done;
  const all = new Promise((r) => (done = r));
  // An informer, not a bare watch: an apiserver this busy closes watches it finds slow ("Forcing
  // pods watcher close due to unresponsiveness"), and the informer watches again from where it was.
  const sel = "app.kubernetes.io/managed-by=hangar-bench-scale";
  const inf = k8s.makeInformer(
    kc,
    `/api/v1/namespaces/${NS}/pods`,
    () => api.listNamespacedPod({ namespace: NS, labelSelector: sel }),
    sel,
  );
  const seen = (p) => {
    if (p.status?.phase === "Running") running.add(p.metadata.name);
    if (running.size >= n) done();
  };
  inf.on("add", seen);
  inf.on("update", seen);
  inf.on("error", () => setTimeout(() => void inf.start().catch(() => undefined), 500));
  await inf.start();
  const pod = (i) => ({
    metadata: { name: `raw-scale-${i}`, labels: { "app.kubernetes.io/managed-by": "hangar-bench-scale" } },
    spec: {
      restartPolicy: "Never",
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      nodeSelector: { type: "kwok" },
      tolerations: JSON.parse(env.HANGAR_KUBE_TOLERATIONS),
      containers: [{ name: "main", image: "python:3.11" }],
    },
  });
  const cpu0 = cpu();
  const t0 = now();
  const lat = await pool(n, CONC, (i) => api.createNamespacedPod({ namespace: NS, body: pod(i) }));
  const createMs = now() - t0;
  await Promise.race([all, sleep(600_000)]);
  const runningMs = now() - t0;
  const used = cpuSince(cpu0, runningMs);
  await inf.stop();
  await api.deleteCollectionNamespacedPod({
    namespace: NS,
    labelSelector: "app.kubernetes.io/managed-by=hangar-bench-scale",
    gracePeriodSeconds: 0,
  });
  return {
    pods: n,
    create_per_s: +(n / (createMs / 1000)).toFixed(1),
    create_p50_ms: stats(lat).p50,
    create_p99_ms: stats(lat).p99,
    all_running_ms: +runningMs.toFixed(0),
    running: running.size,
    create_to_running_cpu: used,
  };
}

/**
 * The warm pool at scale: both replicas restarted with HANGAR_KUBE_WARM_POOLS=python:3.11=n@kwok
 * while every sandbox made so far runs; how long until n idle pods are ready (created, Running on
 * kwok, exec proven), a burst of n claims through the API at the bench's concurrency (each a
 * create of the pool's sandbox), and how long the pool takes to be full again.
 */
async function poolPhase(n) {
  const label = `hangar.dev/warm-pool=${poolName("python:3.11", undefined, { type: "kwok" })}`;
  // From the apiserver's watch cache (resourceVersion 0): a quorum list of every pod each second would be the bench's own load.
  const ready = async () =>
    (await core.listNamespacedPod({ namespace: NS, labelSelector: label, resourceVersion: "0" })).items.filter(
      (p) => p.metadata?.annotations?.["hangar.dev/exec"] && !p.metadata?.deletionTimestamp && p.status?.phase === "Running",
    ).length;
  const full = async (t0, what) => {
    for (let logged = 0; ;) {
      const r = await ready();
      if (r >= logged + 100) log(`${what}: ${(logged = r)} of ${n} ready after ${((now() - t0) / 1000).toFixed(1)} s`);
      if (r >= n) return { ms: +(now() - t0).toFixed(0), ready: r };
      if (now() - t0 > 900_000) return { ms: null, ready: r };
      await sleep(500);
    }
  };
  log(`warm pool at ${running.size} sandboxes: both replicas restarted with ${n} idle pods on the kwok runner`);
  for (const x of reps) await stopHangar(x);
  const poolEnv = { HANGAR_KUBE_WARM_POOLS: `python:3.11=${n}@kwok` };
  const cpuF = cpu();
  const tf = now();
  reps[0] = await startHangar({ ...envA, ...poolEnv });
  reps[1] = await startHangar({ ...envB, ...poolEnv });
  const fill = await full(tf, "fill");
  const fillCpu = cpuSince(cpuF, now() - tf);
  log(`filled: ${JSON.stringify(fill)}; ${n} claims, ${CONC} in flight`);
  const cpuC = cpu();
  const tc = now();
  const claimIds = [];
  const lat = await pool(n, CONC, async (i) => {
    const s = await unary(reps[i % 2].client, "CreateSandbox", { sandbox: { spec: spec(["pool-claim"]) }, request_id: reqId(`c${i}`) });
    claimIds[i] = s.sandbox_id;
  });
  const claimMs = now() - tc;
  await pool(n, CONC, async (i) => {
    for (;;) {
      const s = await unary(reps[i % 2].client, "GetSandbox", { sandbox_id: claimIds[i] });
      if (s.status.state === "STATE_RUNNING") return;
      if (["STATE_FAILED", "STATE_COMPLETED", "STATE_TERMINATED"].includes(s.status.state))
        throw new Error(`claim ${claimIds[i]} ended: ${s.status.state}`);
      await sleep(100);
    }
  });
  const allRunningMs = now() - tc;
  const claimCpu = cpuSince(cpuC, allRunningMs);
  const mine = new Set(claimIds);
  const warm = (
    await core.listNamespacedPod({ namespace: NS, labelSelector: "hangar.dev/claimed=true", resourceVersion: "0" })
  ).items.filter((p) => mine.has(p.metadata?.labels?.["hangar.dev/sandbox-id"])).length;
  const cpuR = cpu();
  const tr = now();
  const refill = await full(tr, "refill");
  const row = {
    sandboxes: running.size,
    pool_size: n,
    fill_ms: fill.ms,
    fill_ready: fill.ready,
    fill_cpu: fillCpu,
    claims: n,
    claims_warm: warm,
    claim_per_s: +(n / (claimMs / 1000)).toFixed(1),
    claim_p50_ms: stats(lat).p50,
    claim_p99_ms: stats(lat).p99,
    claims_all_running_ms: +allRunningMs.toFixed(0),
    claim_cpu: claimCpu,
    refill_ms: refill.ms,
    refill_ready: refill.ready,
    refill_cpu: cpuSince(cpuR, now() - tr),
    rss_mib_after: reps.map((x) => procUsage(x.proc.pid).rssMiB),
  };
  log(JSON.stringify(row));
  return row;
}

const reps = [await startHangar(envA), await startHangar(envB)];
const ids = [];
/** The sandboxes that reached RUNNING (on a saturated bed some never start: FAILED after the startup timeout). */
const running = new Set();
/** The list-probe sandboxes (the first 100) that ran: what List by tag must find. */
const listProbes = () => ids.slice(0, 100).filter((id) => running.has(id)).length;
const out = {
  when: new Date().toISOString(),
  machine: "2 cores, 24 GiB (polyglot kind)",
  cluster: "offline v1.33.13 (make cluster-up) + kwok v0.7.0 fake nodes (test/cluster/kwok-up.sh)",
  replicas: 2,
  concurrency: CONC,
  sizes: [],
};
try {
  const nRaw = Number(process.env.BENCH_SCALE_RAW ?? 1000);
  if (nRaw > 0) {
    log(`raw Kubernetes: ${nRaw} bare pods, ${CONC} in flight`);
    out.raw = await rawPhase(nRaw);
    log(JSON.stringify(out.raw));
  }
  for (const size of SIZES) {
    const todo = size - ids.length;
    log(`creating ${todo} sandboxes (to ${size}) through two replicas, ${CONC} in flight`);
    const req0 = podRequests();
    const cpu0 = cpu();
    const t0 = now();
    const base = ids.length;
    // Each replica's RSS once a second through the whole size (one reading at the end is one point of a sawtooth).
    const rssSamples = reps.map(() => []);
    const sampler = setInterval(
      () =>
        reps.forEach((x, i) => {
          try {
            rssSamples[i].push(procUsage(x.proc.pid).rssMiB);
          } catch {
            /* restarting */
          }
        }),
      1000,
    );
    const createLat = await pool(todo, CONC, async (i) => {
      const n = base + i;
      const tags = ["scale", ...(n < 100 ? ["list-probe"] : [])];
      const s = await unary(reps[n % 2].client, "CreateSandbox", { sandbox: { spec: spec(tags) }, request_id: reqId(n) });
      ids[n] = s.sandbox_id;
    });
    const createMs = now() - t0;
    const createReq = podRequests() - req0;
    log(`created in ${createMs.toFixed(0)} ms; waiting for RUNNING`);
    let notRunning = 0;
    await pool(todo, CONC, async (i) => {
      for (;;) {
        const s = await unary(reps[i % 2].client, "GetSandbox", { sandbox_id: ids[base + i] });
        if (s.status.state === "STATE_RUNNING") return void running.add(ids[base + i]);
        if (["STATE_FAILED", "STATE_COMPLETED", "STATE_TERMINATED"].includes(s.status.state)) {
          notRunning++;
          return;
        }
        await sleep(100);
      }
    });
    const allRunningMs = now() - t0;
    const createCpu = cpuSince(cpu0, allRunningMs);

    log("idle apiserver pod requests over 10 s");
    const idle0 = podRequestsBy();
    await sleep(10_000);
    const idleBy = perSecond(idle0, podRequestsBy(), 10);
    const idleRate = Object.values(idleBy).reduce((a, b) => a + b, 0);

    log("Get throughput and List-by-tag latency");
    // Sandboxes that ran: one that never started is removed after its retention (Get: NOT_FOUND).
    const live = [...running];
    const pick = () => live[Math.floor(Math.random() * live.length)];
    // Both replicas get the same load (Get and List alternate between them), so their RSS compares.
    let turn = 0;
    const get = await throughput(32, 5000, () => unary(reps[turn++ % 2].client, "GetSandbox", { sandbox_id: pick() }));
    const listLat = [];
    // Where a slow List waits: in the handler, or for the event loop (informer events, GC) before it runs.
    const before = await Promise.all(reps.map((x) => processReading(x).catch(() => null)));
    for (let i = 0; i < 200; i++) {
      const t = now();
      const r = await unary(reps[i % 2].client, "ListSandboxes", { tags: ["list-probe"], page_size: 100 });
      listLat.push(now() - t);
      if (i === 0 && r.sandboxes.length !== listProbes()) throw new Error(`List by tag found ${r.sandboxes.length} of ${listProbes()}`);
    }
    const after = await Promise.all(reps.map((x) => processReading(x).catch(() => null)));
    const listProcess = reps.map((_, i) => (before[i] && after[i] ? processDelta(before[i], after[i]) : null));

    log(`reaper lag: ${N_REAP} sandboxes with a 5 s lifetime`);
    const reap = [];
    for (let i = 0; i < N_REAP; i++)
      reap.push(
        (await unary(reps[i % 2].client, "CreateSandbox", { sandbox: { spec: spec(["reap"], 5) }, request_id: reqId(`r${size}-${i}`) }))
          .sandbox_id,
      );
    const lags = await Promise.all(
      reap.map(async (id, i) => {
        for (;;) {
          const s = await unary(reps[i % 2].client, "GetSandbox", { sandbox_id: id });
          const st = s.status.state;
          if (st !== "STATE_RUNNING" && st !== "STATE_CREATING" && st !== "STATE_PENDING" && st !== "STATE_PREPARING") {
            const started = ms(s.status.start_time);
            if (!started) {
              log(`reaped sandbox without a start time: ${JSON.stringify(s.status)}`);
              return NaN;
            }
            return Date.now() - (started + 5000);
          }
          await sleep(50);
        }
      }),
    );
    clearInterval(sampler);
    const rss = reps.map((x) => procUsage(x.proc.pid).rssMiB);
    const mean = (a) => +(a.reduce((x, y) => x + y, 0) / Math.max(1, a.length)).toFixed(1);
    const peak = reps.map((x) => procUsage(x.proc.pid).peakMiB);
    const memory = await Promise.all(reps.map((x) => memoryOf(x).catch(() => null)));
    const row = {
      sandboxes: size,
      create_per_s: +(todo / (createMs / 1000)).toFixed(1),
      create_p50_ms: stats(createLat).p50,
      create_p99_ms: stats(createLat).p99,
      all_running_ms: +allRunningMs.toFixed(0),
      not_running: notRunning,
      get_rps: get.ops_per_s,
      // A Get that failed (a sandbox that never started and was removed after its retention: NOT_FOUND) is not in the rate.
      get_failed: get.failed,
      ...(get.first_error ? { get_first_error: get.first_error } : {}),
      get_p99_ms: get.p99,
      list_p50_ms: stats(listLat).p50,
      list_p99_ms: stats(listLat).p99,
      list_max_ms: +Math.max(...listLat).toFixed(2),
      // Per replica over the 200 Lists: the handler's time (bucket bounds), the event loop's delay, GC.
      list_process_per_replica: listProcess,
      rss_mib: Math.max(...rss),
      rss_mib_per_replica: rss,
      rss_peak_mib_per_replica: peak,
      rss_mean_mib_per_replica: rssSamples.map(mean),
      rss_p50_mib_per_replica: rssSamples.map((a) => stats(a).p50),
      // V8's heap and external memory at the end, and glibc's malloc_trim (HANGAR_MALLOC_TRIM_SECONDS, ADR 0024) since each replica started.
      memory_per_replica: memory,
      // A probe that never started (the bed saturated) has no lag: counted, not averaged.
      reaper_lag_ms: lags.some(Number.isFinite) ? +Math.max(...lags.filter(Number.isFinite)).toFixed(0) : null,
      reaper_lag_p50_ms: lags.some(Number.isFinite) ? stats(lags.filter(Number.isFinite)).p50 : null,
      reaper_probes_not_started: lags.filter((x) => !Number.isFinite(x)).length,
      apiserver_pod_requests_per_create: +(createReq / todo).toFixed(2),
      apiserver_pod_requests_per_s_idle: +idleRate.toFixed(1),
      apiserver_pod_requests_per_s_idle_by_verb: idleBy,
      create_to_running_cpu: createCpu,
    };
    log(JSON.stringify(row));
    out.sizes.push(row);
  }

  if (process.env.BENCH_SCALE_HOLD_S) {
    log(`holding ${process.env.BENCH_SCALE_HOLD_S} s (replicas: ${reps.map((x) => x.proc.pid).join(", ")})`);
    await sleep(Number(process.env.BENCH_SCALE_HOLD_S) * 1000);
  }
  log("replica restart: one replica killed (SIGKILL) and started again");
  await stopHangar(reps[1], "SIGKILL");
  const t0 = now();
  reps[1] = await startHangar(envB);
  const listening = now() - t0;
  const probe = [...running].at(-1);
  for (;;) {
    const ok = await unary(reps[1].client, "GetSandbox", { sandbox_id: probe }).then(
      (s) => s.status.state === "STATE_RUNNING",
      () => false,
    );
    const listed =
      ok &&
      (await unary(reps[1].client, "ListSandboxes", { tags: ["list-probe"], page_size: 100 }).then(
        (r) => r.sandboxes.length,
        () => 0,
      ));
    if (ok && listed === listProbes()) break;
    if (now() - t0 > 120_000) throw new Error("the restarted replica did not serve within 120 s");
    await sleep(50);
  }
  out.restart = {
    sandboxes: running.size,
    listening_ms: +listening.toFixed(0),
    serving_ms: +(now() - t0).toFixed(0),
    rss_mib_after: procUsage(reps[1].proc.pid).rssMiB,
  };
  log(JSON.stringify(out.restart));

  log(
    "watch expiry: the apiserver restarted (SIGKILL); each replica's pod watch resumes past the new watch cache's start, gets 410 Gone and lists every pod again",
  );
  const relists = async (x) =>
    Number(
      /^hangar_kube_pod_watch_relists (\d+)$/m.exec(
        await (await globalThis.fetch(`http://127.0.0.1:${x.metricsPort}/metrics`)).text(),
      )?.[1] ?? NaN,
    );
  const relists0 = await Promise.all(reps.map(relists));
  const cpuW = cpu();
  const tw = now();
  // Writes the replicas do not watch move etcd's revision past the last pod event they saw, so the
  // new watch cache (it starts at etcd's revision) cannot resume their watches: a 410 for certain.
  // Without them an idle namespace's watch may resume cleanly, and there is no expiry to measure.
  const bump = { metadata: { name: `hangar-bench-rv-${process.pid}`, namespace: "default" }, data: { n: "0" } };
  await core.createNamespacedConfigMap({ namespace: "default", body: bump });
  for (let i = 1; i <= 5; i++)
    await core.replaceNamespacedConfigMap({ name: bump.metadata.name, namespace: "default", body: { ...bump, data: { n: String(i) } } });
  await core.deleteNamespacedConfigMap({ name: bump.metadata.name, namespace: "default" });
  execFileSync("bash", ["test/cluster/restart-daemon.sh", "kube-apiserver"], { stdio: "ignore", timeout: 180_000 });
  const apiserverReadyMs = now() - tw;
  for (;;) {
    const r = await Promise.all(reps.map((x) => relists(x).catch(() => NaN)));
    if (r.every((v, i) => v > relists0[i])) break;
    if (now() - tw > 180_000) throw new Error(`the replicas did not relist within 180 s (relists ${relists0} -> ${r})`);
    await sleep(50);
  }
  const relistedMs = now() - tw;
  // The watch is live again on both: a new sandbox through each one reaches RUNNING.
  const fresh = await Promise.all(
    reps.map(
      async (x, i) =>
        (await unary(x.client, "CreateSandbox", { sandbox: { spec: spec(["after-410"]) }, request_id: reqId(`w${i}`) })).sandbox_id,
    ),
  );
  await Promise.all(
    fresh.map(async (id, i) => {
      for (;;) {
        const s = await unary(reps[i].client, "GetSandbox", { sandbox_id: id }).catch(() => undefined);
        if (s?.status.state === "STATE_RUNNING") return;
        if (now() - tw > 300_000) throw new Error(`sandbox ${id} not RUNNING 300 s after the apiserver restart`);
        await sleep(100);
      }
    }),
  );
  out.watch_expiry = {
    sandboxes: running.size,
    apiserver_ready_ms: +apiserverReadyMs.toFixed(0),
    relisted_ms: +relistedMs.toFixed(0),
    new_sandbox_running_ms: +(now() - tw).toFixed(0),
    relists_per_replica: await Promise.all(reps.map(relists)),
    rss_mib_after: reps.map((x) => procUsage(x.proc.pid).rssMiB),
    cpu: cpuSince(cpuW, now() - tw),
  };
  log(JSON.stringify(out.watch_expiry));

  const POOL = Number(process.env.BENCH_SCALE_POOL ?? 500);
  if (POOL > 0) out.pool = await poolPhase(POOL);
} finally {
  for (const x of reps) await stopHangar(x);
  log("removing the bench's pods");
  const left = await core.listNamespacedPod({ namespace: NS, labelSelector: "app.kubernetes.io/managed-by=hangar" });
  await pool(left.items.length, 32, async (i) => {
    const p = left.items[i];
    await core
      .patchNamespacedPod(
        { name: p.metadata.name, namespace: NS, body: { metadata: { finalizers: null } } },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      )
      .catch(() => {});
    await core.deleteNamespacedPod({ name: p.metadata.name, namespace: NS, gracePeriodSeconds: 0 }).catch(() => {});
  });
}
const results = existsSync("bench/results.json") ? JSON.parse(readFileSync("bench/results.json", "utf8")) : {};
results.scale = out;
writeFileSync("bench/results.json", JSON.stringify(results, null, 2) + "\n");
console.log(JSON.stringify(out, null, 2));
process.exit(0); // the bench's own informer and clients would keep it alive
