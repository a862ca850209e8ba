// make bench-sdk: the reward loop of the SDK's RL guide through the real SDK (bench/sdk_rl.py) on the
// local runtime, on the Kubernetes runtime (warm pool + exec agent) when KUBECONFIG names a
// reachable cluster, and the same loop on raw pods (client-node), all in one run.
// Writes bench/sdk-results.json under the run's label; bench/sdk_report.py renders docs/benchmarks.md.
// Knobs: BENCH_SDK_LABEL (after), BENCH_HANGAR_DIR (this checkout: the build to measure; point it at
// a checkout of an older commit, built, for a "before" run), BENCH_SDK_ROUNDS (4), BENCH_SDK_BATCH (16),
// BENCH_SDK_STOPS (20), BENCH_SDK_KUBE (auto | off).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const LABEL = process.env.BENCH_SDK_LABEL ?? "after";
const DIR = path.resolve(process.env.BENCH_HANGAR_DIR ?? ".");
const ROUNDS = Number(process.env.BENCH_SDK_ROUNDS ?? 4);
const BATCH = Number(process.env.BENCH_SDK_BATCH ?? 16);
const STOPS = Number(process.env.BENCH_SDK_STOPS ?? 20);
const REUSE_ROUNDS = Number(process.env.BENCH_SDK_REUSE_ROUNDS ?? 32);
const KUBE = (process.env.BENCH_SDK_KUBE ?? "auto") !== "off" && !!process.env.KUBECONFIG && existsSync(process.env.KUBECONFIG);
const log = (...a) => console.error("bench-sdk:", ...a);
const OUT = "bench/sdk-results.json";

function startHangar(env) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("HANGAR_")));
  const p = spawn(process.execPath, ["--max-semi-space-size=4", path.join(DIR, "dist/cmd/main.js")], {
    cwd: DIR,
    env: {
      ...clean,
      HANGAR_LISTEN: "127.0.0.1:0",
      HANGAR_METRICS_LISTEN: "off",
      HANGAR_LOG_LEVEL: "info",
      HANGAR_MAX_SANDBOXES: "1000",
      HANGAR_RETENTION_SECONDS: "5",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let buf = "";
    p.stdout.on("data", (b) => {
      buf += b;
      const m = /"port":(\d+)/.exec(buf);
      if (m) resolve({ proc: p, port: Number(m[1]) });
    });
    p.once("exit", (c) => reject(new Error(`hangar exited ${c}: ${buf.slice(-2000)}`)));
  });
}

async function stopHangar(h) {
  if (h.proc.exitCode !== null) return;
  const gone = new Promise((r) => h.proc.once("exit", r));
  h.proc.kill("SIGTERM");
  await gone;
}

const sdkLoop = (h, rounds = ROUNDS) =>
  JSON.parse(
    execFileSync(".venv/bin/python", ["bench/sdk_rl.py"], {
      env: {
        ...process.env,
        CWSANDBOX_BASE_URL: `http://127.0.0.1:${h.port}`,
        BENCH_HANGAR_PID: String(h.proc.pid),
        BENCH_SDK_ROUNDS: String(rounds),
        BENCH_SDK_BATCH: String(BATCH),
        BENCH_SDK_STOPS: String(STOPS),
      },
      encoding: "utf8",
      maxBuffer: 1 << 24,
    }),
  );

