/**
 * make test-chaos (issue 18): create / write / exec / stop cycles from several clients against two
 * Hangar replicas (real processes, Kubernetes runtime, the test cluster) while faults are injected:
 * SIGKILL of the replica a call is on, mid-create, mid-file-write and mid-exec (restarted on its
 * port); restarts of the apiserver, etcd and the kubelet; a client vanishing mid-stream; a
 * sandbox killing its own exec agent; every replica down while sandboxes reach their lifetime.
 * Afterwards: no pod without a record Hangar serves, no record stuck non-terminal, one sandbox per
 * request id, every exec complete with its exact output or failed with a typed status. The counts
 * go to .build/chaos/result.json (docs/benchmarks.md reports the long run).
 *
 * HANGAR_CHAOS_CYCLES (default 60, the CI size; 1000 for the long run), HANGAR_CHAOS_WORKERS (4),
 * HANGAR_CHAOS_SEED, HANGAR_CHAOS_CLUSTER_FAULTS (rounds of apiserver+etcd+kubelet restarts, 1).
 */
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { afterAll, expect, test } from "vitest";
import {
  type CallError,
  type Client,
  core,
  exec,
  mainRunning,
  NS,
  now,
  OUT_DIR,
  Replica,
  restartDaemon,
  sandboxPods,
  sleep,
  statusName,
  unary,
} from "./harness.js";
import { KILL_GIVE_UP_MS } from "../../core/kill.js";

const CYCLES = Number(process.env.HANGAR_CHAOS_CYCLES ?? 60);
const WORKERS = Number(process.env.HANGAR_CHAOS_WORKERS ?? 4);
const SEED = Number(process.env.HANGAR_CHAOS_SEED ?? Date.now() % 1_000_000);
const CLUSTER_ROUNDS = Number(process.env.HANGAR_CHAOS_CLUSTER_FAULTS ?? 1);
const RUN = `r${SEED}-${randomBytes(3).toString("hex")}`;
const RUN_TAG = `chaos:${RUN}`;
const LIFETIME_S = 12;

/** mulberry32: the fault plan is reproducible from the seed (timing is not). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(SEED);
const FAULTS = ["none", "replica-mid-create", "replica-mid-write", "replica-mid-exec", "client-vanish", "agent-kill"] as const;
type Fault = (typeof FAULTS)[number];

const replicaEnv = {
  HANGAR_KUBE_EXEC_AGENT: "true",
  HANGAR_KUBE_WARM_POOLS: "python:3.11=2",
  HANGAR_REAP_INTERVAL_MS: "500",
  HANGAR_RETENTION_SECONDS: "1800",
  HANGAR_MAX_SANDBOXES: "500",
  HANGAR_MAX_EXECS_PER_SANDBOX: "16",
  HANGAR_STARTUP_TIMEOUT_SECONDS: "180",
};
const replicas = [new Replica("hangar-a", replicaEnv), new Replica("hangar-b", replicaEnv)];

const counts = {
  cycles: 0,
  cycles_completed: 0,
  faults: Object.fromEntries(FAULTS.map((f) => [f, 0])) as Record<Fault, number>,
  replica_kills: { "mid-create": 0, "mid-write": 0, "mid-exec": 0, "all-down": 0 },
  replica_kill_skipped: 0,
  cluster_faults: [] as { daemon: string; at_s: number; back_ms: number }[],
  creates: 0,
  create_retries: 0,
  start_failed: 0,
  writes_ok: 0,
  writes_failed_typed: 0,
  execs_ok: 0,
  execs_failed_typed: 0,
  vanished_execs_cleaned: 0,
  agent_kills: 0,
  errors_by_status: {} as Record<string, number>,
  replica_restart_ms: [] as number[],
  lifetime: { replicas_up_lag_ms: [] as number[], replicas_down_lag_ms: [] as number[] },
  violations: [] as string[],
};
const violation = (what: string) => {
  counts.violations.push(what);
  console.error(`chaos: VIOLATION ${what}`);
};
const codeOf = (e: unknown) => (e as CallError).code;
/** Statuses a caller can act on; UNKNOWN, INTERNAL and DATA_LOSS (and a stream without an exit) are not. */
const typed = (e: unknown) => {
  const c = codeOf(e);
  return typeof c === "number" && c >= 0 && ![2, 13, 15].includes(c);
};
const noteError = (e: unknown, where: string) => {
  const name = typeof codeOf(e) === "number" && codeOf(e) >= 0 ? statusName(codeOf(e)) : "NO_EXIT";
  counts.errors_by_status[name] = (counts.errors_by_status[name] ?? 0) + 1;
  if (!typed(e)) violation(`${where}: untyped error ${name}: ${(e as Error).message}`);
};

