// make bench: Hangar vs raw Kubernetes, side by side in one run on the test cluster.
//   exec round trip (`true`): Hangar StreamExec (gRPC) vs raw @kubernetes/client-node exec into the same pod
//   create -> RUNNING: Hangar CreateSandbox + GetSandbox polling vs raw pod create + watch until Running
// Writes bench/results.json and the table in docs/benchmarks.md. Needs KUBECONFIG and `make build`.
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import * as k8s from "@kubernetes/client-node";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { Writable } from "node:stream";

const NS = process.env.HANGAR_TEST_NAMESPACE ?? "hangar-test";
const N_EXEC = Number(process.env.BENCH_EXECS ?? 200);
const N_CREATE = Number(process.env.BENCH_CREATES ?? 15);
const kc = new k8s.KubeConfig();
kc.loadFromFile(process.env.KUBECONFIG);
const core = kc.makeApiClient(k8s.CoreV1Api);

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]; };
const stats = (xs) => ({ n: xs.length, p50: +pct(xs, 50).toFixed(2), p99: +pct(xs, 99).toFixed(2) });
const now = () => Number(process.hrtime.bigint()) / 1e6;

async function startHangar() {
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("HANGAR_"))), HANGAR_LISTEN: "127.0.0.1:0", HANGAR_METRICS_LISTEN: "off", HANGAR_RUNTIME: "kubernetes", HANGAR_NAMESPACE: NS, HANGAR_LOG_LEVEL: "info", HANGAR_MAX_EXECS_PER_SANDBOX: "1000" };
  const p = spawn(process.execPath, ["dist/cmd/main.js"], { env, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve, reject) => {
    let buf = "";
    p.stdout.on("data", (b) => { buf += b; const m = /"port":(\d+)/.exec(buf); if (m) resolve(Number(m[1])); });
    p.once("exit", (c) => reject(new Error(`hangar exited ${c}`)));
  });
  const def = protoLoader.loadSync(["coreweave/sandbox/v1/sandbox.proto"], { keepCase: true, longs: String, enums: String, defaults: false, oneofs: true, includeDirs: ["proto"] });
  const v1 = grpc.loadPackageDefinition(def).coreweave.sandbox.v1;
  return { proc: p, client: new v1.SandboxService(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) };
}
const unary = (c, m, req) => new Promise((res, rej) => c[m](req, (e, r) => (e ? rej(e) : res(r))));

function hangarExec(client, id, argv) {
  return new Promise((resolve, reject) => {
    const call = client.StreamExec();
    call.on("data", (m) => { if (m.exit) resolve(m.exit.exit_code); if (m.error) reject(new Error(m.error.message)); });
    call.on("error", reject);
    call.write({ init: { sandbox_id: id, command: argv } });
    call.end();
  });
}
function rawExec(pod, argv) {
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  return new Promise((resolve, reject) => {
    new k8s.Exec(kc).exec(NS, pod, "main", argv, sink, sink, null, false, (s) => resolve(s.status)).catch(reject);
  });
}
async function waitRunning(id, client) {
  for (;;) {
    const s = await unary(client, "GetSandbox", { sandbox_id: id });
    if (s.status.state === "STATE_RUNNING") return;
    if (["STATE_FAILED", "STATE_COMPLETED"].includes(s.status.state)) throw new Error(s.status.state_reason);
    await new Promise((r) => setTimeout(r, 5));
  }
}
async function rawCreate(name) {
  const body = { metadata: { name, labels: { "app.kubernetes.io/managed-by": "hangar-bench" } }, spec: { restartPolicy: "Never", terminationGracePeriodSeconds: 0, automountServiceAccountToken: false, enableServiceLinks: false, containers: [{ name: "main", image: "python:3.11", imagePullPolicy: "IfNotPresent", command: ["/bin/sh", "-c", 'trap "exit 0" TERM; sleep infinity & wait'] }] } };
  const t0 = now();
  await core.createNamespacedPod({ namespace: NS, body });
  for (;;) {
    const p = await core.readNamespacedPod({ name, namespace: NS });
    if (p.status?.containerStatuses?.[0]?.state?.running) return now() - t0;
    await new Promise((r) => setTimeout(r, 5));
  }
}

