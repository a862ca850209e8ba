/**
 * File-system snapshots over Runtime.exec, so one code path serves every runtime: the archive is
 * `tar` run inside the sandbox (it reads only what the sandbox's own processes can), streamed to the
 * snapshot store; a restore is `tar -x` inside the new sandbox, fed from the store, before the
 * sandbox is RUNNING (its main process may already run; its commands and files see the restored
 * tree). Snapshots are their tenant's alone; an id of another tenant reads as unknown.
 */
import { createHash, randomUUID } from "node:crypto";
import { errors, HangarError } from "../core/errors.js";
import type { SnapshotRecord, SnapshotStore } from "../core/snapshots.js";
import type { SandboxRecord, SandboxSpec, ScratchVolume } from "../core/types.js";
import type { Runtime } from "../runtime/types.js";
import { archive, layered, layerKey, restore, type SnapshotOptions } from "./snapshot-archive.js";

export type { SnapshotOptions };
export { layerKey };

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

/** Checks every restore a create names, for its tenant: the snapshot exists and is READY. */
async function checkRestores(store: () => SnapshotStore, tenant: string, spec: SandboxSpec): Promise<void> {
  for (const m of spec.volumes) {
    if (!m.restore) continue;
    const r = await store().get(tenant, m.restore.snapshotId);
    if (!r || r.tenant !== tenant)
      throw new HangarError({
        code: "NOT_FOUND",
        message: `${m.restore.at}: no snapshot ${m.restore.snapshotId.slice(0, 128)} (ListFileSystemSnapshots lists yours)`,
        reason: "CWSANDBOX_FSS_NOT_FOUND",
        violations: [{ field: m.restore.at, description: "no such snapshot" }],
      });
    if (r.state !== "READY") throw notReady(r.id, r.state, m.restore.at);
  }
}

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

  return {
    /** The spec to start with: each restored volume names its snapshot's layer where the runtime keeps layers. */
    layered: (tenant: string, spec: SandboxSpec) => layered(runtime, o, { now, warn, info }, tenant, spec),
    /** Fills each restored volume of a started sandbox from its snapshot (tar -x inside the sandbox), but those the runtime `restored` from a layer. */
    restore: async (rec: SandboxRecord, restored: string[] = []) => restore(runtime, need().store, rec, restored),
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
      const running = archive(runtime, { store, maxBytes: need().maxBytes }, now, rec, vol, snap);
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
    checkRestores: (tenant: string, spec: SandboxSpec) => checkRestores(() => need().store, tenant, spec),
  };
}

export type Snapshots = ReturnType<typeof createSnapshots>;