/** A replica that is up, as a Service would pick one. */
async function pick(): Promise<Replica> {
  for (const t0 = now(); now() - t0 < 180_000;) {
    const up = replicas.filter((r) => r.up);
    if (up.length) return up[Math.floor(rand() * up.length)];
    await sleep(100);
  }
  throw new Error("no replica up for 180 s");
}

/** fn on some replica, again on transport-level failures (the replica died, the apiserver is away) for up to 3 minutes. */
const RETRYABLE = new Set([1, 4, 8, 14]); // CANCELLED, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, UNAVAILABLE
async function retry<T>(where: string, fn: (c: Client) => Promise<T>, extra: (e: unknown) => boolean = () => false): Promise<T> {
  for (const t0 = now(); ;) {
    const r = await pick();
    try {
      return await fn(r.client);
    } catch (e) {
      noteError(e, where);
      if (!(RETRYABLE.has(codeOf(e)) || extra(e)) || now() - t0 > 180_000) throw e;
      await sleep(250);
    }
  }
}

let replicaFault = false;
/**
 * Holds the one replica fault at a time (one replica always stays up): waits up to 20 s for the
 * other replica fault to end. False (counted as skipped) when it did not.
 */
async function reserve(): Promise<boolean> {
  for (const t0 = now(); now() - t0 < 20_000; await sleep(100)) {
    if (!replicaFault && replicas.every((x) => x.up)) {
      replicaFault = true;
      return true;
    }
  }
  counts.replica_kill_skipped++;
  return false;
}

/** With the reservation held: SIGKILL of `r` after `delayMs`, then its restart on the same port. */
async function killSoon(r: Replica, delayMs: number, kind: keyof typeof counts.replica_kills): Promise<void> {
  counts.replica_kills[kind]++;
  try {
    await sleep(delayMs);
    await r.kill();
    await sleep(300 + rand() * 1500);
    const t0 = now();
    await r.start();
    counts.replica_restart_ms.push(now() - t0);
  } finally {
    replicaFault = false;
  }
}

/** A client that cancels its exec after the first output: its command must not outlive the call. */
async function vanish(id: string, rid: string): Promise<void> {
  const r = await pick();
  await exec(r.client, id, ["/bin/sh", "-c", "echo up; while :; do sleep 1; done", `vanish-${rid}`], {
    onOutput: (call) => call.cancel(),
  }).then(
    () => violation(`${id}: a cancelled exec reported an exit`),
    (e: unknown) => {
      if (codeOf(e) !== 1) noteError(e, "vanish");
    },
  );
  // Its command must not outlive the call.
  const probe = [
    "/bin/sh",
    "-c",
    'for p in /proc/[0-9]*; do { tr "\\0" " " < $p/cmdline; } 2>/dev/null | grep -q "vanish-$0" && echo "${p#/proc/}"; done; true',
    rid,
  ];
  let left = "?";
  // As long as Hangar's kill may take before it counts as failed (core/kill.ts, ADR 0032): the same bound.
  for (const t0 = now(); now() - t0 < KILL_GIVE_UP_MS; await sleep(500)) {
    left = (await retry("probe", (c) => exec(c, id, probe))).out.trim();
    if (!left) break;
  }
  if (left) violation(`${id}: the command of a vanished client still runs after ${KILL_GIVE_UP_MS / 1000} s (pids ${left})`);
  else counts.vanished_execs_cleaned++;
}

