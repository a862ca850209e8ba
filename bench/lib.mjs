// Helpers for make bench: a Hangar process on loopback, a minimal gRPC client, raw client-node calls, stats.
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import * as k8s from "@kubernetes/client-node";
import { execSync, spawn } from "node:child_process";
import { setFlagsFromString } from "node:v8";
import { existsSync, readFileSync } from "node:fs";
import { PassThrough, Writable } from "node:stream";

// The bench's own gRPC client relays exec output as Buffers too: without Hangar's V8 flag
// (cmd/v8-flags.ts, ADR 0020) its full collections cost it as much CPU per MiB as Hangar's, on the
// same 2 cores the measured path shares.
setFlagsFromString("--external-memory-accounted-in-global-limit");

export const NS = process.env.HANGAR_TEST_NAMESPACE ?? "hangar-test";
export const kc = new k8s.KubeConfig();
kc.loadFromFile(process.env.KUBECONFIG);
export const core = kc.makeApiClient(k8s.CoreV1Api);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
export const stats = (xs) => ({ n: xs.length, p50: +pct(xs, 50).toFixed(2), p99: +pct(xs, 99).toFixed(2) });
export const now = () => Number(process.hrtime.bigint()) / 1e6;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const ratio = (h, r) => ({
  p50: +(h.p50 / r.p50).toFixed(2),
  p99: +(h.p99 / r.p99).toFixed(2),
  p50_delta_ms: +(h.p50 - r.p50).toFixed(2),
});

/** The sandbox pods' init container image in the test cluster (test/cluster/netinit-image.sh writes its name). */
export const netinitImage = () => (existsSync(".cluster/netinit-image") ? readFileSync(".cluster/netinit-image", "utf8").trim() : "");

/** Node's flags for Hangar, as the image's entrypoint has them (ADR 0025); BENCH_NODE_FLAGS replaces them ("" for none). */
export const NODE_FLAGS = "--max-semi-space-size=4";

export async function startHangar(extraEnv) {
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("HANGAR_"))),
    HANGAR_KUBE_NETINIT_IMAGE: netinitImage(),
    HANGAR_LISTEN: "127.0.0.1:0",
    HANGAR_METRICS_LISTEN: "off",
    HANGAR_RUNTIME: "kubernetes",
    HANGAR_NAMESPACE: NS,
    HANGAR_LOG_LEVEL: "info",
    HANGAR_MAX_EXECS_PER_SANDBOX: "1000",
    HANGAR_RETENTION_SECONDS: "5",
    ...extraEnv,
  };
  const p = spawn(process.execPath, [...(process.env.BENCH_NODE_FLAGS ?? NODE_FLAGS).split(" ").filter(Boolean), "dist/cmd/main.js"], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let metricsPort;
  const port = await new Promise((resolve, reject) => {
    let buf = "";
    p.stdout.on("data", (b) => {
      buf += b;
      const m = /"port":(\d+)/.exec(buf);
      metricsPort = Number(/"metrics_port":(\d+)/.exec(buf)?.[1] ?? 0) || undefined;
      if (m) resolve(Number(m[1]));
    });
    p.once("exit", (c) => reject(new Error(`hangar exited ${c}`)));
  });
  p.stdout.on("data", (b) => {
    if (process.env.BENCH_DEBUG) process.stderr.write(b);
  });
  const def = protoLoader.loadSync(["coreweave/sandbox/v1/sandbox.proto"], {
    keepCase: true,
    longs: String,
    enums: String,
    defaults: false,
    oneofs: true,
    includeDirs: ["proto"],
  });
  const v1 = grpc.loadPackageDefinition(def).coreweave.sandbox.v1;
  return { proc: p, port, metricsPort, client: new v1.SandboxService(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) };
}

export const unary = (c, m, req) => new Promise((res, rej) => c[m](req, (e, r) => (e ? rej(e) : res(r))));

/** StreamExec to completion; resolves { code, bytes, text (the first 4 KiB) } once the exit arrived (output before it). */
export function hangarExec(client, id, argv) {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let text = "";
    const call = client.StreamExec();
    call.on("data", (m) => {
      if (m.output?.data) {
        bytes += m.output.data.length;
        if (text.length < 4096) text += Buffer.from(m.output.data).toString();
      }
      if (m.exit) resolve({ code: m.exit.exit_code, bytes, text });
      if (m.error) reject(new Error(m.error.message));
    });
    call.on("error", reject);
    call.write({ init: { sandbox_id: id, command: argv } });
    call.end();
  });
}

export function rawExec(pod, argv, input) {
  let bytes = 0;
  let text = "";
  const sink = new Writable({
    write: (c, _e, cb) => {
      bytes += c.length;
      if (text.length < 4096) text += c.toString();
      cb();
    },
  });
  let stdin = null;
  if (input !== undefined) {
    stdin = new PassThrough();
    stdin.end(input);
  }
  return new Promise((resolve, reject) => {
    new k8s.Exec(kc).exec(NS, pod, "main", argv, sink, sink, stdin, false, (s) => resolve({ code: s.status, bytes, text })).catch(reject);
  });
}

/** Polls GetSandbox every `everyMs` until RUNNING (bursts poll less often: 100 clients at 5 ms is 20,000 req/s of load of their own). */
export async function waitRunning(client, id, everyMs = 5) {
  for (;;) {
    const s = await unary(client, "GetSandbox", { sandbox_id: id });
    if (s.status.state === "STATE_RUNNING") return s;
    if (["STATE_FAILED", "STATE_COMPLETED"].includes(s.status.state)) throw new Error(s.status.state_reason);
    await sleep(everyMs);
  }
}

