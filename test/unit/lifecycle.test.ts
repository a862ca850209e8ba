import { describe, expect, it } from "vitest";
import {
  canMove,
  expiresAtMs,
  oldestStartingMs,
  planReap,
  reapLagMs,
  stateOnExit,
  type LifecyclePolicy,
} from "../../controller/lifecycle.js";
import type { State } from "../../core/types.js";
import { record } from "./fixtures.js";

const policy: LifecyclePolicy = { retentionMs: 3_600_000, expiryGraceMs: 0, stuckAfterMs: 30_000 };

describe("planReap", () => {
  const cases: { name: string; rec: ReturnType<typeof record>; now: number; want: ReturnType<typeof planReap> }[] = [
    { name: "running, lifetime left", rec: record(), now: 61_999, want: [] },
    { name: "running, lifetime reached exactly", rec: record(), now: 62_000, want: [{ t: "expire", id: record().id, graceMs: 0 }] },
    {
      name: "not started yet counts from create",
      rec: record({ state: "CREATING", startedAtMs: undefined }),
      now: 61_000,
      want: [{ t: "expire", id: record().id, graceMs: 0 }],
    },
    { name: "no lifetime never expires", rec: record({ effectiveLifetimeSeconds: 0 }), now: 10 ** 12, want: [] },
    {
      name: "stopping within grace is left alone",
      rec: record({ state: "TERMINATING", stop: { requestedAtMs: 5_000, graceMs: 10_000, why: "deleted" } }),
      now: 44_999,
      want: [],
    },
    {
      name: "stopping past grace + stuck window is force-killed",
      rec: record({ state: "TERMINATING", stop: { requestedAtMs: 5_000, graceMs: 10_000, why: "deleted" } }),
      now: 45_000,
      want: [{ t: "force-kill", id: record().id }],
    },
    { name: "terminal within retention is kept", rec: record({ state: "COMPLETED", endedAtMs: 10_000 }), now: 3_609_999, want: [] },
    {
      name: "terminal past retention is forgotten",
      rec: record({ state: "FAILED", endedAtMs: 10_000 }),
      now: 3_610_000,
      want: [{ t: "forget", id: record().id }],
    },
    { name: "terminal sandboxes never expire again", rec: record({ state: "COMPLETED", endedAtMs: 3_000_000 }), now: 3_000_001, want: [] },
  ];
  for (const c of cases) it(c.name, () => expect(planReap([c.rec], c.now, policy)).toEqual(c.want));

  it("reads only its inputs: frozen records, a `now` far from the real clock's", () => {
    const freeze = <T extends object>(o: T): T => {
      for (const v of Object.values(o)) if (v && typeof v === "object") freeze(v);
      return Object.freeze(o);
    };
    // b ended 1,000 s before `now`: kept by the given clock, forgotten by the real one.
    const recs = [
      record(),
      record({ id: "b", state: "COMPLETED", endedAtMs: 4_000_000 }),
      record({ id: "c", state: "FAILED", endedAtMs: 0 }),
    ].map(freeze);
    expect(planReap(recs, 5_000_000, policy)).toEqual([
      { t: "expire", id: record().id, graceMs: 0 },
      { t: "forget", id: "c" },
    ]);
  });
  it("expiresAtMs", () => expect(expiresAtMs(record())).toBe(62_000));
});

describe("reapLagMs: how long the longest-due reap action has been due", () => {
  const cases: { name: string; recs: ReturnType<typeof record>[]; now: number; want: number }[] = [
    { name: "nothing due", recs: [record()], now: 61_999, want: 0 },
    { name: "an expiry due since 5 s", recs: [record()], now: 67_000, want: 5_000 },
    {
      name: "a stop past grace + stuck window, 1 s",
      recs: [record({ state: "TERMINATING", stop: { requestedAtMs: 5_000, graceMs: 10_000, why: "deleted" } })],
      now: 46_000,
      want: 1_000,
    },
    { name: "a forget due since 2 s", recs: [record({ state: "FAILED", endedAtMs: 10_000 })], now: 3_612_000, want: 2_000 },
    {
      name: "the longest of several",
      recs: [record(), record({ id: "b", state: "FAILED", endedAtMs: 0 })],
      now: 3_600_500,
      want: 3_538_500,
    },
    { name: "no lifetime is never due", recs: [record({ effectiveLifetimeSeconds: 0 })], now: 10 ** 12, want: 0 },
  ];
  for (const c of cases) it(c.name, () => expect(reapLagMs(c.recs, c.now, policy)).toBe(c.want));
});

