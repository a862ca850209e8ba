/**
 * The local runtime's durable records (ADR 0030): one file per sandbox under <data dir>/records,
 * written whole to a temporary file, fsynced, renamed over the old one and the directory fsynced,
 * so a Hangar killed at any point leaves either the previous record or the new one, never a torn
 * one. The record is on disk before the create is answered ("stored"), and each change after.
 * At the next start every record that was not terminal becomes terminal: the sandbox died with
 * the Hangar that ran it (sweep.ts removes what it left). Files are Hangar's alone (0700 / 0600).
 */
import { chmod, mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { isTerminal, type SandboxRecord } from "../../core/types.js";
import type { DurableRecords, RuntimeEvent } from "../types.js";
import { encodeRecord, readRecord } from "../record-codec.js";

/** Sandbox ids are UUIDs (controller.ts): nothing else names a file here. */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SUFFIX = ".json";

/**
 * What a record read at start becomes (pure, table-tested): a sandbox that had not ended died
 * with the Hangar that ran it. A stop that was asked for ended as asked; anything else FAILED,
 * saying so. Terminal records are kept as they are.
 */
export function afterRestart(r: SandboxRecord, nowMs: number): SandboxRecord {
  if (isTerminal(r.state)) return r;
  const was = r.state === "RUNNING" || r.state === "TERMINATING" ? "ran" : "was starting";
  const ended = { ...r, endedAtMs: nowMs, preparing: undefined };
  if (r.stop)
    return {
      ...ended,
      state: "COMPLETED",
      stateReason: `stopped by ${r.stop.why === "expired" ? "max lifetime" : r.stop.why === "purged" ? "purge" : "delete"}; Hangar restarted before the stop was seen through (its processes were killed)`,
    };
  return { ...ended, state: "FAILED", stateReason: `Hangar restarted while the sandbox ${was}: its processes were killed` };
}

export interface RecordFiles {
  /** Stores the record as it is now (encoded at once); writes of one sandbox land in call order. */
  write(r: SandboxRecord): Promise<void>;
  /** Removes the sandbox's record (the end of retention), after its pending writes. */
  remove(id: string): Promise<void>;
  /** Every record on disk that reads back, and why each file that does not was set aside. */
  load(): Promise<{ records: SandboxRecord[]; unreadable: { file: string; why: string }[] }>;
  /** Settles once every write asked for so far has landed (or failed). */
  idle(): Promise<void>;
}

export function createRecordFiles(dir: string): RecordFiles {
  const chains = new Map<string, Promise<void>>();
  let seq = 0;
  let made: Promise<void> | undefined;
  // chmod too: a records dir carried over from elsewhere keeps its mode through mkdir.
  const ensureDir = () =>
    (made ??= mkdir(dir, { recursive: true, mode: 0o700 })
      .then(() => chmod(dir, 0o700))
      .then(
        () => undefined,
        (e: unknown) => {
          made = undefined;
          throw e;
        },
      ));
  const fileOf = (id: string) => {
    if (!ID.test(id)) throw new Error(`not a sandbox id: ${JSON.stringify(id.slice(0, 64))}`);
    return path.join(dir, id + SUFFIX);
  };

  function chain(id: string, step: () => Promise<void>): Promise<void> {
    const next = (chains.get(id) ?? Promise.resolve()).catch(() => undefined).then(step);
    chains.set(id, next);
    void next
      .finally(() => {
        if (chains.get(id) === next) chains.delete(id);
      })
      .catch(() => undefined);
    return next;
  }

  const put = async (file: string, text: string) => {
    await ensureDir();
    await writeDurably(dir, file, `${file}.tmp-${process.pid}-${++seq}`, text);
  };

  return {
    write(r) {
      let file: string;
      try {
        file = fileOf(r.id);
      } catch (e) {
        return Promise.reject(e);
      }
      const text = encodeRecord(r);
      return chain(r.id, () => put(file, text));
    },
    remove(id) {
      if (!ID.test(id)) return Promise.resolve();
      return chain(id, async () => {
        await rm(fileOf(id), { force: true });
        await syncDir(dir).catch(() => undefined);
      });
    },
    idle: async () => void (await Promise.allSettled([...chains.values()])),
    async load() {
      await ensureDir();
      return readRecordDir(dir);
    },
  };
}

async function syncDir(dir: string): Promise<void> {
  const d = await open(dir, "r");
  try {
    await d.sync();
  } finally {
    await d.close();
  }
}

/** Written to tmp, synced, renamed over file, the directory synced: a record is whole on disk or not there. */
async function writeDurably(dir: string, file: string, tmp: string, text: string): Promise<void> {
  try {
    const f = await open(tmp, "w", 0o600);
    try {
      await f.writeFile(text);
      await f.sync();
    } finally {
      await f.close();
    }
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
  await syncDir(dir);
}

/** Every record in dir that reads back, and why each file that does not is to be set aside. */
async function readRecordDir(dir: string): Promise<{ records: SandboxRecord[]; unreadable: { file: string; why: string }[] }> {
  const records: SandboxRecord[] = [];
  const unreadable: { file: string; why: string }[] = [];
  for (const name of await readdir(dir)) {
    const file = path.join(dir, name);
    if (name.endsWith(".unreadable")) continue; // set aside at an earlier start
    // A temporary file is a write that never finished: the record it would have replaced stands.
    if (name.includes(`${SUFFIX}.tmp-`)) {
      await rm(file, { force: true });
      continue;
    }
    const id = name.endsWith(SUFFIX) ? name.slice(0, -SUFFIX.length) : "";
    if (!ID.test(id)) {
      unreadable.push({ file, why: "not a record file name" });
      continue;
    }
    const text = await readFile(file, "utf8").catch((e: Error) => e);
    const got = text instanceof Error ? { ok: false as const, why: text.message } : readRecord(text);
    if (!got.ok) unreadable.push({ file, why: got.why });
    else if (got.record.id !== id)
      unreadable.push({ file, why: `it holds the record of ${JSON.stringify(String(got.record.id).slice(0, 64))}` });
    else records.push(got.record);
  }
  return { records, unreadable };
}

/**
 * The local runtime's DurableRecords: records are loaded once at start (each one that had not
 * ended stored terminal first, then delivered), saved on each change, and a start stores its
 * record before the create is answered (stored()). An unreadable file is set aside (renamed
 * *.unreadable, never read again) with a warning: it never stops Hangar.
 */
export function localRecords(
  dir: string,
  emit: (e: RuntimeEvent) => void,
  log: { warn(o: object, m: string): void },
  now: () => number = Date.now,
) {
  const files = createRecordFiles(dir);
  /** Sandboxes of an earlier run of Hangar: records only (their output died with that run). */
  const restored = new Set<string>();
  const records: DurableRecords = {
    async open() {
      const { records: found, unreadable } = await files.load();
      for (const u of unreadable) {
        log.warn({ file: u.file, why: u.why }, "a stored sandbox record could not be read; set aside");
        await rename(u.file, `${u.file}.unreadable`).catch(() => undefined);
      }
      const t = now();
      for (const stored of found) {
        const r = afterRestart(stored, t);
        if (r !== stored) await files.write(r);
        restored.add(r.id);
        emit({ t: "record", record: r });
      }
    },
    save: (r) => files.write(r),
  };
  return {
    records,
    /** Called first in start(): the record is on disk, then the create may be answered. */
    async stored(id: string, r: SandboxRecord | undefined): Promise<void> {
      if (!r) return;
      await files.write(r);
      emit({ t: "stored", id });
    },
    remove: (id: string) => {
      restored.delete(id);
      return files.remove(id);
    },
    /** The sandbox's record is from an earlier run of Hangar. */
    restored: (id: string) => restored.has(id),
    idle: () => files.idle(),
  };
}

/** What the local runtime keeps of its records (localRecords). */
export type LocalRecords = ReturnType<typeof localRecords>;
