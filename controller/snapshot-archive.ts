/**
 * The archive and restore of a file-system snapshot, run inside the sandbox over Runtime.exec
 * (tar -c into the store, tar -x from it), and the copy-on-write layers a runtime may restore
 * from instead (controller/snapshots.ts decides when).
 */
import { ArchiveTooLarge, type SnapshotRecord, type SnapshotStore } from "../core/snapshots.js";
import type { SandboxRecord, SandboxSpec, ScratchVolume } from "../core/types.js";
import type { ExecProcess, Runtime } from "../runtime/types.js";
import { reportKills } from "../core/kill.js";

export interface SnapshotOptions {
  store: SnapshotStore;
  maxBytes: number;
  /** Snapshots a tenant keeps at most. */
  maxPerTenant: number;
}

type LogFn = (obj: object, msg: string) => void;

/** The key of a snapshot's layer in the runtime (Runtime.layers): a snapshot deleted and made again under the same id is another layer. */
export const layerKey = (r: SnapshotRecord) => `${r.tenant}/${r.id}@${r.completedAtMs ?? r.createdAtMs}`;

async function drainStderr(p: ExecProcess, onStdout?: (b: Buffer) => void): Promise<string> {
  let err = "";
  for await (const c of p.output()) {
    if (c.stream === "stderr") err = (err + c.data.toString("utf8")).slice(-2000);
    else onStdout?.(c.data);
  }
  return err;
}

/** Runs the archive into the store; the record goes READY or FAILED with why. */
export async function archive(
  runtime: Runtime,
  { store, maxBytes }: Pick<SnapshotOptions, "store" | "maxBytes">,
  now: () => number,
  rec: SandboxRecord,
  vol: ScratchVolume,
  snap: SnapshotRecord,
): Promise<SnapshotRecord> {
  let p: ExecProcess | undefined;
  try {
    p = reportKills(
      await runtime.exec(rec.id, { argv: ["tar", "-C", vol.mountPath, "-cf", "-", "."], noInput: true, bulk: true }),
      runtime.name,
      rec.id,
    );
    const proc = p;
    const chunks: Buffer[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    const stderr = drainStderr(proc, (b) => {
      chunks.push(b);
      wake?.();
    }).finally(() => {
      done = true;
      wake?.();
    });
    stderr.catch(() => undefined); // awaited below; a cut archive leaves it unread
    async function* stream() {
      for (;;) {
        if (chunks.length) yield chunks.shift() as Buffer;
        else if (done) return;
        else await new Promise<void>((r) => (wake = r));
      }
    }
    const size = await store.writeArchive(rec.tenant, snap.id, stream(), maxBytes);
    const { exitCode } = await proc.exited;
    const err = await stderr;
    if (exitCode !== 0) {
      await store.remove(rec.tenant, snap.id).catch(() => undefined);
      throw new Error(
        exitCode === 127 ? "the sandbox image has no tar, which snapshots need" : `tar exited ${exitCode}: ${err.trim().slice(-300)}`,
      );
    }
    const ready: SnapshotRecord = { ...snap, state: "READY", stateReason: `${size} bytes`, sizeBytes: size, completedAtMs: now() };
    await store.put(ready);
    return ready;
  } catch (e) {
    if (e instanceof ArchiveTooLarge) await p?.kill().catch(() => undefined);
    const failed: SnapshotRecord = { ...snap, state: "FAILED", stateReason: (e as Error).message.slice(0, 500), completedAtMs: now() };
    await store.put(failed).catch(() => undefined);
    return failed;
  }
}

/** Fills each restored volume of a started sandbox from its snapshot (tar -x inside the sandbox), but those the runtime `restored` from a layer. */
export async function restore(runtime: Runtime, store: SnapshotStore, rec: SandboxRecord, restored: string[] = []): Promise<void> {
  for (const m of rec.spec.volumes) {
    if (!m.restore || restored.includes(m.name)) continue;
    const p = await runtime.exec(rec.id, { argv: ["tar", "-C", m.mountPath, "-xf", "-"], bulk: true });
    const err = drainStderr(p);
    try {
      for await (const chunk of store.readArchive(rec.tenant, m.restore.snapshotId)) await p.write(chunk as Buffer);
    } finally {
      p.closeStdin();
    }
    const { exitCode } = await p.exited;
    if (exitCode !== 0)
      throw new Error(
        `restoring snapshot ${m.restore.snapshotId} into ${m.mountPath} failed: ${exitCode === 127 ? "the sandbox image has no tar" : `tar exited ${exitCode}: ${(await err).trim().slice(-300)}`}`,
      );
  }
}

/**
 * The spec to start with: each restored volume names its snapshot's layer where the runtime
 * keeps layers (unpacked here, once per snapshot; a layer that cannot be made leaves the volume
 * to the tar restore, which reports what is wrong with the archive).
 */
export async function layered(
  runtime: Runtime,
  o: SnapshotOptions | undefined,
  log: { now: () => number; warn: LogFn; info: LogFn },
  tenant: string,
  spec: SandboxSpec,
): Promise<SandboxSpec> {
  const { now, warn, info } = log;
  const layers = runtime.layers;
  if (!layers || !o || !spec.volumes.some((m) => m.restore)) return spec;
  const volumes = await Promise.all(
    spec.volumes.map(async (m) => {
      if (!m.restore) return m;
      const snap = await o.store.get(tenant, m.restore.snapshotId);
      if (!snap || snap.tenant !== tenant || snap.state !== "READY") return m;
      const key = layerKey(snap);
      try {
        const t0 = now();
        await layers.ensure(key, { path: o.store.archivePath?.(tenant, snap.id), open: () => o.store.readArchive(tenant, snap.id) });
        info({ snapshot_id: snap.id, ms: now() - t0 }, "snapshot layer ready");
        return { ...m, restore: { ...m.restore, layer: key } };
      } catch (e) {
        warn({ err: e, snapshot_id: snap.id }, "no copy-on-write layer for the snapshot: restoring with tar");
        return m;
      }
    }),
  );
  return { ...spec, volumes };
}