export const rawPod = (name) => ({
  metadata: { name, labels: { "app.kubernetes.io/managed-by": "hangar-bench" } },
  spec: {
    restartPolicy: "Never",
    terminationGracePeriodSeconds: 0,
    automountServiceAccountToken: false,
    enableServiceLinks: false,
    containers: [
      {
        name: "main",
        image: "python:3.11",
        imagePullPolicy: "IfNotPresent",
        command: ["/bin/sh", "-c", 'trap "exit 0" TERM; sleep infinity & wait'],
      },
    ],
  },
});

export async function rawCreate(name) {
  const t0 = now();
  await core.createNamespacedPod({ namespace: NS, body: rawPod(name) });
  for (;;) {
    const p = await core.readNamespacedPod({ name, namespace: NS });
    if (p.status?.containerStatuses?.[0]?.state?.running) return now() - t0;
    await sleep(5);
  }
}

export async function deleteRawPods() {
  const pods = await core.listNamespacedPod({ namespace: NS, labelSelector: "app.kubernetes.io/managed-by=hangar-bench" });
  await Promise.all(
    pods.items.map((p) => core.deleteNamespacedPod({ name: p.metadata.name, namespace: NS, gracePeriodSeconds: 0 }).catch(() => {})),
  );
}

/** Idle warm pods ready to claim (exec proven), as Hangar's pool sees them. */
export async function readyWarmPods() {
  const pods = await core.listNamespacedPod({ namespace: NS, labelSelector: "hangar.dev/warm-pool" });
  return pods.items.filter(
    (p) =>
      p.metadata.annotations?.["hangar.dev/exec"] &&
      !p.metadata.labels?.["hangar.dev/sandbox-id"] &&
      !p.metadata.deletionTimestamp &&
      p.status?.phase === "Running",
  ).length;
}

/**
 * Waits until the node is quiet: the kubelet and containerd together used under 10 % of a core
 * over a second (pods deleted with grace 0 leave the API at once; the kubelet tears their
 * containers down for seconds after). Gives up after maxMs; resolves the ms waited.
 */
export async function settleNode(maxMs = 60_000) {
  const pids = ["kubelet", "containerd"].map((n) => Number(execSync(`pgrep -o -f "(^|/)${n} "`).toString().trim())).filter(Boolean);
  const t0 = now();
  const cpu = () => pids.reduce((a, p) => a + procUsage(p).cpuSeconds, 0);
  for (;;) {
    const c0 = cpu();
    await sleep(1000);
    if (cpu() - c0 < 0.1 || now() - t0 > maxMs) return +(now() - t0).toFixed(0);
  }
}

/**
 * The RL reward workload through Hangar: n completions at once, each a create from `spec`,
 * waiting for RUNNING, WriteFile of a solution, StreamExec of it, and a delete. Resolves the
 * seconds it took, how many printed the right answer, and the wall time of each step per
 * completion (stats).
 */
export async function rlWorkload(client, n, spec) {
  const t0 = now();
  const steps = { create: [], wait_running: [], write_file: [], exec: [], delete: [] };
  const step = async (name, f) => {
    const s0 = now();
    const v = await f();
    steps[name].push(now() - s0);
    return v;
  };
  const ok = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const s = await step("create", () =>
        unary(client, "CreateSandbox", { sandbox: { spec }, request_id: `rl-${Date.now()}-${i}-${Math.random()}` }),
      );
      await step("wait_running", () => waitRunning(client, s.sandbox_id, 20));
      await step("write_file", () =>
        unary(client, "WriteFile", { sandbox_id: s.sandbox_id, path: "/tmp/solution.py", content: Buffer.from(`print(${i} * ${i})\n`) }),
      );
      const out = await step("exec", async () => (await hangarExec(client, s.sandbox_id, ["python3", "/tmp/solution.py"])).text);
      await step("delete", () => unary(client, "DeleteSandbox", { sandbox_id: s.sandbox_id, grace_period_seconds: 0 }));
      return out.trim() === String(i * i) ? 1 : 0;
    }),
  );
  return {
    seconds: (now() - t0) / 1000,
    correct: ok.reduce((a, b) => a + b, 0),
    steps: Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, stats(v)])),
  };
}

/** RSS (MiB) and CPU seconds used so far by a process, from /proc. */
export function procUsage(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // peakMiB: VmHWM, the largest RSS the process has had (a trim lowers the RSS, never this).
  return { rssMiB: +kib("VmRSS").toFixed(1), peakMiB: +kib("VmHWM").toFixed(1), cpuSeconds: (Number(f[11]) + Number(f[12])) / 100 };
}

/** Runs fn with `concurrency` workers for `ms`; returns ops/s, latency stats and failures (an op past 30 s counts as failed). */
export async function throughput(concurrency, ms, fn) {
  const lat = [];
  let failed = 0;
  let firstError;
  const end = now() + ms;
  const timeout = () => new Promise((_, rej) => setTimeout(() => rej(new Error("no answer in 30 s")), 30_000).unref());
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (now() < end) {
        const t0 = now();
        try {
          await Promise.race([fn(), timeout()]);
          lat.push(now() - t0);
        } catch (e) {
          failed++;
          firstError ??= String(e?.message ?? e);
        }
      }
    }),
  );
  return {
    concurrency,
    ops_per_s: +(lat.length / (ms / 1000)).toFixed(1),
    failed,
    ...(firstError ? { first_error: firstError } : {}),
    ...stats(lat.length ? lat : [0]),
  };
}
