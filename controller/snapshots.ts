/**
 * File-system snapshots over Runtime.exec, so one code path serves every runtime: the archive is
 * `tar` run inside the sandbox (it reads only what the sandbox's own processes can), streamed to the
 * snapshot store; a restore is `tar -x` inside the new sandbox, fed from the store, before the
 * sandbox is RUNNING (its main process may already run; its commands and files see the restored
 * tree). Snapshots are their tenant's alone; an id of another tenant reads as unknown.
 */
import { createHash, randomUUID } from "node:crypto";
import { errors, HangarError } from "../core/errors.js";
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

const notFound = (id: string) =>
  new HangarError({
    code: "NOT_FOUND",
    message: `file-system snapshot ${id.replace(/[\u0000-\u001f\u007f]/g, "?").slice(0, 128)} not found`,
    reason: "CWSANDBOX_FSS_NOT_FOUND",
  });
const notReady = (id: string, state: string, field: string) =>
  new HangarError({
    code: "FAILED_PRECONDITION",
    message: `${field}: snapshot ${id} is ${state}, not READY`,
    reason: "CWSANDBOX_FSS_NOT_READY",
    violations: [{ field, description: `snapshot ${id} is ${state}` }],
  });
const idFor = (tenant: string, requestId: string) => {
  const h = createHash("sha256").update(`snapshot\u0000${tenant}\u0000${requestId}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** The scratch volume a snapshot of `name` archives: mounted on the primary, its root (no sub path). */
export function snapshotSource(spec: SandboxSpec, name: string | undefined): ScratchVolume {
  const scratch = spec.volumes.filter((m) => !m.registered);
  const names = [...new Set(scratch.map((m) => m.name))];
  if (!name && names.length !== 1)
    throw errors.invalidField(
      "scratch_volume_name",
      names.length ? `required: the sandbox has scratch volumes ${names.join(", ")}` : "the sandbox has no scratch volume to snapshot",
    );
  const want = name || (names[0] as string);
  const m = scratch.find((x) => x.name === want && !x.subPath);
  if (!m)
    throw errors.invalidField(
      "scratch_volume_name",
      names.includes(want)
        ? `volume ${want} is mounted only by a sub path; snapshots archive a volume's root`
        : `the sandbox has no scratch volume ${want.slice(0, 64)} (it has: ${names.join(", ") || "none"})`,
    );
  return m;
}

async function drainStderr(p: ExecProcess, onStdout?: (b: Buffer) => void): Promise<string> {
  let err = "";
  for await (const c of p.output()) {
    if (c.stream === "stderr") err = (err + c.data.toString("utf8")).slice(-2000);
    else onStdout?.(c.data);
  }
  return err;
}

/** The key of a snapshot's layer in the runtime (Runtime.layers): a snapshot deleted and made again under the same id is another layer. */
export const layerKey = (r: SnapshotRecord) => `${r.tenant}/${r.id}@${r.completedAtMs ?? r.createdAtMs}`;

type LogFn = (obj: object, msg: string) => void;

export function createSnapshots(
  runtime: Runtime,
  o: SnapshotOptions | undefined,
  now: () => number = Date.now,
  warn: LogFn = () => undefined,
  info: LogFn = () => undefined,
) {
  const need = (): SnapshotOptions => {
    if (!o) throw errors.snapshotsNotSupported();
    return o;
  };

  async function find(tenant: string, id: string): Promise<SnapshotRecord> {
    const r = await need().store.get(tenant, id);
    if (!r || r.tenant !== tenant) throw notFound(id);
    return r;
  }

  /** Runs the archive into the store; the record goes READY or FAILED with why. */
  async function archive(rec: SandboxRecord, vol: ScratchVolume, snap: SnapshotRecord): Promise<SnapshotRecord> {
    const { store, maxBytes } = need();
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

  return {
    enabled: () => !!o,
    get: find,
    async list(tenant: string, sourceSandboxId?: string): Promise<SnapshotRecord[]> {
      const all = await need().store.list(tenant);
      return all
        .filter((s) => !sourceSandboxId || s.sourceSandboxId === sourceSandboxId)
        .sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id));
    },
    /**
     * Starts a snapshot of a running sandbox's scratch volume; `wait`: resolves when it is READY
     * or FAILED (a stop's snapshot), else at once with it CREATING.
     */
    async create(
      rec: SandboxRecord,
      volumeName: string | undefined,
      trigger: SnapshotRecord["trigger"],
      requestId: string,
      wait: boolean,
    ): Promise<SnapshotRecord> {
      const { store, maxPerTenant } = need();
      if (rec.state !== "RUNNING") throw errors.notRunning(rec.id, rec.state);
      const vol = snapshotSource(rec.spec, volumeName);
      const id = requestId ? idFor(rec.tenant, requestId) : randomUUID();
      if (requestId) {
        const existing = await store.get(rec.tenant, id);
        if (existing) return existing;
      }
      if ((await store.list(rec.tenant)).length >= maxPerTenant)
        throw errors.capacityExhausted(`a tenant keeps at most ${maxPerTenant} snapshots: delete some`, 0);
      const snap: SnapshotRecord = {
        id,
        tenant: rec.tenant,
        state: "CREATING",
        stateReason: "archiving",
        sizeBytes: 0,
        sourceSandboxId: rec.id,
        sourceVolume: vol.name,
        trigger,
        createdAtMs: now(),
        ...(requestId ? { requestId } : {}),
      };
      await store.put(snap);
      const running = archive(rec, vol, snap);
      return wait ? running : snap;
    },
    async remove(tenant: string, id: string, allowMissing: boolean): Promise<SnapshotRecord | undefined> {
      const { store } = need();
      const r = await store.get(tenant, id);
      if (!r || r.tenant !== tenant) {
        if (allowMissing) return undefined;
        throw notFound(id);
      }
      await store.remove(tenant, id);
      await runtime.layers
        ?.drop(layerKey(r))
        .catch((e: unknown) => warn({ err: e, snapshot_id: id }, "could not drop the snapshot's layer"));
      return r;
    },
    /** Checks every restore a create names, for its tenant: the snapshot exists and is READY. */
    async checkRestores(tenant: string, spec: SandboxSpec): Promise<void> {
      for (const m of spec.volumes) {
        if (!m.restore) continue;
        const r = await need().store.get(tenant, m.restore.snapshotId);
        if (!r || r.tenant !== tenant)
          throw new HangarError({
            code: "NOT_FOUND",
            message: `${m.restore.at}: no snapshot ${m.restore.snapshotId.slice(0, 128)} (ListFileSystemSnapshots lists yours)`,
            reason: "CWSANDBOX_FSS_NOT_FOUND",
            violations: [{ field: m.restore.at, description: "no such snapshot" }],
          });
        if (r.state !== "READY") throw notReady(r.id, r.state, m.restore.at);
      }
    },
    /**
     * The spec to start with: each restored volume names its snapshot's layer where the runtime
     * keeps layers (unpacked here, once per snapshot; a layer that cannot be made leaves the volume
     * to the tar restore, which reports what is wrong with the archive).
     */
    async layered(tenant: string, spec: SandboxSpec): Promise<SandboxSpec> {
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
    },
    /** Fills each restored volume of a started sandbox from its snapshot (tar -x inside the sandbox), but those the runtime `restored` from a layer. */
    async restore(rec: SandboxRecord, restored: string[] = []): Promise<void> {
      const { store } = need();
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
    },
  };
}

export type Snapshots = ReturnType<typeof createSnapshots>;
