// The List handler's own work, in-process, with nothing else running: page() over N records of one tenant
// (100 matching a tag) and the proto view of the page (`node bench/list-probe.mjs` after `make build`;
// docs/benchmarks.md, "Scale: goals and where the time goes"). Times per List, 300 Lists per size.
import { page } from "../dist/controller/list.js";
import { toProtoSandbox } from "../dist/api/sandbox-view.js";
import { performance } from "node:perf_hooks";
const mk = (i) => ({
  id: `id-${String(i).padStart(8, "0")}-aaaa-4bbb-8ccc-dddddddddddd`,
  tenant: "alpha",
  spec: {
    image: "python:3.11",
    argv: ["sleep", "infinity"],
    env: {},
    files: [],
    volumes: [],
    tags: ["scale", ...(i < 100 ? ["list-probe"] : [])],
    runnerIds: [],
    requests: {},
    limits: {},
  },
  echo: { containers: [{ image: "python:3.11", command: "sleep", args: ["infinity"] }], tags: ["scale"] },
  state: "RUNNING",
  stateReason: "running",
  createdAtMs: 1e12 + i,
  startedAtMs: 1e12 + i + 500,
  runnerId: "r",
  runnerGroupId: "g",
  effectiveLifetimeSeconds: 3600,
  imageNote: "",
});
for (const n of [1000, 5000, 10000]) {
  const recs = new Map();
  for (let i = 0; i < n; i++) {
    const r = mk(i);
    recs.set(r.id, r);
  }
  const t = [];
  for (let k = 0; k < 300; k++) {
    const t0 = performance.now();
    const { items } = page(
      (function* () {
        for (const r of recs.values()) if (r.tenant === "alpha") yield r;
      })(),
      { tags: ["list-probe"], showTerminated: false, runnerIds: [], pageSize: 100, pageToken: "" },
    );
    items.map((r) => toProtoSandbox(r));
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  console.log(n, "p50", t[150].toFixed(3), "p99", t[297].toFixed(3), "ms");
}
