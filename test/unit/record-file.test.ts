/**
 * The local runtime's records on disk (runtime/local/record-file.ts, ADR 0030): written whole or
 * not at all, a torn or corrupted file never stops a start, and what was not terminal when Hangar
 * died becomes terminal with the reason. The last block runs the controller over them: a create
 * is answered only once its record is on disk, and a "restarted" controller answers every
 * acknowledged id with a terminal record.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createController } from "../../controller/controller.js";
import type { SandboxRecord } from "../../core/types.js";
import { encodeRecord } from "../../runtime/record-codec.js";
import { afterRestart, createRecordFiles, localRecords } from "../../runtime/local/record-file.js";
import type { RuntimeEvent } from "../../runtime/types.js";
import { fakeRuntime } from "./fake-runtime.js";
import { record, spec } from "./fixtures.js";

const ID = "00000000-0000-4000-8000-000000000001";
const ID2 = "00000000-0000-4000-8000-000000000002";
const dirOf = () => path.join(mkdtempSync(path.join(os.tmpdir(), "hangar-records-")), "records");
const warnings: string[] = [];
const log = { warn: (_o: object, m: string) => void warnings.push(m), info() {}, error() {} };

describe("record files", () => {
  it("round-trips a record (bytes included), files 0600 in a 0700 directory", async () => {
    const dir = dirOf();
    const files = createRecordFiles(dir);
    const r = record({ id: ID, spec: spec({ env: { A: "1" } }), echo: { raw: Buffer.from([0, 1, 2]) }, serviceUrls: { "80/TCP": "x:80" } });
    await files.write(r);
    const { records, unreadable } = await files.load();
    expect(unreadable).toEqual([]);
    expect(records).toEqual([{ ...r, echo: { raw: expect.anything() } }]);
    expect(Buffer.from((records[0]?.echo as { raw: Uint8Array }).raw)).toEqual(Buffer.from([0, 1, 2]));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, `${ID}.json`)).mode & 0o777).toBe(0o600);
  });

  it("a records directory that exists with a looser mode is made 0700", async () => {
    const dir = dirOf();
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    await createRecordFiles(dir).write(record({ id: ID }));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("writes of one sandbox land in call order, encoded when asked (later changes to the object are not written)", async () => {
    const files = createRecordFiles(dirOf());
    const r = record({ id: ID, state: "CREATING" });
    const writes = [files.write(r)];
    r.state = "RUNNING";
    writes.push(files.write(r));
    r.state = "COMPLETED";
    writes.push(files.write(r));
    r.state = "FAILED"; // never written
    await Promise.all(writes);
    expect((await files.load()).records.map((x) => x.state)).toEqual(["COMPLETED"]);
  });

  it("remove deletes the record after its pending writes", async () => {
    const dir = dirOf();
    const files = createRecordFiles(dir);
    void files.write(record({ id: ID }));
    await files.remove(ID);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses an id that is not a sandbox id (no path outside the directory)", async () => {
    const dir = dirOf();
    const files = createRecordFiles(dir);
    await expect(files.write(record({ id: "../../etc/x" }))).rejects.toThrow(/not a sandbox id/);
    await files.remove("../x");
    expect(existsSync(path.join(dir, "..", "x"))).toBe(false);
  });

  it("a torn write (its temporary file) is dropped; the record it would have replaced stands", async () => {
    const dir = dirOf();
    const files = createRecordFiles(dir);
    await files.write(record({ id: ID, state: "CREATING" }));
    const full = encodeRecord(record({ id: ID, state: "RUNNING" }));
    writeFileSync(path.join(dir, `${ID}.json.tmp-999-1`), full.slice(0, full.length / 2));
    const { records, unreadable } = await files.load();
    expect(records.map((x) => x.state)).toEqual(["CREATING"]);
    expect(unreadable).toEqual([]);
    expect(readdirSync(dir)).toEqual([`${ID}.json`]);
  });

  const bad: [string, string, RegExp][] = [
    ["a truncated record", encodeRecord(record({ id: ID })).slice(0, 40), /not JSON/],
    ["garbage", "\u0000\u0001not a record", /not JSON/],
    ["an empty file", "", /no record/],
    ["an array", "[1,2]", /not a JSON object/],
    ["another id's record", encodeRecord(record({ id: ID2 })), /holds the record of/],
    ["a newer Hangar's record", JSON.stringify({ v: 99, id: ID }), /newer Hangar/],
  ];
  for (const [what, text, why] of bad) {
    it(`${what} is set aside with a warning; the start goes on and the other records load`, async () => {
      const dir = dirOf();
      const files = createRecordFiles(dir);
      await files.write(record({ id: ID2, state: "COMPLETED", endedAtMs: 5 }));
      writeFileSync(path.join(dir, `${what === "another id's record" ? "00000000-0000-4000-8000-000000000003" : ID}.json`), text);
      const got = await files.load();
      expect(got.records.map((x) => x.id)).toEqual([ID2]);
      expect(got.unreadable).toEqual([{ file: expect.stringMatching(/\.json$/), why: expect.stringMatching(why) }]);
      const events: RuntimeEvent[] = [];
      warnings.length = 0;
      await localRecords(dir, (e) => events.push(e), log).records.open();
      expect(events.map((e) => e.t === "record" && e.record.id)).toEqual([ID2]);
      expect(warnings).toEqual(["a stored sandbox record could not be read; set aside"]);
      expect(readdirSync(dir).filter((f) => f.endsWith(".unreadable"))).toHaveLength(1);
      // Set aside once: the next start neither reads nor warns about it again.
      warnings.length = 0;
      await localRecords(dir, () => undefined, log).records.open();
      expect(warnings).toEqual([]);
    });
  }
});

describe("afterRestart", () => {
  const cases: [string, Partial<SandboxRecord>, Partial<SandboxRecord>][] = [
    [
      "a sandbox being created",
      { state: "CREATING", startedAtMs: undefined },
      { state: "FAILED", stateReason: "Hangar restarted while the sandbox was starting: its processes were killed", endedAtMs: 7_000 },
    ],
    [
      "a pending one",
      { state: "PENDING", startedAtMs: undefined },
      { state: "FAILED", stateReason: "Hangar restarted while the sandbox was starting: its processes were killed" },
    ],
    [
      "a running one",
      { state: "RUNNING" },
      { state: "FAILED", stateReason: "Hangar restarted while the sandbox ran: its processes were killed", endedAtMs: 7_000 },
    ],
    [
      "one being deleted",
      { state: "TERMINATING", stop: { requestedAtMs: 1, graceMs: 0, why: "deleted" } },
      {
        state: "COMPLETED",
        stateReason: "stopped by delete; Hangar restarted before the stop was seen through (its processes were killed)",
      },
    ],
    [
      "one past its lifetime",
      { state: "TERMINATING", stop: { requestedAtMs: 1, graceMs: 0, why: "expired" } },
      { state: "COMPLETED", stateReason: expect.stringMatching(/^stopped by max lifetime; Hangar restarted/) },
    ],
    [
      "a completed one (unchanged)",
      { state: "COMPLETED", stateReason: "main process exited with code 5", exitCode: 5, endedAtMs: 3_000 },
      { state: "COMPLETED", stateReason: "main process exited with code 5", exitCode: 5, endedAtMs: 3_000 },
    ],
    [
      "a failed one (unchanged)",
      { state: "FAILED", stateReason: "failed to start: no image", endedAtMs: 3_000 },
      { state: "FAILED", stateReason: "failed to start: no image", endedAtMs: 3_000 },
    ],
  ];
  for (const [name, from, want] of cases) it(name, () => expect(afterRestart(record(from), 7_000)).toMatchObject(want));
});

describe("localRecords", () => {
  it("a start's record is on disk when 'stored' is emitted", async () => {
    const dir = dirOf();
    const seen: string[] = [];
    const d = localRecords(
      dir,
      (e) => {
        if (e.t === "stored") seen.push(JSON.parse(readFileSync(path.join(dir, `${e.id}.json`), "utf8")).state as string);
      },
      log,
    );
    await d.stored(ID, record({ id: ID, state: "CREATING" }));
    expect(seen).toEqual(["CREATING"]);
  });

  it("open stores what it made terminal: a second restart answers the same record", async () => {
    const dir = dirOf();
    await createRecordFiles(dir).write(record({ id: ID, state: "RUNNING" }));
    const first: SandboxRecord[] = [];
    await localRecords(
      dir,
      (e) => e.t === "record" && first.push(e.record),
      log,
      () => 7_000,
    ).records.open();
    const second: SandboxRecord[] = [];
    await localRecords(
      dir,
      (e) => e.t === "record" && second.push(e.record),
      log,
      () => 9_000,
    ).records.open();
    expect(first).toEqual([expect.objectContaining({ state: "FAILED", endedAtMs: 7_000 })]);
    expect(second).toEqual(first);
    // Known as an earlier run's sandbox (a record without output) until retention removes it.
    const d = localRecords(dir, () => undefined, log);
    await d.records.open();
    expect(d.restored(ID)).toBe(true);
    await d.remove(ID);
    expect(d.restored(ID)).toBe(false);
  });
});

describe("the controller over local records, killed and started again", () => {
  /** A runtime that stores as the local one does, then starts nothing (a kill mid-create) or everything. */
  function runtimeOver(dir: string, starts: "hang" | "run", now: () => number) {
    const rt = fakeRuntime();
    const d = localRecords(dir, (e) => rt.emit(e), log, now);
    const base = rt.start.bind(rt);
    return Object.assign(rt, {
      records: d.records,
      remove: async (id: string) => d.remove(id),
      start: async (...a: Parameters<typeof rt.start>) => {
        await d.stored(a[0].id, a[0]);
        return starts === "hang" ? new Promise<never>(() => undefined) : base(...a);
      },
    });
  }
  const controllerOver = (rt: ReturnType<typeof fakeRuntime>, now: () => number) =>
    createController({
      runtime: rt,
      now,
      policy: { retentionMs: 10_000, expiryGraceMs: 0, stuckAfterMs: 1_000 },
      defaultLifetimeSeconds: 60,
      maxLifetimeSeconds: 600,
      maxSandboxes: 10,
      maxExecsPerSandbox: 2,
      maxExecs: 10,
      maxFileBytes: 1024,
      reapIntervalMs: 60_000,
      log,
    });

  it("every acknowledged id answers Get and List with a terminal record, until retention", async () => {
    const dir = dirOf();
    let now = 1_000;
    const rt1 = runtimeOver(dir, "run", () => now);
    const c1 = controllerOver(rt1, () => now);
    await c1.start();
    const running = await c1.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    const done = await c1.create("alpha", { spec: spec(), echo: {}, requestId: "done" });
    for (let i = 0; i < 1000 && c1.get("alpha", done.id).state !== "RUNNING"; i++) await new Promise((r) => setTimeout(r, 5));
    rt1.exit(done.id, 5);
    for (let i = 0; i < 1000 && c1.get("alpha", done.id).state !== "COMPLETED"; i++) await new Promise((r) => setTimeout(r, 5));
    expect(c1.get("alpha", running.id).state).toBe("RUNNING");
    // The first Hangar dies here (nothing more of it runs); the second reads what it left on disk.
    const c2 = controllerOver(
      runtimeOver(dir, "hang", () => now),
      () => now,
    );
    await c2.start();
    const starting = await c2.create("alpha", { spec: spec(), echo: {}, requestId: "" }); // acknowledged; its start never ends
    expect(c2.get("alpha", starting.id).state).toBe("CREATING");
    expect(c2.get("alpha", running.id)).toMatchObject({
      state: "FAILED",
      stateReason: "Hangar restarted while the sandbox ran: its processes were killed",
    });
    expect(c2.get("alpha", done.id)).toMatchObject({ state: "COMPLETED", exitCode: 5, stateReason: "main process exited with code 5" });
    expect(() => c2.get("beta", running.id)).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));

    // Killed mid-create: a third start finds the acknowledged, never-started sandbox.
    now = 2_000;
    const c3 = controllerOver(
      runtimeOver(dir, "run", () => now),
      () => now,
    );
    await c3.start();
    expect(c3.get("alpha", starting.id)).toMatchObject({
      state: "FAILED",
      stateReason: "Hangar restarted while the sandbox was starting: its processes were killed",
      endedAtMs: 2_000,
    });
    const listed = c3.list("alpha", { tags: [], showTerminated: true, runnerIds: [], pageSize: 0, pageToken: "" }).items;
    expect(new Set(listed.map((x) => x.id))).toEqual(new Set([running.id, done.id, starting.id]));
    expect(listed.map((x) => x.state).sort()).toEqual(["COMPLETED", "FAILED", "FAILED"]);
    // A request id answered before the crash names the same sandbox after it.
    expect((await c3.create("alpha", { spec: spec(), echo: {}, requestId: "done" })).id).toBe(done.id);

    now = 2_000 + 10_000;
    await c3.reapOnce();
    expect(() => c3.get("alpha", starting.id)).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    expect(() => c3.get("alpha", running.id)).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    // Retention ended: the files are gone.
    expect(readdirSync(dir).filter((f) => f.endsWith(".json"))).toEqual([]);
    await c2.close().catch(() => undefined);
  });
});
