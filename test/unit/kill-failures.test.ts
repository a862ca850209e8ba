/**
 * Kills are never silent (issue 38, ADR 0032): a kill that fails is retried (bounded, with
 * backoff), counted in hangar_kill_failures_total, logged with the sandbox id, and surfaced: the
 * call's error (a timeout whose kill failed is INTERNAL CWSANDBOX_COMMAND_NOT_KILLED, never a plain
 * DEADLINE_EXCEEDED) or the sandbox's state_reason (the reaper's force kill). A kill still going on
 * when the call must answer is a timeout (DEADLINE_EXCEEDED), its end reported later if it fails.
 * The layer below is the in-memory runtime: `stubborn` is a command whose kill fails, `sticky` one
 * whose kill never answers, `slowkill MS` / `slowfail MS` ones whose kill confirms / fails after MS.
 */
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killConfirmMs } from "../../api/exec-deadline.js";
import { createMetrics } from "../../api/metrics.js";
import { loadApi, PROTO_DIR } from "../../api/proto.js";
import { createController } from "../../controller/controller.js";
import {
  KILL_GIVE_UP_MS,
  KILL_RETRY_BOUND_MS,
  KILL_TRY_TIMEOUT_MS,
  KillFailed,
  killFailures,
  killRetryDelays,
  retryKill,
  withKillNote,
} from "../../core/kill.js";
import { fakeRuntime } from "./fake-runtime.js";
import { spec } from "./fixtures.js";
import { startTestServer, TEST_KEY } from "./test-server.js";

const logged: { o: Record<string, unknown>; m: string }[] = [];
killFailures.setLog({ warn: (o, m) => logged.push({ o: o as Record<string, unknown>, m }) });
const failures = async (runtime: string, reason: string) => {
  const text = await createMetrics(() => ({})).registry.metrics();
  return Number(text.match(new RegExp(`^hangar_kill_failures_total\\{runtime="${runtime}",reason="${reason}"\\} (\\d+)$`, "m"))?.[1] ?? 0);
};
const until = async (what: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 500 && !(await what()); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await what()).toBe(true);
};

describe("the kill retry (pure)", () => {
  it.each([
    [1000, 250, 2000, [250, 500]],
    [20_000, 250, 2000, [250, 500, 1000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000]],
    [100, 250, 2000, []],
    [1_000, 50, 200, [50, 100, 200, 200, 200, 200]],
  ])("bound %i ms, first %i, max %i: pauses %j", (bound, first, max, want) => {
    expect(killRetryDelays(bound, first, max)).toEqual(want);
  });
  it("the default pauses stay within the documented bound", () => {
    const d = killRetryDelays();
    expect(d.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(KILL_RETRY_BOUND_MS);
    expect(d.length).toBeGreaterThan(3);
  });
  it("retries a failing kill with the pauses, then succeeds; or rejects with the last error once they are spent", async () => {
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);
    let n = 0;
    await expect(
      retryKill(
        async () => {
          if (++n < 3) throw new KillFailed(`try ${n}`, "still_running");
        },
        { delays: [10, 20, 40], sleep },
      ),
    ).resolves.toEqual({ tries: 3 });
    expect(slept).toEqual([10, 20]);
    slept.length = 0;
    n = 0;
    await expect(
      retryKill(
        async () => {
          throw new KillFailed(`try ${++n}`, "write_failed");
        },
        { delays: [10, 20], sleep },
      ),
    ).rejects.toThrow("try 3");
    expect(slept).toEqual([10, 20]);
    // The command ended meanwhile: nothing left to kill.
    await expect(
      retryKill(
        async () => {
          throw new Error("no");
        },
        { delays: [10, 20], sleep, stop: () => true },
      ),
    ).resolves.toEqual({ tries: 1 });
  });
  it("bounded: when every try uses all of its time, the whole kill (tries and pauses) ends within KILL_GIVE_UP_MS of its first try", async () => {
    let clock = 0;
    const starts: number[] = [];
    const given: number[] = [];
    const tryAll = async (ms?: number) => {
      starts.push(clock);
      given.push(ms ?? NaN);
      clock += ms ?? KILL_TRY_TIMEOUT_MS; // no answer: the try takes all it was given (before the bound: its own fixed time)
      throw new KillFailed(`try ${starts.length}: no answer`, "unconfirmed");
    };
    const bounded = { boundMs: KILL_RETRY_BOUND_MS, tryTimeoutMs: KILL_TRY_TIMEOUT_MS, now: () => clock };
    await expect(retryKill(tryAll, { ...bounded, sleep: async (ms) => void (clock += ms) })).rejects.toThrow(/no answer/);
    expect(clock).toBeLessThanOrEqual(KILL_GIVE_UP_MS);
    expect(Math.max(...starts)).toBeLessThanOrEqual(KILL_RETRY_BOUND_MS);
    expect(given.every((ms) => ms <= KILL_TRY_TIMEOUT_MS)).toBe(true);
    expect(starts.length).toBeGreaterThan(3);
    // Pauses that run late (a loaded event loop): still no try past the bound, none ending after KILL_GIVE_UP_MS.
    clock = 0;
    starts.length = 0;
    given.length = 0;
    await expect(retryKill(tryAll, { ...bounded, sleep: async (ms) => void (clock += ms + 1_700) })).rejects.toThrow(/no answer/);
    expect(Math.max(...starts)).toBeLessThanOrEqual(KILL_RETRY_BOUND_MS);
    expect(clock).toBeLessThanOrEqual(KILL_GIVE_UP_MS);
  });
  it.each([
    ["deleted", "x", "deleted; its processes could not be killed (x), retried"],
    ["deleted; its processes could not be killed (x), retried", "y", "deleted; its processes could not be killed (y), retried"],
  ])("state reason %j after a failed kill (%s)", (reason, why, want) => {
    expect(withKillNote(reason, new Error(why))).toBe(want);
  });
  it("half the deadline margin, at least 0.2 s, for a timeout's kill to settle before the call answers", () => {
    expect([killConfirmMs(5000), killConfirmMs(1000), killConfirmMs(0)]).toEqual([2500, 500, 200]);
  });
});