describe("oldestStartingMs: the age of the oldest sandbox still starting", () => {
  const cases: { name: string; recs: ReturnType<typeof record>[]; now: number; want: number }[] = [
    { name: "none starting", recs: [record()], now: 50_000, want: 0 },
    { name: "one CREATING", recs: [record({ state: "CREATING", createdAtMs: 1_000 })], now: 31_000, want: 30_000 },
    {
      name: "the oldest of PENDING and CREATING; RUNNING and terminal ones ignored",
      recs: [
        record({ id: "a", state: "PENDING", createdAtMs: 20_000 }),
        record({ id: "b", state: "CREATING", createdAtMs: 10_000 }),
        record({ id: "c", state: "RUNNING", createdAtMs: 0 }),
        record({ id: "d", state: "FAILED", createdAtMs: 0, endedAtMs: 1 }),
      ],
      now: 40_000,
      want: 30_000,
    },
  ];
  for (const c of cases) it(c.name, () => expect(oldestStartingMs(c.recs, c.now)).toBe(c.want));
});

describe("stateOnExit", () => {
  const cases: [string, Parameters<typeof stateOnExit>, State, RegExp][] = [
    ["natural exit 0 is COMPLETED", [record(), 0, "x"], "COMPLETED", /exited with code 0/],
    ["natural non-zero exit is COMPLETED", [record(), 3, "x"], "COMPLETED", /code 3/],
    [
      "stopped by delete",
      [record({ state: "TERMINATING", stop: { requestedAtMs: 0, graceMs: 0, why: "deleted" } }), 137, "x"],
      "COMPLETED",
      /delete/,
    ],
    [
      "lifetime expiry",
      [record({ state: "TERMINATING", stop: { requestedAtMs: 0, graceMs: 0, why: "expired" } }), 137, "x"],
      "COMPLETED",
      /max lifetime/,
    ],
    ["exit while starting is FAILED", [record({ state: "CREATING", startedAtMs: undefined }), 1, "boom"], "FAILED", /during start/],
    [
      "exit after the start finished, while RUNNING is being stored, is a natural exit",
      [record({ state: "CREATING", startedAtMs: 5 }), 0, "x"],
      "COMPLETED",
      /^main process exited with code 0$/,
    ],
    ["command that cannot start is FAILED", [record(), 1, "x", "bwrap: execvp nope"], "FAILED", /could not start/],
    [
      "ended by the platform (pod deleted) says so",
      [record(), 143, "Error", undefined, "the pod was deleted"],
      "COMPLETED",
      /^the pod was deleted; exit code 143$/,
    ],
    [
      "a Hangar stop wins over the platform's cause",
      [record({ state: "TERMINATING", stop: { requestedAtMs: 0, graceMs: 0, why: "deleted" } }), 0, "x", undefined, "the pod was deleted"],
      "COMPLETED",
      /stopped by delete/,
    ],
  ];
  for (const [name, args, state, reason] of cases) {
    it(name, () => {
      const got = stateOnExit(...args);
      expect(got.state).toBe(state);
      expect(got.reason).toMatch(reason);
    });
  }
});

describe("canMove", () => {
  const cases: [State, State, boolean][] = [
    ["PENDING", "CREATING", true],
    ["CREATING", "RUNNING", true],
    ["RUNNING", "TERMINATING", true],
    ["TERMINATING", "RUNNING", false],
    ["TERMINATING", "COMPLETED", true],
    ["COMPLETED", "FAILED", false],
    ["FAILED", "RUNNING", false],
    ["RUNNING", "CREATING", false],
  ];
  for (const [from, to, ok] of cases) it(`${from} -> ${to}: ${ok}`, () => expect(canMove(from, to)).toBe(ok));
});