const TERMINAL = new Set(["STATE_COMPLETED", "STATE_FAILED", "STATE_TERMINATED"]);
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const FILE = "/tmp/chaos.dat";
type Sandbox = {
  sandbox_id: string;
  status?: { state?: string; state_reason?: string; start_time?: { seconds?: string; nanos?: number } };
};

async function waitRunning(id: string, rid: string, spec: object): Promise<Sandbox | undefined> {
  let missingSince: number | undefined;
  for (const t0 = now(); now() - t0 < 240_000;) {
    let s: Sandbox;
    try {
      s = await retry("get", (c) => unary<Sandbox>(c, "GetSandbox", { sandbox_id: id }, 10_000));
    } catch (e) {
      if (codeOf(e) !== 5) throw e;
      // NOT_FOUND for an acknowledged create: the sandbox was lost (the replica died before storing it).
      missingSince ??= now();
      if (now() - missingSince > 15_000) {
        violation(`acknowledged sandbox ${id} (request ${rid}) not found for 15 s: lost`);
        await retry("create", (c) => unary(c, "CreateSandbox", { sandbox: { spec }, request_id: rid }));
        missingSince = undefined;
      }
      await sleep(250);
      continue;
    }
    missingSince = undefined;
    if (s.status?.state === "STATE_RUNNING") return s;
    if (TERMINAL.has(s.status?.state ?? "")) {
      counts.start_failed++;
      console.error(`chaos: ${id} did not start: ${s.status?.state} ${s.status?.state_reason}`);
      return undefined;
    }
    await sleep(200);
  }
  violation(`sandbox ${id} not RUNNING after 240 s`);
  return undefined;
}

/** The file's bytes, or undefined when it is not there (NOT_FOUND). */
async function readBack(id: string): Promise<Buffer | undefined> {
  try {
    const r = await retry("read", (c) => unary<{ content?: Uint8Array }>(c, "ReadFile", { sandbox_id: id, path: FILE }));
    return Buffer.from(r.content ?? []);
  } catch (e) {
    if (codeOf(e) === 5) return undefined;
    throw e;
  }
}

async function cycle(w: number, i: number) {
  const fault = FAULTS[Math.floor(rand() * FAULTS.length)];
  counts.cycles++;
  counts.faults[fault]++;
  const rid = `${RUN}-${w}-${i}`;
  const spec = {
    containers: [{ name: "main", image: "python:3.11" }],
    max_lifetime_seconds: 600,
    tags: ["chaos", RUN_TAG, `cycle:${w}-${i}`],
  };

  // 1. create, retried with the same request id: every answer names the same sandbox.
  const ids = new Set<string>();
  const reserved = fault === "replica-mid-create" && (await reserve());
  const first = await pick();
  const killing = reserved ? killSoon(first, rand() * 40, "mid-create") : undefined;
  try {
    ids.add((await unary<Sandbox>(first.client, "CreateSandbox", { sandbox: { spec }, request_id: rid })).sandbox_id);
  } catch (e) {
    noteError(e, "create");
    if (!RETRYABLE.has(codeOf(e))) throw e;
  }
  await killing;
  counts.creates++;
  if (!ids.size || fault === "replica-mid-create") {
    counts.create_retries++;
    ids.add((await retry("create", (c) => unary<Sandbox>(c, "CreateSandbox", { sandbox: { spec }, request_id: rid }))).sandbox_id);
  }
  if (ids.size !== 1) violation(`request ${rid} answered with ${ids.size} sandboxes: ${[...ids].join(", ")}`);
  const id = [...ids][0];
  try {
    if (await waitRunning(id, rid, spec)) {
      await use(id, fault);
      counts.cycles_completed++;
    }
  } finally {
    await stop(id);
  }
}