const spec = { containers: [{ name: "main", image: "python:3.11", command: "/bin/sh", args: ["-c", 'trap "exit 0" TERM INT; sleep infinity & wait'] }], max_lifetime_seconds: 600 };
const { proc, client } = await startHangar();
const results = { when: new Date().toISOString(), machine: "2 cores, 24 GiB (polyglot kind)", cluster: "offline single-node v1.33.13 (make cluster-up)" };
try {
  // create -> RUNNING, alternating so both see the same node conditions
  const hc = [], rc = [];
  for (let i = 0; i < N_CREATE; i++) {
    let t0 = now();
    const sb = await unary(client, "CreateSandbox", { sandbox: { spec }, request_id: `bench-${Date.now()}-${i}` });
    await waitRunning(sb.sandbox_id, client);
    hc.push(now() - t0);
    await unary(client, "DeleteSandbox", { sandbox_id: sb.sandbox_id, grace_period_seconds: 0 });
    rc.push(await rawCreate(`bench-raw-${Date.now()}-${i}`));
  }
  results.create_to_running_ms = { hangar: stats(hc), raw: stats(rc) };
  // exec round trip into one pod, both paths
  const sb = await unary(client, "CreateSandbox", { sandbox: { spec }, request_id: `bench-exec-${Date.now()}` });
  await waitRunning(sb.sandbox_id, client);
  const pod = `sbx-${sb.sandbox_id}`;
  for (let i = 0; i < 10; i++) { await hangarExec(client, sb.sandbox_id, ["true"]); await rawExec(pod, ["true"]); }
  const he = [], re = [];
  for (let i = 0; i < N_EXEC; i++) {
    let t0 = now(); await hangarExec(client, sb.sandbox_id, ["true"]); he.push(now() - t0);
    t0 = now(); await rawExec(pod, ["true"]); re.push(now() - t0);
  }
  results.exec_true_ms = { hangar: stats(he), raw: stats(re) };
  await unary(client, "DeleteSandbox", { sandbox_id: sb.sandbox_id, grace_period_seconds: 0 });
} finally {
  const pods = await core.listNamespacedPod({ namespace: NS, labelSelector: "app.kubernetes.io/managed-by=hangar-bench" });
  for (const p of pods.items) await core.deleteNamespacedPod({ name: p.metadata.name, namespace: NS, gracePeriodSeconds: 0 }).catch(() => {});
  proc.kill("SIGTERM");
}
const ratio = (m) => ({ p50: +(m.hangar.p50 / m.raw.p50).toFixed(2), p99: +(m.hangar.p99 / m.raw.p99).toFixed(2), p50_delta_ms: +(m.hangar.p50 - m.raw.p50).toFixed(2) });
results.exec_true_ms.ratio = ratio(results.exec_true_ms);
results.create_to_running_ms.ratio = ratio(results.create_to_running_ms);
writeFileSync("bench/results.json", JSON.stringify(results, null, 2) + "\n");
const e = results.exec_true_ms, c = results.create_to_running_ms;
const table = `| measure | Hangar p50 | Hangar p99 | raw p50 | raw p99 | ratio p50 | ratio p99 | target |
|---|---|---|---|---|---|---|---|
| exec \`true\` round trip (ms, n=${e.hangar.n}) | ${e.hangar.p50} | ${e.hangar.p99} | ${e.raw.p50} | ${e.raw.p99} | ${e.ratio.p50} (+${e.ratio.p50_delta_ms} ms) | ${e.ratio.p99} | p50 ≤ raw + 3 ms, p99 ≤ 1.3× raw |
| create → RUNNING (ms, n=${c.hangar.n}) | ${c.hangar.p50} | ${c.hangar.p99} | ${c.raw.p50} | ${c.raw.p99} | ${c.ratio.p50} | ${c.ratio.p99} | ≤ 1.1× raw + 50 ms |`;
const doc = readFileSync("docs/benchmarks.md", "utf8").replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, `<!-- bench:start -->\nMeasured ${results.when} on ${results.machine}, ${results.cluster}.\n\n${table}\n<!-- bench:end -->`);
writeFileSync("docs/benchmarks.md", doc);
console.log(table);
