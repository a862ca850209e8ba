import { mkdtemp, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toDomainSpec } from "../../api/spec.js";
import { toProtoVolume } from "../../api/volume-service.js";
import { claimWriters, resolveVolumes, volumeUses } from "../../controller/volumes.js";
import { matches } from "../../controller/list.js";
import type { SandboxRecord } from "../../core/types.js";
import { writerConflict, type RegisteredVolume } from "../../core/volumes.js";
import { buildPod } from "../../runtime/kubernetes/pod/spec.js";
import { volumeOfClaim } from "../../runtime/kubernetes/stores/volume-claims.js";

const vol = (o: Partial<RegisteredVolume> = {}): RegisteredVolume => ({
  id: "data",
  tenant: "alpha",
  readOnly: false,
  accessModes: ["ReadWriteOnce"],
  ready: true,
  reason: "Bound",
  source: { claimName: "pvc-data", namespace: "sandboxes" },
  createdAtMs: 0,
  ...o,
});
const spec = (mounts: object[], volumes: object[] = [{ name: "d", volume_id: "data" }]) =>
  toDomainSpec({ containers: [{ image: "python:3.11", volume_mounts: mounts }], volumes } as never, { maxLifetimeSeconds: 60 });
const registry = (vs: RegisteredVolume[]) => ({ list: async (t: string) => vs.filter((v) => v.tenant === t) });