/** Steps 2-4 of a cycle on a running sandbox. */
async function use(id: string, fault: Fault) {
  const rid = id;

  // 2. a file: acknowledged means all of it; a cut write leaves none or all of it, never part.
  const content = randomBytes(256 * 1024 + Math.floor(rand() * 1024));
  const reservedW = fault === "replica-mid-write" && (await reserve());
  const writer = await pick();
  const killingW = reservedW ? killSoon(writer, rand() * 30, "mid-write") : undefined;
  let written = false;
  try {
    await unary(writer.client, "WriteFile", { sandbox_id: id, path: FILE, content });
    written = true;
    counts.writes_ok++;
  } catch (e) {
    noteError(e, "write");
    counts.writes_failed_typed++;
  }
  await killingW;
  if (!written) {
    const seen = await readBack(id);
    if (seen && !seen.equals(content))
      violation(`${id}: a cut write left ${seen.length} of ${content.length} bytes (partial file visible)`);
    await retry("write", (c) => unary(c, "WriteFile", { sandbox_id: id, path: FILE, content }));
  }
  const back = await readBack(id);
  if (!back?.equals(content)) violation(`${id}: acknowledged write read back as ${back?.length ?? "missing"} bytes of ${content.length}`);

  // 3. the fault's exec.
  const want = `${sha(content)}\n`;
  const check = ["/bin/sh", "-c", `sha256sum ${FILE} | cut -c1-64; exit 7`];
  if (fault === "replica-mid-exec" || fault === "none") {
    const reservedE = fault === "replica-mid-exec" && (await reserve());
    const r = await pick();
    const argv = fault === "none" ? check : ["/bin/sh", "-c", `sleep 0.5; sha256sum ${FILE} | cut -c1-64; exit 7`];
    const killingE = reservedE ? killSoon(r, 100 + rand() * 300, "mid-exec") : undefined;
    try {
      const res = await exec(r.client, id, argv);
      if (res.out !== want || res.exitCode !== 7)
        violation(`${id}: exec completed with ${JSON.stringify(res)} instead of exit 7 and ${want.trim()}`);
      else counts.execs_ok++;
    } catch (e) {
      noteError(e, "exec");
      counts.execs_failed_typed++;
    }
    await killingE;
  } else if (fault === "client-vanish") {
    // This fault is the client's alone: no replica is killed while it runs (a replica that dies with the
    // command in flight is the replica faults' case; a command it started on the plain exec path then
    // outlives it: docs/benchmarks.md, ADR 0032). Skipped, as replica faults are, when it waits 20 s.
    if (await reserve()) {
      try {
        await vanish(id, rid);
      } finally {
        replicaFault = false;
      }
    }
  } else if (fault === "agent-kill") {
    counts.agent_kills++;
    const r = await pick();
    // The pattern is quoted apart so this script's own command line does not match it.
    // A process can end between the glob and the read: the shell reports a failed `<` itself,
    // before a `2>` after it applies, so the read is wrapped (seen once in CI as a violation). The
    // agent's guard (the same binary, ADR 0045) exits by itself once the agent is killed, so a kill
    // can find its pid free: that message is not the command's result (seen in a 200-cycle run).
    const kill = [
      "/bin/sh",
      "-c",
      'for p in /proc/[0-9]*; do case "$( { tr "\\0" " " < $p/cmdline; } 2>/dev/null)" in *hangar-"agent"-*) kill -9 "${p#/proc/}" 2>/dev/null;; esac; done; echo killed',
    ];
    // The command that killed the agent running it: its exact result, or a typed failure.
    await exec(r.client, id, kill).then(
      (res) => {
        if (res.out !== "killed\n" || res.exitCode !== 0)
          violation(`${id}: the agent-killing command completed with ${JSON.stringify(res)} instead of exit 0 and "killed"`);
      },
      (e: unknown) => noteError(e, "agent-kill"),
    );
  }

  // 4. whatever happened, the sandbox still runs commands exactly (typed failures retried).
  const res = await retry("exec", (c) => exec(c, id, check), typed);
  if (res.out !== want || res.exitCode !== 7)
    violation(`${id}: exec after ${fault} gave ${JSON.stringify(res)} instead of exit 7 and ${want.trim()}`);
  else counts.execs_ok++;
}

async function stop(id: string) {
  await retry("delete", (c) => unary(c, "DeleteSandbox", { sandbox_id: id, grace_period_seconds: 0 })).catch((e: unknown) => {
    if (codeOf(e) !== 5) throw e; // NOT_FOUND: an earlier, cut attempt went through
  });
}

