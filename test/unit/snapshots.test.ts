import { mkdtemp, readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toDomainSpec } from "../../api/spec.js";
import { toProtoSnapshot } from "../../api/snapshot-view.js";
import { createDirSnapshotStore } from "../../controller/snapshot-store.js";
import { createSnapshots, layerKey, snapshotSource } from "../../controller/snapshots.js";
import { unpackArgv } from "../../runtime/local/snapshot-layers.js";
import { withMounts } from "../../runtime/local/bwrap-args.js";
import type { Runtime } from "../../runtime/types.js";
import type { SandboxRecord } from "../../core/types.js";
import type { SnapshotRecord } from "../../core/snapshots.js";

async function* chunks(...parts: string[]) {
  for (const p of parts) yield Buffer.from(p);
}
const rec = (o: Partial<SnapshotRecord> = {}): SnapshotRecord => ({
  id: "s1",
  tenant: "alpha",
  state: "READY",
  stateReason: "",
  sizeBytes: 3,
  sourceSandboxId: "sb",
  sourceVolume: "workspace",
  trigger: "MANUAL",
  createdAtMs: 1,
  ...o,
});
const spec = (volumes: object[], mounts: object[]) =>
  toDomainSpec({ containers: [{ image: "python:3.11", volume_mounts: mounts }], volumes } as never, { maxLifetimeSeconds: 60 });

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
    await expect(store.writeArchive("alpha", "s2", chunks("123456", "789012"), 10)).rejects.toThrow(
      /passed 10 bytes \(HANGAR_SNAPSHOT_MAX_BYTES\)/,
    );
    expect((await readdir(path.join(dir, "alpha"))).sort()).toEqual(["s1.json", "s1.tar"]);
    await store.put(rec({ id: "s3", state: "CREATING" }));
    const again = await createDirSnapshotStore(dir, 99);
    expect(await again.get("alpha", "s3")).toMatchObject({
      state: "FAILED",
      stateReason: "Hangar restarted while archiving",
      completedAtMs: 99,
    });
    await again.remove("alpha", "s1");
    expect(await again.get("alpha", "s1")).toBeUndefined();
    expect(await again.get("alpha", "../alpha/s3")).toBeUndefined();
  });

  it("snapshots a scratch volume's root; restores need a writable root mount", () => {
    const two = spec(
      [
        { name: "a", scratch: {} },
        { name: "b", scratch: {} },
      ],
      [
        { volume: "a", mount_path: "/a" },
        { volume: "b", mount_path: "/b", sub_path: "x" },
      ],
    );
    expect(() => snapshotSource(two, undefined)).toThrow(/scratch_volume_name: required: the sandbox has scratch volumes a, b/);
    expect(snapshotSource(two, "a").mountPath).toBe("/a");
    expect(() => snapshotSource(two, "b")).toThrow(/mounted only by a sub path/);
    expect(() => snapshotSource(two, "c")).toThrow(/no scratch volume c \(it has: a, b\)/);
    expect(() => snapshotSource(spec([], []), undefined)).toThrow(/no scratch volume to snapshot/);
    const restored = spec([{ name: "w", scratch: { restore_from_snapshot_id: "s1" } }], [{ volume: "w", mount_path: "/w" }]);
    expect(restored.volumes[0]?.restore).toEqual({ snapshotId: "s1", at: "sandbox.spec.volumes[0].scratch.restore_from_snapshot_id" });
    expect(() =>
      spec([{ name: "w", scratch: { restore_from_snapshot_id: "s1" } }], [{ volume: "w", mount_path: "/w", read_only: true }]),
    ).toThrow(/restore_from_snapshot_id: volume w needs a writable mount of its root/);
  });

  it("shows a snapshot as the SDK reads it", () => {
    expect(toProtoSnapshot(rec({ completedAtMs: 2000 }))).toMatchObject({
      file_system_snapshot_id: "s1",
      state: "SNAPSHOT_STATE_READY",
      size_bytes: "3",
      source_sandbox_id: "sb",
      trigger: "SNAPSHOT_TRIGGER_MANUAL",
      source_volume_name: "workspace",
      complete_time: { seconds: "2" },
    });
  });
});