describe("registered volumes", () => {
  const cases: [string, Partial<RegisteredVolume>, boolean, { volumeId: string; writes: boolean }[], RegExp | undefined][] = [
    ["a reader of anything", { accessModes: ["ReadOnlyMany"], readOnly: true }, false, [], undefined],
    ["a writer of a read-only registration", { readOnly: true }, true, [], /registered read-only: mount it with read_only/],
    ["a writer of ReadOnlyMany", { accessModes: ["ReadOnlyMany"] }, true, [], /is ReadOnlyMany: mount it with read_only/],
    ["the first writer of ReadWriteOnce", {}, true, [{ volumeId: "data", writes: false }], undefined],
    ["a second writer of ReadWriteOnce", {}, true, [{ volumeId: "data", writes: true }], /is ReadWriteOnce and sandbox s1 writes to it/],
    [
      "a second writer of ReadWriteOncePod",
      { accessModes: ["ReadWriteOncePod"] },
      true,
      [{ volumeId: "data", writes: true }],
      /ReadWriteOncePod and sandbox s1/,
    ],
    ["a writer beside another volume's writer", {}, true, [{ volumeId: "other", writes: true }], undefined],
    ["many writers of ReadWriteMany", { accessModes: ["ReadWriteMany"] }, true, [{ volumeId: "data", writes: true }], undefined],
  ];
  for (const [what, v, writes, live, want] of cases) {
    it(`writers: ${what}`, () => {
      const why = writerConflict(
        vol(v),
        writes,
        live.map((u) => ({ ...u, sandboxId: "s1" })),
      );
      if (want) expect(why).toMatch(want);
      else expect(why).toBeUndefined();
    });
  }

  it("resolves ids for the caller's tenant only: another tenant's id reads as unknown", async () => {
    const reg = registry([vol(), vol({ id: "theirs", tenant: "beta", source: { claimName: "pvc-b", namespace: "sandboxes" } })]);
    const s = spec([{ volume: "d", mount_path: "/data", sub_path: "x" }]);
    const r = await resolveVolumes("alpha", s, reg);
    expect(r.spec.volumes[0]).toMatchObject({
      mountPath: "/data",
      subPath: "x",
      registered: { id: "data", at: "sandbox.spec.containers[0].volume_mounts[0]", source: { claimName: "pvc-data" } },
    });
    await expect(
      resolveVolumes("alpha", spec([{ volume: "d", mount_path: "/d" }], [{ name: "d", volume_id: "theirs" }]), reg),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
      reason: "CWSANDBOX_VOLUME_NOT_FOUND",
      violations: [{ field: "sandbox.spec.containers[0].volume_mounts[0]" }],
    });
    await expect(resolveVolumes("beta", s, reg)).rejects.toMatchObject({ code: "NOT_FOUND", reason: "CWSANDBOX_VOLUME_NOT_FOUND" });
    await expect(resolveVolumes("alpha", s, registry([vol({ ready: false, reason: "claim pvc-data is Pending" })]))).rejects.toMatchObject({
      reason: "CWSANDBOX_VOLUME_NOT_READY",
      message: expect.stringMatching(/Pending/),
    });
    await expect(resolveVolumes("alpha", s, undefined)).rejects.toMatchObject({ reason: "CWSANDBOX_VOLUME_TYPE_NOT_SUPPORTED" });
  });

  it("counts a live sandbox's writes, and refuses the second writer naming its mount", async () => {
    const s = (await resolveVolumes("alpha", spec([{ volume: "d", mount_path: "/data" }]), registry([vol()]))).spec;
    const first = { id: "s1", state: "RUNNING", spec: s } as SandboxRecord;
    expect(volumeUses(first)).toEqual([{ sandboxId: "s1", volumeId: "data", writes: true }]);
    expect(volumeUses({ ...first, state: "COMPLETED" })).toEqual([]);
    expect(() => claimWriters(s, [vol()], volumeUses(first))).toThrow(
      /sandbox\.spec\.containers\[0\]\.volume_mounts\[0\]: volume data is ReadWriteOnce and sandbox s1 writes to it/,
    );
    const reader = (await resolveVolumes("alpha", spec([{ volume: "d", mount_path: "/data", read_only: true }]), registry([vol()]))).spec;
    expect(() => claimWriters(reader, [vol()], volumeUses(first))).not.toThrow();
    expect(
      matches({ ...first, runnerId: "r" } as SandboxRecord, { tags: [], showTerminated: false, runnerIds: [], volumeIds: ["data"] }),
    ).toBe(true);
    expect(
      matches({ ...first, runnerId: "r" } as SandboxRecord, { tags: [], showTerminated: false, runnerIds: [], volumeIds: ["other"] }),
    ).toBe(false);
  });

  it("mounts the claim (read-only when no mount writes), with the sub path; never on a sidecar", async () => {
    const s = (
      await resolveVolumes("alpha", spec([{ volume: "d", mount_path: "/data", sub_path: "run1", read_only: true }]), registry([vol()]))
    ).spec;
    const pod = buildPod("abc", s, { namespace: "sandboxes", egress: false });
    expect(pod.spec?.volumes).toEqual([{ name: "vol-d", persistentVolumeClaim: { claimName: "pvc-data", readOnly: true } }]);
    expect(pod.spec?.containers?.[0]?.volumeMounts).toEqual([{ name: "vol-d", mountPath: "/data", readOnly: true, subPath: "run1" }]);
    expect(() =>
      toDomainSpec(
        {
          containers: [
            { name: "main", primary: true, image: "a" },
            { name: "side", image: "a", volume_mounts: [{ volume: "d", mount_path: "/d" }] },
          ],
          volumes: [{ name: "d", volume_id: "data" }],
        } as never,
        { maxLifetimeSeconds: 60 },
      ),
    ).toThrow(/containers\[1\]\.volume_mounts\[0\]\.volume: registered volumes mount on the primary container only/);
  });

  it("no volume mounts where Hangar mounts its exec agent (ADR 0023), on the primary or a sidecar", () => {
    for (const at of ["/.hangar-agent", "/.hangar-agent/", "//.hangar-agent", "/.hangar-agent/x"]) {
      expect(
        () =>
          toDomainSpec(
            { containers: [{ image: "a", volume_mounts: [{ volume: "s", mount_path: at }] }], volumes: [{ name: "s" }] } as never,
            { maxLifetimeSeconds: 60 },
          ),
        at,
      ).toThrow(/volume_mounts\[0\]\.mount_path: \/\.hangar-agent is where Hangar mounts its exec agent/);
    }
    expect(() =>
      toDomainSpec(
        {
          containers: [
            { name: "main", primary: true, image: "a" },
            { name: "side", image: "a", volume_mounts: [{ volume: "s", mount_path: "/.hangar-agent" }] },
          ],
          volumes: [{ name: "s" }],
        } as never,
        { maxLifetimeSeconds: 60 },
      ),
    ).toThrow(/containers\[1\]\.volume_mounts\[0\]\.mount_path: \/\.hangar-agent is where/);
    expect(
      toDomainSpec(
        {
          containers: [{ image: "a", volume_mounts: [{ volume: "s", mount_path: "/.hangar-agents" }] }],
          volumes: [{ name: "s" }],
        } as never,
        { maxLifetimeSeconds: 60 },
      ).volumes[0]?.mountPath,
    ).toBe("/.hangar-agents");
  });
  it("a claim is a volume of the tenant its label names, ready when Bound", () => {
    const pvc = {
      metadata: {
        name: "pvc-data",
        namespace: "sandboxes",
        labels: { "hangar.dev/volume-tenant": "alpha" },
        annotations: { "hangar.dev/volume-id": "datasets", "hangar.dev/volume-read-only": "true" },
        creationTimestamp: new Date(1000),
      },
      spec: { accessModes: ["ReadWriteOnce"] },
      status: { phase: "Bound", accessModes: ["ReadWriteMany"], capacity: { storage: "10Gi" } },
    };
    expect(volumeOfClaim(pvc as never, "alpha")).toMatchObject({
      id: "datasets",
      readOnly: true,
      accessModes: ["ReadWriteMany"],
      capacity: "10Gi",
      ready: true,
      source: { claimName: "pvc-data", namespace: "sandboxes" },
      createdAtMs: 1000,
    });
    expect(volumeOfClaim(pvc as never, "beta")).toBeUndefined();
    expect(volumeOfClaim({ ...pvc, status: { phase: "Pending" } } as never, "alpha")).toMatchObject({
      ready: false,
      reason: "claim pvc-data is Pending",
    });
    expect(toProtoVolume(volumeOfClaim(pvc as never, "alpha") as RegisteredVolume, 2, "r1", 0)).toMatchObject({
      volume_id: "datasets",
      spec: { pvc: { runner_id: "r1", namespace: "sandboxes", claim_name: "pvc-data" }, read_only: true },
      status: { state: "VOLUME_STATE_READY", access_modes: ["ReadWriteMany"], capacity: "10Gi", attached_sandbox_count: 2 },
    });
  });
});