async function clusterFaults(stopAt: () => boolean, t0: number) {
  const plan = Array.from({ length: CLUSTER_ROUNDS }, () => ["kube-apiserver", "etcd", "kubelet"] as const).flat();
  for (const d of plan) {
    await sleep(8_000 + rand() * 8_000);
    if (stopAt()) return;
    const at = (now() - t0) / 1000;
    console.error(`chaos: restarting ${d} at ${at.toFixed(1)} s`);
    counts.cluster_faults.push({ daemon: d, at_s: +at.toFixed(1), back_ms: await restartDaemon(d) });
  }
}

/** Sandboxes reaching their lifetime: gone within lifetime + 5 s, with the replicas up and with every replica down. */
async function lifetimes(replicasDown: boolean) {
  const spec = {
    containers: [{ name: "main", image: "python:3.11" }],
    max_lifetime_seconds: LIFETIME_S,
    tags: ["chaos", RUN_TAG, `lifetime:${replicasDown ? "down" : "up"}`],
  };
  const made = await Promise.all(
    [0, 1, 2].map((k) =>
      retry("create", (c) => unary<Sandbox>(c, "CreateSandbox", { sandbox: { spec }, request_id: `${RUN}-life-${replicasDown}-${k}` })),
    ),
  );
  const expiry = new Map<string, number>();
  for (const m of made) {
    const s = await waitRunning(m.sandbox_id, "", spec);
    if (!s) continue;
    const st = s.status?.start_time;
    expiry.set(m.sandbox_id, Number(st?.seconds ?? 0) * 1000 + (st?.nanos ?? 0) / 1e6 + LIFETIME_S * 1000);
  }
  if (replicasDown) {
    counts.replica_kills["all-down"] += 2;
    await Promise.all(replicas.map((r) => r.kill()));
  }
  const gone = new Map<string, number>();
  const last = Math.max(...expiry.values()) + 30_000;
  while (gone.size < expiry.size && now() < last) {
    const pods = await sandboxPods(RUN_TAG);
    for (const id of expiry.keys()) {
      const p = pods.find((x) => x.metadata?.labels?.["hangar.dev/sandbox-id"] === id);
      if (!gone.has(id) && (!p || !mainRunning(p))) gone.set(id, now());
    }
    await sleep(200);
  }
  const lags = counts.lifetime[replicasDown ? "replicas_down_lag_ms" : "replicas_up_lag_ms"];
  for (const [id, exp] of expiry) {
    const lag = (gone.get(id) ?? Infinity) - exp;
    lags.push(Math.round(lag));
    if (!(lag <= 5000))
      violation(
        `${id}: still running ${Number.isFinite(lag) ? `${Math.round(lag)} ms` : "30 s"} past its lifetime (replicas ${replicasDown ? "down" : "up"})`,
      );
  }
  if (replicasDown) {
    for (const r of replicas) await r.start();
    for (const id of expiry.keys()) {
      const s = await retry("get", (c) => unary<Sandbox>(c, "GetSandbox", { sandbox_id: id }));
      if (!TERMINAL.has(s.status?.state ?? ""))
        violation(`${id}: after its lifetime with every replica down, Hangar reports ${s.status?.state}`);
    }
  }
}

const report = (final: boolean) =>
  writeFileSync(
    `${OUT_DIR}/result.json`,
    `${JSON.stringify({ when: new Date().toISOString(), final, run: RUN, seed: SEED, workers: WORKERS, ...counts }, null, 2)}\n`,
  );
// A long run cut short still leaves its counts so far.
const progress = setInterval(() => report(false), 30_000);
progress.unref();

afterAll(async () => {
  clearInterval(progress);
  report(true);
  await Promise.all(replicas.map((r) => r.stop()));
  // Release this run's records (finalizers) so the namespace is left as found.
  for (const p of await sandboxPods(RUN_TAG)) {
    const name = p.metadata?.name ?? "";
    await core.patchNamespacedPod({ name, namespace: NS, body: [{ op: "remove", path: "/metadata/finalizers" }] }).catch(() => undefined);
    await core.deleteNamespacedPod({ name, namespace: NS, gracePeriodSeconds: 0 }).catch(() => undefined);
  }
});

