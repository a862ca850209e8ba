import { mkdtemp, readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toDomainSpec } from "../../api/spec.js";
import { toProtoSnapshot } from "../../api/snapshot-view.js";
import { createDirSnapshotStore } from "../../controller/snapshot-store.js";
import { snapshotSource } from "../../controller/snapshots.js";
import type { SnapshotRecord } from "../../core/snapshots.js";

async function* chunks(...parts: string[]) {
  for (const p of parts) yield Buffer.from(p);
}
const rec = (o: Partial<SnapshotRecord> = {}): SnapshotRecord => ({ id: "s1", tenant: "alpha", state: "READY", stateReason: "", sizeBytes: 3, sourceSandboxId: "sb", sourceVolume: "workspace", trigger: "MANUAL", createdAtMs: 1, ...o });
const spec = (volumes: object[], mounts: object[]) => toDomainSpec({ containers: [{ image: "python:3.11", volume_mounts: mounts }], volumes } as never, { maxLifetimeSeconds: 60 });

describe("snapshot store (a directory per tenant)", () => {
  it("keeps archives whole or not at all, per tenant; a cut one is FAILED after a restart", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-snap-"));
    const store = await createDirSnapshotStore(dir);
    await store.put(rec());
    expect(await store.writeArchive("alpha", "s1", chunks("ab", "c"), 10)).toBe(3);
    const back: Buffer[] = [];
    for await (const c of store.readArchive("alpha", "s1")) back.push(c as Buffer);
    expect(Buffer.concat(back).toString()).toBe("abc");
    expect(await store.get("beta", "s1")).toBeUndefined();
    expect(await store.list("beta")).toEqual([]);
    await expect(store.writeArchive("alpha", "s2", chunks("123456", "789012"), 10)).rejects.toThrow(/passed 10 bytes \(HANGAR_SNAPSHOT_MAX_BYTES\)/);
    expect((await readdir(path.join(dir, "alpha"))).sort()).toEqual(["s1.json", "s1.tar"]);
    await store.put(rec({ id: "s3", state: "CREATING" }));
    const again = await createDirSnapshotStore(dir, 99);
    expect(await again.get("alpha", "s3")).toMatchObject({ state: "FAILED", stateReason: "Hangar restarted while archiving", completedAtMs: 99 });
    await again.remove("alpha", "s1");
    expect(await again.get("alpha", "s1")).toBeUndefined();
    expect(await again.get("alpha", "../alpha/s3")).toBeUndefined();
  });

  it("snapshots a scratch volume's root; restores need a writable root mount", () => {
    const two = spec([{ name: "a", scratch: {} }, { name: "b", scratch: {} }], [{ volume: "a", mount_path: "/a" }, { volume: "b", mount_path: "/b", sub_path: "x" }]);
    expect(() => snapshotSource(two, undefined)).toThrow(/scratch_volume_name: required: the sandbox has scratch volumes a, b/);
    expect(snapshotSource(two, "a").mountPath).toBe("/a");
    expect(() => snapshotSource(two, "b")).toThrow(/mounted only by a sub path/);
    expect(() => snapshotSource(two, "c")).toThrow(/no scratch volume c \(it has: a, b\)/);
    expect(() => snapshotSource(spec([], []), undefined)).toThrow(/no scratch volume to snapshot/);
    const restored = spec([{ name: "w", scratch: { restore_from_snapshot_id: "s1" } }], [{ volume: "w", mount_path: "/w" }]);
    expect(restored.volumes[0]?.restore).toEqual({ snapshotId: "s1", at: "sandbox.spec.volumes[0].scratch.restore_from_snapshot_id" });
    expect(() => spec([{ name: "w", scratch: { restore_from_snapshot_id: "s1" } }], [{ volume: "w", mount_path: "/w", read_only: true }])).toThrow(/restore_from_snapshot_id: volume w needs a writable mount of its root/);
  });

  it("shows a snapshot as the SDK reads it", () => {
    expect(toProtoSnapshot(rec({ completedAtMs: 2000 }))).toMatchObject({ file_system_snapshot_id: "s1", state: "SNAPSHOT_STATE_READY", size_bytes: "3", source_sandbox_id: "sb", trigger: "SNAPSHOT_TRIGGER_MANUAL", source_volume_name: "workspace", complete_time: { seconds: "2" } });
  });
});