/** Every pod Hangar left (finalizers dropped first, then deleted, waited for) and the ended sandboxes' records. */
async function cleanNamespace(core, ns) {
  const { PatchStrategy, setHeaderOptions } = await import("@kubernetes/client-node");
  const left = await core.listNamespacedPod({ namespace: ns, labelSelector: "app.kubernetes.io/managed-by=hangar" });
  await Promise.all(
    left.items.map(async (p) => {
      await core
        .patchNamespacedPod(
          { name: p.metadata.name, namespace: ns, body: { metadata: { finalizers: null } } },
          setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
        )
        .catch(() => {});
      await core.deleteNamespacedPod({ name: p.metadata.name, namespace: ns, gracePeriodSeconds: 0 }).catch(() => {});
    }),
  );
  await core.deleteCollectionNamespacedConfigMap({ namespace: ns, labelSelector: "hangar.dev/ended-record=true" }).catch(() => {});
  for (let i = 0; i < 600; i++) {
    const still = await core.listNamespacedPod({ namespace: ns, labelSelector: "app.kubernetes.io/managed-by=hangar" });
    if (!still.items.length) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Writes the apiserver served so far, from its own metrics (apiserver_request_total), by verb and
 * resource: what Hangar writes (pods without subresource, configmaps, secrets, services); the
 * kubelet's pod status writes apart.
 */
function apiserverWrites() {
  const kubectl = execFileSync("bash", ["test/cluster/lib.sh", "--print-bin"], { encoding: "utf8" }).trim() + "/kubectl";
  const text = execFileSync(kubectl, ["get", "--raw", "/metrics"], { encoding: "utf8", maxBuffer: 1 << 27 });
  const out = {};
  for (const line of text.split("\n")) {
    if (!line.startsWith("apiserver_request_total{")) continue;
    const l = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (!["POST", "PUT", "PATCH", "DELETE", "DELETECOLLECTION"].includes(l.verb)) continue;
    if (!["pods", "configmaps", "secrets", "services"].includes(l.resource)) continue;
    const key = `${l.verb} ${l.resource}${l.subresource ? `/${l.subresource}` : ""}`;
    out[key] = (out[key] ?? 0) + Number(line.split(" ").pop());
  }
  return out;
}

/** Writes per completion between two apiserverWrites() readings. */
function writesPer(before, after, n) {
  const per = {};
  for (const [k, v] of Object.entries(after)) if (v - (before[k] ?? 0) > 0) per[k] = Math.round(((v - (before[k] ?? 0)) / n) * 1000) / 1000;
  const hangar = Object.entries(per)
    .filter(([k]) => k !== "PATCH pods/status")
    .reduce((a, [, v]) => a + v, 0);
  return { by_request: per, hangar_per_sandbox: Math.round(hangar * 1000) / 1000 };
}

const results = existsSync(OUT) ? JSON.parse(readFileSync(OUT, "utf8")) : {};
const run = {
  when: new Date().toISOString(),
  hangar: execFileSync("git", ["-C", DIR, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim(),
  rounds: ROUNDS,
  batch: BATCH,
};

log(`local runtime (${DIR})`);
// A checkout that runs images (ADR 0010) reads them from the offline images make images builds.
const IMAGES = path.join(process.env.HANGAR_TEST_CACHE ?? "/var/cache/hangar-test", "images-v1");
// The configuration is read in dist/cmd/config*.js (one reader per concern since the rooms refactor).
const configText = readdirSync(path.join(DIR, "dist/cmd"))
  .filter((f) => /^config.*\.js$/.test(f))
  .map((f) => readFileSync(path.join(DIR, "dist/cmd", f), "utf8"))
  .join("\n");
const imageEnv = configText.includes("HANGAR_LOCAL_IMAGE_DIRS")
  ? { HANGAR_LOCAL_IMAGE_DIRS: IMAGES, HANGAR_LOCAL_IMAGE_PULL: "false", HANGAR_LOCAL_IMAGE_CACHE_DIR: "/tmp/hangar-bench-image-cache" }
  : {};
const local = await startHangar({ ...imageEnv, HANGAR_RUNTIME: "local", HANGAR_DATA_DIR: `/tmp/hangar-bench-sdk-${process.pid}` });
try {
  run.local = sdkLoop(local);
  if (imageEnv.HANGAR_LOCAL_IMAGE_DIRS) {
    log("local boundary: egress and flood");
    run.local_boundary = JSON.parse(
      execFileSync(".venv/bin/python", ["bench/sdk_boundary.py"], {
        env: { ...process.env, PYTHONPATH: "bench", CWSANDBOX_BASE_URL: `http://127.0.0.1:${local.port}` },
        encoding: "utf8",
        maxBuffer: 1 << 24,
      }),
    );
  }
} finally {
  await stopHangar(local);
}

if (KUBE) {
  const lib = await import("./lib.mjs");
  const { core, NS, now, sleep, stats, rawCreate, rawExec, readyWarmPods } = lib;
  log("Kubernetes runtime: warm pool + exec agent");
  const pool = 2 * BATCH;
  // The cluster's netinit image (make cluster-up imports it): egress rules are loaded by netinit, as deployed.
  const netinit = existsSync(".cluster/netinit-image") ? readFileSync(".cluster/netinit-image", "utf8").trim() : "";
  if (!netinit) throw new Error("no .cluster/netinit-image: run make cluster-up (it imports the netinit image) before make bench-sdk");
  const kube = await startHangar({
    HANGAR_RUNTIME: "kubernetes",
    HANGAR_NAMESPACE: NS,
    HANGAR_KUBE_NETINIT_IMAGE: netinit,
    HANGAR_KUBE_WARM_POOLS: `python:3.11=${pool}`,
    HANGAR_KUBE_EXEC_AGENT: "true",
  });
  try {
    const t0 = now();
    while ((await readyWarmPods()) < pool) {
      if (now() - t0 > 300_000) throw new Error(`warm pool did not reach ${pool} ready pods`);
      await sleep(500);
    }
    run.kubernetes = sdkLoop(kube);
  } finally {
    await stopHangar(kube);
    // Leave nothing behind: idle pool pods go, finished sandboxes' records are released as retention would.
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

  // The same loop on raw pods: per completion create + wait Running, exec python, delete and wait until gone.
  // Reused pool pods (ADR 0040): one pool pod per completion in flight, each serving one sandbox after
  // another; REUSE_ROUNDS x BATCH completions (512 by default: sustained, not the first pool-full).
  log("Kubernetes runtime: reused pool pods (HANGAR_KUBE_POOL_REUSE)");
  const reuse = await startHangar({
    HANGAR_RUNTIME: "kubernetes",
    HANGAR_NAMESPACE: NS,
    HANGAR_KUBE_NETINIT_IMAGE: netinit,
    HANGAR_KUBE_WARM_POOLS: `python:3.11=${BATCH}`,
    HANGAR_KUBE_EXEC_AGENT: "true",
    HANGAR_KUBE_POOL_REUSE: "true",
  });
  try {
    const t0 = now();
    while ((await readyWarmPods()) < BATCH) {
      if (now() - t0 > 300_000) throw new Error(`reusable pool did not reach ${BATCH} ready pods`);
      await sleep(500);
    }
    const w0 = apiserverWrites();
    run.kubernetes_reuse = sdkLoop(reuse, REUSE_ROUNDS);
    // Retention (5 s here) ends the ended records' ConfigMaps: wait for it, so their deletes count too.
    await sleep(8000);
    run.kubernetes_reuse.apiserver_writes = writesPer(w0, apiserverWrites(), REUSE_ROUNDS * BATCH);
  } finally {
    await stopHangar(reuse);
    await cleanNamespace(core, NS);
  }

  log("raw pods");
  const CODE = "import sys; print(sum(i * i for i in range(1000)))";
  const gone = async (name) => {
    for (;;) {
      try {
        await core.readNamespacedPod({ name, namespace: NS });
      } catch {
        return;
      }
      await sleep(20);
    }
  };
  const parts = { run_to_running_ms: [], exec_ms: [], stop_ms: [], reward_ms: [] };
  let done = 0;
  const tAll = now();
  for (let round = 0; round < ROUNDS; round++) {
    await Promise.all(
      Array.from({ length: BATCH }, async (_, i) => {
        const name = `bench-sdkloop-${Date.now()}-${round}-${i}`;
        const t0 = now();
        parts.run_to_running_ms.push(await rawCreate(name));
        const t1 = now();
        const out = await rawExec(name, ["python", "-c", CODE]);
        parts.exec_ms.push(now() - t1);
        parts.reward_ms.push(now() - t0);
        if (out.text.trim() === "332833500") done++;
        const t2 = now();
        await core.deleteNamespacedPod({ name, namespace: NS, gracePeriodSeconds: 0 });
        await gone(name);
        parts.stop_ms.push(now() - t2);
      }),
    );
  }
  const seconds = (now() - tAll) / 1000;
  run.raw = {
    completions: done,
    seconds: +seconds.toFixed(2),
    completions_per_s: +(done / seconds).toFixed(2),
    ...Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, stats(v)])),
  };
}

results[LABEL] = run;
writeFileSync(OUT, JSON.stringify(results, null, 2) + "\n");
console.log(JSON.stringify(run));
