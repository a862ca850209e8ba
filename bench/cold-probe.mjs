// Issue 39 item 4: a cold create -> RUNNING against a raw pod, in one run on the test cluster, with
// HANGAR_KUBE_EARLY_EXEC on (exec tried once netinit is done, ADR 0041) and off (the default: wait
// for the kubelet to report main running), and raw pods, alternating; both Hangars with netinit and
// user namespaces (the defaults). Writes bench/cold-results.json; make bench-cold (cluster up).
import { writeFileSync } from "node:fs";
import { deleteRawPods, netinitImage, now, ratio, rawCreate, startHangar, stats, unary, waitRunning } from "./lib.mjs";

const N = Number(process.env.BENCH_COLD_CREATES ?? 15);
const log = (...a) => console.error("bench-cold:", ...a);
if (!netinitImage()) throw new Error(".cluster/netinit-image is missing: run bash test/cluster/netinit-image.sh");
// A main process of its own: no pool could serve it (and none is configured).
const spec = {
  containers: [{ name: "main", image: "python:3.11", command: "/bin/sh", args: ["-c", 'trap "exit 0" TERM; sleep infinity & wait'] }],
  max_lifetime_seconds: 600,
};
const create = (c, i) => unary(c, "CreateSandbox", { sandbox: { spec }, request_id: `cold-${Date.now()}-${i}-${Math.random()}` });
const del = (c, id) => unary(c, "DeleteSandbox", { sandbox_id: id, grace_period_seconds: 0 });
const timed = async (c, i) => {
  const t0 = now();
  const x = await create(c, i);
  await waitRunning(c, x.sandbox_id);
  return { ms: now() - t0, id: x.sandbox_id };
};

const early = await startHangar({ HANGAR_MAX_SANDBOXES: "1000", HANGAR_KUBE_EARLY_EXEC: "true" });
const late = await startHangar({ HANGAR_MAX_SANDBOXES: "1000", HANGAR_KUBE_EARLY_EXEC: "false" });
const r = { when: new Date().toISOString(), machine: "2 cores, 24 GiB (polyglot kind)", cluster: "offline single-node v1.33.13", N };
try {
  log(`cold create -> RUNNING, ${N} each (two more first, discarded), alternating`);
  const a = [],
    b = [],
    raw = [];
  for (let i = 0; i < N + 2; i++) {
    const x = await timed(early.client, `e${i}`);
    const y = await timed(late.client, `l${i}`);
    const tr = await rawCreate(`bench-raw-${Date.now()}-${i}`);
    if (i >= 2) {
      a.push(x.ms);
      b.push(y.ms);
      raw.push(tr);
    }
    await del(early.client, x.id);
    await del(late.client, y.id);
  }
  r.create_to_running_ms = {
    early_exec: stats(a),
    kubelet_report: stats(b),
    raw: stats(raw),
    early_vs_raw: ratio(stats(a), stats(raw)),
    kubelet_report_vs_raw: ratio(stats(b), stats(raw)),
  };
  await deleteRawPods();
} finally {
  for (const h of [early, late]) {
    h.proc.kill("SIGTERM");
    await new Promise((res) => h.proc.once("exit", res));
  }
}
writeFileSync("bench/cold-results.json", JSON.stringify(r, null, 2) + "\n");
console.log(JSON.stringify(r, null, 2));
