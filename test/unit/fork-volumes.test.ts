import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkArchive } from "../../runtime/kubernetes/fork/archive-check.js";
import { ATTR_ARCHIVE, ATTR_LAYER, ATTR_SIZE, createForkVolumes } from "../../runtime/kubernetes/fork/volumes.js";
import { buildPod } from "../../runtime/kubernetes/pod/spec.js";
import { spec as baseSpec } from "./fixtures.js";

/** A ustar entry (the checker reads names, types, owners and sizes; checksums are not its business). */
function entry(name: string, type: string, o: { body?: string; link?: string; uid?: number } = {}): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100);
  h.write("0000644\0", 100);
  h.write(`${(o.uid ?? 0).toString(8).padStart(7, "0")}\0`, 108);
  h.write("0000000\0", 116);
  const body = Buffer.from(o.body ?? "");
  h.write(`${body.length.toString(8).padStart(11, "0")}\0`, 124);
  h.write(type, 156);
  if (o.link) h.write(o.link, 157, 100);
  h.write("ustar\x0000", 257);
  const pad = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  body.copy(pad);
  return Buffer.concat([h, pad]);
}
async function* none(): AsyncIterable<Uint8Array> {}
const tarOf = (...es: Buffer[]) => Buffer.concat([...es, Buffer.alloc(1024)]);

async function fileOf(b: Buffer): Promise<string> {
  const f = path.join(await mkdtemp(path.join(tmpdir(), "hangar-archive-")), "a.tar");
  await writeFile(f, b);
  return f;
}

describe("checkArchive: what hangar-forkcsi would unpack", () => {
  it("passes a tree as tar -cf makes it: directories, files, symlinks anywhere, hard links to files before them", async () => {
    const f = await fileOf(
      tarOf(
        entry("./", "5"),
        entry("./src/", "5"),
        entry("./src/a.py", "0", { body: "print(1)\n", uid: 1000 }),
        entry("./src/b.py", "1", { link: "./src/a.py" }),
        entry("./etc", "2", { link: "/etc" }),
      ),
    );
    await expect(checkArchive(f)).resolves.toBeUndefined();
  });
  it.each([
    ["a device", [entry("./", "5"), entry("./mem", "3")], /entry type "3"/],
    ["a fifo", [entry("./", "5"), entry("./p", "6")], /entry type "6"/],
    ["a path up", [entry("./", "5"), entry("../x", "0", { body: "x" })], /outside the volume/],
    ["an absolute path", [entry("/etc/x", "0", { body: "x" })], /outside the volume/],
    [
      "a path through a symlink",
      [entry("./", "5"), entry("./out", "2", { link: "/tmp" }), entry("./out/x", "0", { body: "x" })],
      /not a directory of the archive/,
    ],
    ["a hard link out", [entry("./", "5"), entry("./pw", "1", { link: "../../etc/passwd" })], /outside the volume/],
    [
      "a hard link to a symlink",
      [entry("./", "5"), entry("./l", "2", { link: "/etc/passwd" }), entry("./pw", "1", { link: "./l" })],
      /not a file before it/,
    ],
    ["an owner past the pod's ids", [entry("./", "5"), entry("./f", "0", { body: "x", uid: 70000 })], /outside the sandbox's ids/],
    ["a name twice", [entry("./", "5"), entry("./f", "0", { body: "x" }), entry("./f", "0", { body: "y" })], /twice/],
  ])("refuses %s", async (_what, es, why) => {
    await expect(checkArchive(await fileOf(tarOf(...es)))).rejects.toThrow(why);
  });
  it("refuses an archive cut short", async () => {
    const whole = tarOf(entry("./", "5"), entry("./f", "0", { body: "x".repeat(2000) }));
    await expect(checkArchive(await fileOf(whole.subarray(0, 1100)))).rejects.toThrow(/past the archive's end/);
  });
});

describe("createForkVolumes", () => {
  it("names a restored volume's CSI source once its archive passed; other volumes stay emptyDirs", async () => {
    const f = await fileOf(tarOf(entry("./", "5"), entry("./a", "0", { body: "a" })));
    const fork = createForkVolumes("fork.csi.hangar.dev");
    await fork.layers.ensure("t/s1@5", { path: f, open: none });
    const spec = {
      ...baseSpec(),
      volumes: [
        { name: "ws", mountPath: "/ws", size: "8Mi", restore: { snapshotId: "s1", at: "x", layer: "t/s1@5" } },
        { name: "tmp", mountPath: "/scratch" },
      ],
    };
    const csi = fork.csiVolumes(spec);
    expect(Object.keys(csi)).toEqual(["ws"]);
    expect(csi.ws?.driver).toBe("fork.csi.hangar.dev");
    expect(csi.ws?.volumeAttributes).toEqual({
      [ATTR_ARCHIVE]: f,
      [ATTR_LAYER]: expect.stringMatching(/^[0-9a-f]{64}$/),
      [ATTR_SIZE]: String(8 * 1024 * 1024),
    });
    const pod = buildPod("abc", spec, { namespace: "ns", egress: false, csiVolumes: csi, ephemeralStorageBytes: 1024 ** 3 });
    // The clone is a file system of its own size on the plugin's pool: it adds nothing to the pod's node disk.
    expect(pod.spec?.containers[0]?.resources?.limits?.["ephemeral-storage"]).toBe(String(1024 ** 3));
    expect(
      buildPod("abc", spec, { namespace: "ns", egress: false, ephemeralStorageBytes: 1024 ** 3 }).spec?.containers[0]?.resources?.limits?.[
        "ephemeral-storage"
      ],
    ).toBe(String(1024 ** 3 + 8 * 1024 * 1024));
    expect(pod.spec?.volumes?.find((v) => v.name === "vol-ws")).toEqual({ name: "vol-ws", csi: csi.ws });
    expect(pod.spec?.volumes?.find((v) => v.name === "vol-tmp")).toEqual({ name: "vol-tmp", emptyDir: {} });
  });
  it("refuses a layer whose archive the plugin would refuse, and one the store keeps no file of", async () => {
    const fork = createForkVolumes("fork.csi.hangar.dev");
    const bad = await fileOf(tarOf(entry("./", "5"), entry("./mem", "3")));
    await expect(fork.layers.ensure("t/s2@5", { path: bad, open: none })).rejects.toThrow(/entry type/);
    await expect(fork.layers.ensure("t/s3@5", { open: none })).rejects.toThrow(/no archive file/);
    const spec = { ...baseSpec(), volumes: [{ name: "ws", mountPath: "/ws", restore: { snapshotId: "s2", at: "x", layer: "t/s2@5" } }] };
    expect(fork.csiVolumes(spec)).toEqual({});
    // Under 1 MiB the plugin makes no file system: tar fills an emptyDir instead.
    await fork.layers.ensure("t/s4@5", { path: await fileOf(tarOf(entry("./", "5"))), open: none });
    expect(
      fork.csiVolumes({
        ...baseSpec(),
        volumes: [{ name: "ws", mountPath: "/ws", size: "512Ki", restore: { snapshotId: "s4", at: "x", layer: "t/s4@5" } }],
      }),
    ).toEqual({});
  });
});