test(`${CYCLES} cycles from ${WORKERS} clients under faults lose nothing`, async () => {
  console.error(`chaos: run ${RUN}, seed ${SEED}, ${CYCLES} cycles, ${WORKERS} workers`);
  for (const r of replicas) await r.start();
  const t0 = now();
  let done = false;
  let injected = false;
  const injector = clusterFaults(() => done, t0).finally(() => (injected = true));
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, w) => {
      // At least CYCLES, and on until every cluster fault was injected under load.
      for (let i = next++; i < CYCLES || !injected; i = next++) {
        try {
          await cycle(w, i);
        } catch (e) {
          violation(`cycle ${w}-${i}: ${(e as Error).message}`);
        }
      }
    }),
  );
  done = true;
  await injector;
  await lifetimes(false);
  await lifetimes(true);

  // Settle: every sandbox of the run reaches a terminal state.
  type List = { sandboxes?: Sandbox[]; next_page_token?: string };
  const all = async () => {
    const out: Sandbox[] = [];
    let token = "";
    do {
      const r = await retry("list", (c) =>
        unary<List>(c, "ListSandboxes", { tags: [RUN_TAG], show_terminated: true, page_size: 500, page_token: token }),
      );
      out.push(...(r.sandboxes ?? []));
      token = r.next_page_token ?? "";
    } while (token);
    return out;
  };
  let open: Sandbox[] = [];
  for (const t1 = now(); now() - t1 < 60_000; await sleep(1000)) {
    open = (await all()).filter((s) => !TERMINAL.has(s.status?.state ?? ""));
    if (!open.length) break;
  }
  for (const s of open) violation(`record stuck ${s.status?.state} (${s.status?.state_reason}): ${s.sandbox_id}`);

  // Every pod of the run is a sandbox Hangar serves; one per request id; none still running.
  const pods = await sandboxPods(RUN_TAG);
  const perCycle = new Map<string, number>();
  for (const p of pods) {
    const id = p.metadata?.labels?.["hangar.dev/sandbox-id"] ?? "";
    try {
      await retry("get", (c) => unary(c, "GetSandbox", { sandbox_id: id }));
    } catch (e) {
      violation(`pod ${p.metadata?.name} has no record Hangar serves (${statusName(codeOf(e))})`);
    }
    const cyc = JSON.parse(p.metadata?.annotations?.["hangar.dev/tags"] ?? "[]").find((t: string) => t.startsWith("cycle:"));
    if (cyc) perCycle.set(cyc, (perCycle.get(cyc) ?? 0) + 1);
    if (mainRunning(p)) violation(`pod ${p.metadata?.name} still runs after the run`);
  }
  for (const [c, n] of perCycle) if (n > 1) violation(`${c}: ${n} pods for one request id`);
  console.error(`chaos: ${JSON.stringify(counts)}`);
  expect(counts.violations).toEqual([]);
  // The run injected what it claims: every kind of fault at least once (CI size and up).
  expect(counts.cluster_faults.map((f) => f.daemon).sort()).toEqual(
    Array.from({ length: CLUSTER_ROUNDS }, () => ["etcd", "kube-apiserver", "kubelet"])
      .flat()
      .sort(),
  );
  if (CYCLES >= 30) {
    for (const k of ["mid-create", "mid-write", "mid-exec"] as const)
      expect(counts.replica_kills[k], `replica kills ${k}`).toBeGreaterThan(0);
    expect(counts.vanished_execs_cleaned + counts.agent_kills).toBeGreaterThan(1);
  }
  // Honest: a run where starts fail with a typed FAILED is not a pass. At least 90 % of the cycles
  // ran whole (create, write, exec, stop); the rest may have failed to start under the faults.
  expect(counts.cycles_completed, `cycles completed (${counts.start_failed} failed to start)`).toBeGreaterThanOrEqual(
    Math.ceil(0.9 * CYCLES),
  );
});
