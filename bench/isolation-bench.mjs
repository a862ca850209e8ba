// What the Kubernetes network boundary (ADR 0012: the hangar-netinit init container) costs, in one
// run on the test cluster: cold create -> RUNNING and exec `true`, with netinit, with
// HANGAR_KUBE_EGRESS_ENFORCEMENT=networkpolicy (no init container), that and no user namespace
// (HANGAR_KUBE_USER_NAMESPACES=off), and raw pods, alternating.
// Writes bench/isolation-results.json; make bench-isolation (cluster up).
import { writeFileSync } from "node:fs";
import {
  core,
  deleteRawPods,
  hangarExec,
  netinitImage,
  now,
  NS,
  ratio,
  rawCreate,
  rawExec,
  startHangar,
  stats,
  unary,
  waitRunning,
} from "./lib.mjs";

const N = Number(process.env.BENCH_ISOLATION_CREATES ?? 15);
const N_EXEC = Number(process.env.BENCH_ISOLATION_EXECS ?? 100);
const log = (...a) => console.error("bench-isolation:", ...a);
if (!netinitImage()) throw new Error(".cluster/netinit-image is missing: run bash test/cluster/netinit-image.sh");
const spec = {
  containers: [{ name: "main", image: "python:3.11", command: "/bin/sh", args: ["-c", 'trap "exit 0" TERM; sleep infinity & wait'] }],
  max_lifetime_seconds: 600,
};
const create = (c, i) => unary(c, "CreateSandbox", { sandbox: { spec }, request_id: `iso-${Date.now()}-${i}-${Math.random()}` });
const del = (c, id) => unary(c, "DeleteSandbox", { sandbox_id: id, grace_period_seconds: 0 });

const withRules = await startHangar({ HANGAR_MAX_SANDBOXES: "1000" });
const without = await startHangar({ HANGAR_MAX_SANDBOXES: "1000", HANGAR_KUBE_EGRESS_ENFORCEMENT: "networkpolicy" });
const hostUsers = await startHangar({
  HANGAR_MAX_SANDBOXES: "1000",
  HANGAR_KUBE_EGRESS_ENFORCEMENT: "networkpolicy",
  HANGAR_KUBE_USER_NAMESPACES: "off",
});
const r = {
  when: new Date().toISOString(),
  machine: "2 cores, 24 GiB (polyglot kind)",
  cluster: "offline single-node v1.33.13 (make cluster-up)",
  sizes: { N, N_EXEC },
};
try {
  log(`cold create -> RUNNING, ${N} each, alternating`);
  const a = [],
    b = [],
    c = [],
    raw = [];
  for (let i = 0; i < N + 2; i++) {
    let t0 = now();
    const x = await create(withRules.client, `a${i}`);
    await waitRunning(withRules.client, x.sandbox_id);
    const ta = now() - t0;
    t0 = now();
    const y = await create(without.client, `b${i}`);
    await waitRunning(without.client, y.sandbox_id);
    const tb = now() - t0;
    t0 = now();
    const z = await create(hostUsers.client, `c${i}`);
    await waitRunning(hostUsers.client, z.sandbox_id);
    const tc = now() - t0;
    const tr = await rawCreate(`bench-raw-${Date.now()}-${i}`);
    if (i >= 2) {
      a.push(ta);
      b.push(tb);
      c.push(tc);
      raw.push(tr);
    } // the first two warm the node's caches
    await del(withRules.client, x.sandbox_id);
    await del(without.client, y.sandbox_id);
    await del(hostUsers.client, z.sandbox_id);
  }
  r.create_to_running_ms = {
    netinit: stats(a),
    no_netinit: stats(b),
    no_netinit_no_userns: stats(c),
    raw: stats(raw),
    netinit_vs_no_netinit: ratio(stats(a), stats(b)),
    userns_vs_no_userns: ratio(stats(b), stats(c)),
    netinit_vs_raw: ratio(stats(a), stats(raw)),
  };
  await deleteRawPods();

  log(`exec true, ${N_EXEC} each`);
  const x = await create(withRules.client, "ex");
  await waitRunning(withRules.client, x.sandbox_id);
  const y = await create(without.client, "ey");
  await waitRunning(without.client, y.sandbox_id);
  const pod = (await core.listNamespacedPod({ namespace: NS, labelSelector: `hangar.dev/sandbox-id=${x.sandbox_id}` })).items[0].metadata
    .name;
  const ea = [],
    eb = [],
    er = [];
  for (let i = 0; i < N_EXEC + 10; i++) {
    let t0 = now();
    await hangarExec(withRules.client, x.sandbox_id, ["true"]);
    const ta = now() - t0;
    t0 = now();
    await hangarExec(without.client, y.sandbox_id, ["true"]);
    const tb = now() - t0;
    t0 = now();
    await rawExec(pod, ["true"]);
    const tr = now() - t0;
    if (i >= 10) {
      ea.push(ta);
      eb.push(tb);
      er.push(tr);
    }
  }
  r.exec_true_ms = {
    netinit: stats(ea),
    no_netinit: stats(eb),
    raw_in_the_netinit_pod: stats(er),
    netinit_vs_no_netinit: ratio(stats(ea), stats(eb)),
  };
  await del(withRules.client, x.sandbox_id);
  await del(without.client, y.sandbox_id);
} finally {
  for (const h of [withRules, without, hostUsers]) {
    h.proc.kill("SIGTERM");
    await new Promise((res) => h.proc.once("exit", res));
  }
}
writeFileSync("bench/isolation-results.json", JSON.stringify(r, null, 2) + "\n");
console.log(JSON.stringify(r, null, 2));