const MARGIN_MS = 2000;
const DEADLINE_MS = 6000;

describe("a failed kill over the real gRPC server", () => {
  const rt = fakeRuntime();
  let s: Awaited<ReturnType<typeof startTestServer>>;
  type Client = {
    CreateSandbox(r: object, m: grpc.Metadata, cb: (e: grpc.ServiceError | null, s: { sandbox_id: string }) => void): void;
    StreamExec(m: grpc.Metadata, o?: grpc.CallOptions): grpc.ClientDuplexStream<object, Record<string, unknown>>;
    Exec(r: object, m: grpc.Metadata, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, r: unknown) => void): void;
    close(): void;
  };
  let c: Client;
  let id = "";
  const md = () => {
    const m = new grpc.Metadata();
    m.set("authorization", `Bearer ${TEST_KEY}`);
    return m;
  };
  beforeAll(async () => {
    // Deadlines of 6 s, killed at 4 s: the answer (at most half the margin after the kill) has 1 s to spare on a loaded machine.
    s = await startTestServer(rt, { exec: { deadlineMarginMs: MARGIN_MS }, controller: { maxExecsPerSandbox: 8 } });
    const { v1 } = loadApi(PROTO_DIR);
    c = new v1.SandboxService(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure()) as unknown as Client;
    id = (
      await new Promise<{ sandbox_id: string }>((res, rej) =>
        c.CreateSandbox({ sandbox: { spec: { containers: [{ name: "main", image: "python:3.11" }] } } }, md(), (e, r) =>
          e ? rej(e) : res(r),
        ),
      )
    ).sandbox_id;
    await new Promise((r) => setTimeout(r, 10));
  });
  afterAll(async () => {
    c.close();
    await s.api.shutdown(500);
    await s.controller.close();
  });
  const streamExec = (argv: string[], deadlineMs = DEADLINE_MS) =>
    new Promise<grpc.ServiceError>((resolve, reject) => {
      const call = c.StreamExec(md(), { deadline: Date.now() + deadlineMs });
      call.on("data", () => undefined);
      call.on("error", (e: grpc.ServiceError) => resolve(e));
      call.on("end", () => reject(new Error("the stream ended without an error")));
      call.write({ init: { sandbox_id: id, command: argv } });
      call.end();
    });

  it("StreamExec: a timeout whose kill fails answers INTERNAL CWSANDBOX_COMMAND_NOT_KILLED (the command may still run), counted and logged with the sandbox id", async () => {
    const before = await failures("fake", "still_running");
    const e = await streamExec(["stubborn"]);
    expect(e.code).toBe(grpc.status.INTERNAL);
    expect(e.details).toMatch(/timed out after .* could not be killed: it may still run/);
    expect(e.details).toContain("pids 4242 still there");
    expect(await failures("fake", "still_running")).toBe(before + 1);
    expect(logged.some((l) => l.o.sandbox_id === id && l.o.reason === "still_running" && /may still run/.test(l.m))).toBe(true);
  });

  // Hangar's own answer, not the client's deadline (which has no "timed out after").
  const timedOut = (e: grpc.ServiceError) => {
    expect(e.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(e.details).toMatch(/^command timed out after \S+s; it is being killed \(not confirmed yet/);
  };

  it("StreamExec: a timeout whose kill is slow but succeeds answers DEADLINE_EXCEEDED (a timeout, not INTERNAL), and nothing is counted", async () => {
    const before = await failures("fake", "still_running");
    timedOut(await streamExec(["slowkill", "1500"]));
    await new Promise((r) => setTimeout(r, 1000)); // the kill has landed
    expect(await failures("fake", "still_running")).toBe(before);
  });

  it("StreamExec: a timeout whose kill never answers is a timeout too: the kill goes on, the caller is not told it is done", async () => {
    timedOut(await streamExec(["sticky"]));
  });

  it("StreamExec: a kill still going on when the call answered, that then fails, is counted and logged with the sandbox id", async () => {
    const before = await failures("fake", "still_running");
    const n = logged.length;
    timedOut(await streamExec(["slowfail", String(MARGIN_MS)]));
    await until(async () => (await failures("fake", "still_running")) === before + 1);
    expect(logged.slice(n).some((l) => l.o.sandbox_id === id && /may still run/.test(l.m) && String(l.o.err).includes("pids 4343"))).toBe(
      true,
    );
  });

  const unary = (argv: string[]) =>
    new Promise<grpc.ServiceError>((resolve, reject) =>
      c.Exec({ sandbox_id: id, command: argv }, md(), { deadline: Date.now() + DEADLINE_MS }, (err) =>
        err ? resolve(err) : reject(new Error("answered")),
      ),
    );

  it("Exec (unary): the same", async () => {
    const e = await unary(["stubborn"]);
    expect(e.code).toBe(grpc.status.INTERNAL);
    expect(e.details).toMatch(/may still run/);
    timedOut(await unary(["slowkill", "1500"]));
  });

  it("a cancelled stream whose kill fails: counted and logged with the sandbox id (no caller is left to tell)", async () => {
    const before = await failures("fake", "still_running");
    const n = logged.length;
    const call = c.StreamExec(md());
    call.on("error", () => undefined);
    call.on("data", () => call.cancel()); // the ready frame: the command runs; then the client vanishes
    call.write({ init: { sandbox_id: id, command: ["stubborn"] } });
    await until(async () => (await failures("fake", "still_running")) === before + 1);
    expect(logged.slice(n).some((l) => l.o.sandbox_id === id)).toBe(true);
  });
});

describe("the reaper's force kill", () => {
  it("a force kill that fails is counted, logged with the sandbox id, shown in state_reason, and retried on a later sweep", async () => {
    let now = 1_000;
    const rt = fakeRuntime();
    const c = createController({
      runtime: rt,
      now: () => now,
      policy: { retentionMs: 10_000, expiryGraceMs: 0, stuckAfterMs: 1_000 },
      defaultLifetimeSeconds: 60,
      maxLifetimeSeconds: 600,
      maxSandboxes: 3,
      maxExecsPerSandbox: 1,
      maxExecs: 10,
      maxFileBytes: 1024,
      reapIntervalMs: 1000,
      log: { info() {}, warn() {}, error() {} },
    });
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await new Promise((res) => setImmediate(res));
    rt.stop = async (sid: string, graceMs: number) => {
      rt.calls.push(`stop ${sid} ${graceMs}`);
      if (graceMs === 0) throw new KillFailed("cgroup hangar/x still populated", "still_running");
    };
    const before = await failures("fake", "still_running");
    c.remove("alpha", r.id, { graceMs: 1000, allowMissing: false });
    now += 5_000;
    await c.reapOnce();
    expect(await failures("fake", "still_running")).toBe(before + 1);
    expect(logged.some((l) => l.o.sandbox_id === r.id && /force kill/.test(l.m))).toBe(true);
    expect(c.get("alpha", r.id).stateReason).toMatch(/could not be killed \(cgroup hangar\/x still populated\), retried/);
    now += 5_000;
    await c.reapOnce();
    expect(rt.calls.filter((x) => x === `stop ${r.id} 0`)).toHaveLength(2);
    await c.close();
  });
});