describe("copy-on-write restores (layers, ADR 0026)", () => {
  /** A runtime below the controller: layers kept in memory, execs recorded (each restore by tar would be one). */
  function fakeRuntime(fail = false) {
    const ensured: string[] = [];
    const dropped: string[] = [];
    const execs: string[][] = [];
    const runtime = {
      layers: {
        async ensure(key: string, archive: { path?: string; open(): AsyncIterable<Uint8Array> }) {
          if (fail) throw new Error("no overlay here");
          expect(archive.path).toMatch(/alpha\/s1\.tar$/);
          for await (const _ of archive.open()) void _;
          ensured.push(key);
        },
        async drop(key: string) {
          dropped.push(key);
        },
      },
      async exec(_id: string, o: { argv: string[] }) {
        execs.push(o.argv);
        return {
          write: async () => undefined,
          closeStdin: () => undefined,
          exited: Promise.resolve({ exitCode: 0 }),
          output: async function* () {},
        };
      },
    } as unknown as Runtime;
    return { runtime, ensured, dropped, execs };
  }
  const restoring = () =>
    spec(
      [
        { name: "w", scratch: { restore_from_snapshot_id: "s1" } },
        { name: "x", scratch: {} },
      ],
      [
        { volume: "w", mount_path: "/w" },
        { volume: "x", mount_path: "/x" },
      ],
    );

  it("names the snapshot's layer on each restored volume (a snapshot made again under its id is another layer); a restore the runtime did skips tar", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-snap-"));
    const store = await createDirSnapshotStore(dir);
    await store.put(rec({ completedAtMs: 7 }));
    await store.writeArchive("alpha", "s1", chunks("tar"), 10);
    const f = fakeRuntime();
    const snaps = createSnapshots(f.runtime, { store, maxBytes: 100, maxPerTenant: 5 });
    const s = await snaps.layered("alpha", restoring());
    expect(s.volumes.map((v) => v.restore?.layer)).toEqual(["alpha/s1@7", undefined]);
    expect(f.ensured).toEqual(["alpha/s1@7"]);
    expect(layerKey(rec({ completedAtMs: 8 }))).toBe("alpha/s1@8");
    // Another tenant's snapshot of that id is nothing to layer.
    expect((await snaps.layered("beta", restoring())).volumes[0]?.restore?.layer).toBeUndefined();
    const sandbox = { id: "sb2", tenant: "alpha", spec: restoring() } as SandboxRecord;
    await snaps.restore(sandbox, ["w"]);
    expect(f.execs).toEqual([]);
    await snaps.restore(sandbox, []);
    expect(f.execs).toEqual([["tar", "-C", "/w", "-xf", "-"]]);
    await snaps.remove("alpha", "s1", false);
    expect(f.dropped).toEqual(["alpha/s1@7"]);
  });

  it("leaves a volume to the tar restore when its layer cannot be made", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-snap-"));
    const store = await createDirSnapshotStore(dir);
    await store.put(rec({ completedAtMs: 7 }));
    const warned: string[] = [];
    const snaps = createSnapshots(fakeRuntime(true).runtime, { store, maxBytes: 100, maxPerTenant: 5 }, Date.now, (_o, m) =>
      warned.push(m),
    );
    expect((await snaps.layered("alpha", restoring())).volumes[0]?.restore).toEqual({
      snapshotId: "s1",
      at: "sandbox.spec.volumes[0].scratch.restore_from_snapshot_id",
    });
    expect(warned).toEqual(["no copy-on-write layer for the snapshot: restoring with tar"]);
  });

  it("unpacks as root of the sandbox id range's namespace, with /usr and the layer only, no network", () => {
    const argv = unpackArgv(
      { bwrap: "/b", setpriv: "/sp", unshare: "/u", sleep: "/s", tar: "/usr/bin/tar" },
      1900001,
      "/d/layers/x.part/tree",
    );
    expect(argv.slice(0, 8)).toEqual(["/sp", "--reuid", "1900001", "--regid", "1900001", "--clear-groups", "--", "/b"]);
    const joined = argv.join(" ");
    expect(joined).toContain("--userns 3 --uid 0 --gid 0 --ro-bind /usr /usr");
    expect(joined).toContain("--bind /d/layers/x.part/tree /layer");
    expect(joined).toContain("--unshare-net");
    expect(joined).not.toMatch(/--(ro-)?bind \/ \//);
    expect(joined).not.toContain("CAP_MKNOD");
    expect(argv.slice(-5)).toEqual(["/usr/bin/tar", "-C", "/layer", "-xpf", "-"]);
  });

  it("mounts the root, then each volume's file system and overlay, before the sandbox starts", () => {
    const argv = withMounts(
      "/u",
      [
        { t: "overlay", lower: "/img", upper: "/s/upper", work: "/s/work", target: "/s/root" },
        { t: "ext4", image: "/s/volume-fs/w.img", target: "/s/volume-fs/w" },
        { t: "dir", path: "/s/volume-fs/w/upper", uid: 200000, gid: 200000, mode: 0o40755 },
        { t: "overlay", lower: "/l/tree", upper: "/s/volume-fs/w/upper", work: "/s/volume-fs/w/work", target: "/s/volumes/w" },
      ],
      ["bwrap", "x"],
    );
    expect(argv.slice(0, 5)).toEqual(["/u", "--mount", "--propagation", "private", "--"]);
    expect(argv.slice(8)).toEqual([
      "hangar-mounts",
      "overlay",
      "lowerdir=/img,upperdir=/s/upper,workdir=/s/work",
      "/s/root",
      "ext4-volume",
      "/s/volume-fs/w.img",
      "/s/volume-fs/w",
      "dir",
      "/s/volume-fs/w/upper",
      "200000:200000",
      "755",
      "overlay",
      "lowerdir=/l/tree,upperdir=/s/volume-fs/w/upper,workdir=/s/volume-fs/w/work",
      "/s/volumes/w",
      "--",
      "bwrap",
      "x",
    ]);
  });
});
