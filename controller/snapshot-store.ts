/**
 * Snapshots on a directory the operator configures (HANGAR_SNAPSHOT_DIR; on Kubernetes a volume
 * every replica mounts): <dir>/<tenant>/<id>.json and <id>.tar, written to a temporary name and
 * renamed, so a snapshot is whole or absent. A CREATING record found at start was cut by a restart:
 * it is marked FAILED then.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { ArchiveTooLarge, type SnapshotRecord, type SnapshotStore } from "../core/snapshots.js";

const SAFE_TENANT = /^[A-Za-z0-9][-A-Za-z0-9_.]{0,62}$/;
const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

/** Writes the archive to <f>.part and renames it: whole or absent; over maxBytes it is refused (ArchiveTooLarge). */
async function writeFileAtomically(f: string, chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<number> {
  const tmp = `${f}.part`;
  const out = createWriteStream(tmp, { mode: 0o600 });
  // A write that fails (a full disk) or lands after destroy() errors the stream: never an unhandled 'error'.
  let failure: Error | undefined;
  out.on("error", (e) => (failure ??= e));
  let size = 0;
  try {
    for await (const c of chunks) {
      size += c.length;
      if (size > maxBytes) throw new ArchiveTooLarge(`the archive passed ${maxBytes} bytes (HANGAR_SNAPSHOT_MAX_BYTES)`);
      if (!out.write(c)) await once(out, "drain");
    }
    out.end();
    if (!out.writableFinished) await once(out, "finish");
    if (failure) throw failure;
    await rename(tmp, f);
    return size;
  } catch (e) {
    out.destroy();
    await rm(tmp, { force: true });
    throw e;
  }
}

export async function createDirSnapshotStore(dir: string, nowMs = Date.now()): Promise<SnapshotStore> {
  const tenantDir = (tenant: string) => {
    if (!SAFE_TENANT.test(tenant)) throw new Error(`tenant "${tenant}" cannot name a directory`);
    return path.join(dir, tenant);
  };
  const file = (tenant: string, id: string, ext: string) => (SAFE_ID.test(id) ? path.join(tenantDir(tenant), `${id}.${ext}`) : undefined);
  async function get(tenant: string, id: string): Promise<SnapshotRecord | undefined> {
    const f = file(tenant, id, "json");
    if (!f) return undefined;
    const text = await readFile(f, "utf8").catch(() => undefined);
    if (text === undefined) return undefined;
    const r = JSON.parse(text) as SnapshotRecord;
    return r.tenant === tenant ? r : undefined;
  }
  async function put(r: SnapshotRecord): Promise<void> {
    const f = file(r.tenant, r.id, "json");
    if (!f) throw new Error(`snapshot id ${r.id} cannot name a file`);
    await mkdir(path.dirname(f), { recursive: true, mode: 0o700 });
    await writeFile(`${f}.tmp`, JSON.stringify(r), { mode: 0o600 });
    await rename(`${f}.tmp`, f);
  }
  // Snapshots a restart cut short.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const t of await readdir(dir).catch(() => [] as string[])) {
    if (!SAFE_TENANT.test(t)) continue;
    for (const n of (await readdir(path.join(dir, t)).catch(() => [] as string[])).filter((x) => x.endsWith(".json"))) {
      const r = await get(t, n.slice(0, -5)).catch(() => undefined);
      if (r?.state === "CREATING")
        await put({ ...r, state: "FAILED", stateReason: "Hangar restarted while archiving", completedAtMs: nowMs });
    }
  }
  return {
    get,
    put,
    async list(tenant) {
      const names = await readdir(tenantDir(tenant)).catch(() => [] as string[]);
      const out: SnapshotRecord[] = [];
      for (const n of names.filter((x) => x.endsWith(".json"))) {
        const r = await get(tenant, n.slice(0, -5)).catch(() => undefined);
        if (r) out.push(r);
      }
      return out;
    },
    async writeArchive(tenant, id, chunks, maxBytes) {
      const f = file(tenant, id, "tar");
      if (!f) throw new Error(`snapshot id ${id} cannot name a file`);
      await mkdir(path.dirname(f), { recursive: true, mode: 0o700 });
      return writeFileAtomically(f, chunks, maxBytes);
    },
    readArchive(tenant, id) {
      const f = file(tenant, id, "tar");
      if (!f) throw new Error(`snapshot id ${id} cannot name a file`);
      return createReadStream(f, { highWaterMark: 1024 * 1024 });
    },
    archivePath: (tenant, id) => file(tenant, id, "tar"),
    async remove(tenant, id) {
      for (const ext of ["tar", "json"]) {
        const f = file(tenant, id, ext);
        if (f) await rm(f, { force: true });
      }
    },
  };
}