describe("sized scratch volumes on the local runtime", () => {
  it("makes an ext4 file system of the size, its root the sandbox user's; refuses sizes below 1Mi naming the volume", async () => {
    const { makeVolumeImage, mkfsArgv } = await import("../../runtime/local/volume-fs.js");
    expect(mkfsArgv("/sbin/mkfs.ext4", "/d/w.img", 200000, 200000)).toEqual([
      "/sbin/mkfs.ext4",
      "-q",
      "-F",
      "-O",
      "^has_journal,^resize_inode",
      "-m",
      "0",
      "-E",
      "root_owner=200000:200000,lazy_itable_init=1",
      "/d/w.img",
    ]);
    const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-vol-"));
    await expect(
      makeVolumeImage({ mkfs: "/bin/true", image: path.join(dir, "a.img"), size: "512Ki", name: "work", uid: 1, gid: 1 }),
    ).rejects.toThrow(/scratch.size.*volume work: 512Ki is below the local runtime's smallest volume, 1Mi/);
    // The sparse file has the volume's size (mkfs is a stand-in here; the e2e suite runs the real one).
    const img = await makeVolumeImage({ mkfs: "/bin/true", image: path.join(dir, "b.img"), size: "64Mi", name: "work", uid: 1, gid: 1 });
    expect((await stat(img)).size).toBe(64 * 1024 * 1024);
    await expect(
      makeVolumeImage({ mkfs: "/bin/false", image: path.join(dir, "c.img"), size: "2Mi", name: "work", uid: 1, gid: 1 }),
    ).rejects.toThrow(/could not make the file system of volume work \(\/bin\/false exited 1/);
  });
});

describe("sandbox disks made ahead", () => {
  it("a start takes a formatted spare (renamed into place) and one is made to replace it; with none ready it formats its own", async () => {
    const { diskSpares } = await import("../../runtime/local/volume-fs.js");
    const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-disks-"));
    const spares = diskSpares({
      dir: path.join(dir, "spares"),
      mkfs: "/bin/true",
      bytes: 64 * 1024 * 1024,
      count: 2,
      layout: [{ name: "tmp", uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, mode: 0o1777 }],
    });
    const until = async (f: () => boolean) => {
      for (let i = 0; i < 200 && !f(); i++) await new Promise((r) => setTimeout(r, 10));
    };
    await until(() => spares.ready() === 2);
    expect(spares.ready()).toBe(2);
    const a = await spares.take(path.join(dir, "a.img"));
    expect((await stat(a)).size).toBe(64 * 1024 * 1024);
    await until(() => spares.ready() === 2);
    expect(spares.ready()).toBe(2);
    const [b, c, d] = await Promise.all(["b", "c", "d"].map((n) => spares.take(path.join(dir, `${n}.img`))));
    for (const f of [b, c, d]) expect((await stat(f as string)).size).toBe(64 * 1024 * 1024);
  });
});
