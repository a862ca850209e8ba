/** The local start as a pure plan (runtime/local/local-plan.ts): a row per decision. */
import { describe, expect, it } from "vitest";
import type { SandboxSpec } from "../../core/types.js";
import { SANDBOX_DNS } from "../../runtime/local/egress.js";
import { planStart, type PlanInputs, type PlanOptions } from "../../runtime/local/local-plan.js";
import { slotPool } from "../../runtime/local/userns.js";
import { record, spec } from "./fixtures.js";
import { subject } from "./subjects.js";

const ID = "0f0e0d0c-0b0a-4000-8000-000000000001";
const DIR = `/data/sandboxes/${ID}`;
const users = { range: { start: 200_000, size: 65_536 }, slots: slotPool(300_000, 64) };
const options = (over: Partial<PlanOptions> = {}): PlanOptions => ({
  dataDir: "/data",
  isolation: "bubblewrap",
  tools: {},
  users,
  egress: { tools: {} as never, deniedCidrs: [] },
  maskPaths: ["/etc/hangar", "/"],
  sandboxUid: 1000,
  pidsMax: 256,
  defaultMemoryBytes: 512 * 1024 * 1024,
  defaultCpuMillicores: 1000,
  ...over,
});
const inputs = (s: Partial<SandboxSpec> = {}, over: Partial<PlanInputs> = {}): PlanInputs => ({
  record: record({ id: ID, spec: spec(s) }),
  o: options(),
  instance: "iabc",
  isRoot: true,
  ownDisk: false,
  helpers: {
    ptyHelper: "/data/helpers/pty",
    guard: "/data/helpers/guard",
    procMasks: { files: [], dirs: [] },
    egress: { tun: "/data/tun" },
  },
  rootfs: { dir: "/images/py", env: { LANG: "C" }, note: "local runtime: image python:3.11 from cache", mapped: false },
  gpuDevices: [],
  restored: new Map(),
  hostEnv: { PATH: "/usr/bin", HOME: "/root" },
  ...over,
});
const grants = [{ to: "any", ports: [] }] as never;
const vol = (over: Partial<SandboxSpec["volumes"][number]>) => ({ name: "data", mountPath: "/data", ...over });

describe("the local start plan", () => {
  it("egress: off unless the record grants some; on: resolv.conf and pasta", () => {
    const off = planStart(inputs());
    expect([off.network, off.pasta]).toEqual([false, false]);
    expect(off.launch?.paths.files).toEqual([]);
    expect(off.notes.tail.at(-1)).toBe("network: own namespace, loopback only (egress denied)");
    const on = planStart(inputs({}, { record: record({ id: ID, spec: spec(), effectiveEgress: grants }) }));
    expect([on.network, on.pasta]).toEqual([true, true]);
    expect(on.writes).toContainEqual({ path: `${DIR}/resolv.conf`, content: `nameserver ${SANDBOX_DNS}\n`, mode: 0o444 });
    expect(on.launch?.paths.files).toEqual([{ host: `${DIR}/resolv.conf`, path: "/etc/resolv.conf" }]);
  });

  it("egress the spec asks for is not what counts: the record's decision is", () => {
    expect(planStart(inputs({ denyEgress: false })).network).toBe(false);
    expect(
      planStart(inputs({ denyEgress: true }, { record: record({ id: ID, spec: spec({ denyEgress: true }), effectiveEgress: grants }) }))
        .network,
    ).toBe(true);
  });

  it("egress this Hangar cannot give is refused with the field and reason", () => {
    const plan = () =>
      planStart(
        inputs(
          {},
          {
            record: record({ id: ID, spec: spec(), effectiveEgress: grants }),
            helpers: { ...inputs().helpers, egress: new Error("no tun") },
          },
        ),
      );
    expect(plan).toThrow("this Hangar cannot give local sandboxes egress: no tun; ask for deny_egress=true");
    expect(plan).toThrow(
      expect.objectContaining({
        violations: [expect.objectContaining({ field: subject("spec.denyEgress", "sandbox.spec.network.deny_egress") })],
      }),
    );
  });

  it("egress without users: no pasta (no slot to own its namespace)", () => {
    const on = planStart(
      inputs({}, { record: record({ id: ID, spec: spec(), effectiveEgress: grants }), o: options({ users: undefined }) }),
    );
    expect([on.network, on.pasta]).toEqual([true, false]);
  });

  it("isolation off: the command itself, on the host, with Hangar's env and the sandbox's home", () => {
    const p = planStart(inputs({ argv: ["/bin/true"] }, { o: options({ isolation: "none" }) }));
    expect(p.launch).toBeUndefined();
    expect(p.overlay).toBeUndefined();
    expect(p.owners).toEqual([]);
    expect(p.spawn).toMatchObject({ argv: ["/bin/true"], cwd: `${DIR}/home`, env: { HOME: `${DIR}/home` } });
    expect(p.notes.tail).toEqual(["UNSAFE: no isolation (HANGAR_LOCAL_UNSAFE_NO_ISOLATION)"]);
  });

  it("isolation on, Hangar root: a writable overlay root; bubblewrap with only PATH", () => {
    const p = planStart(inputs());
    expect(p.overlay).toEqual({ lower: "/images/py", upper: `${DIR}/upper`, work: `${DIR}/work`, target: `${DIR}/root` });
    expect(p.launch?.paths).toMatchObject({ root: `${DIR}/root`, rootWritable: true, maskSecrets: false });
    expect(p.spawn).toEqual({ argv: [], cwd: "/", env: { PATH: "/usr/bin" } });
    expect(p.notes.head).toContain("private writable overlay");
    expect(p.owners).toEqual([
      { path: `${DIR}/upper`, uid: 200_000, gid: 200_000 },
      { path: `${DIR}/tmp`, uid: 200_000, gid: 200_000, mode: 0o1777 },
      { path: `${DIR}/home`, uid: 201_000, gid: 201_000 },
    ]);
  });

  it("isolation on, Hangar not root: a read-only root", () => {
    const p = planStart(inputs({}, { isRoot: false, o: options({ users: undefined }) }));
    expect(p.overlay).toBeUndefined();
    expect(p.launch?.paths).toMatchObject({ root: "/images/py", rootWritable: false });
    expect(p.notes.head).toContain("read-only root (Hangar is not root: no overlay); writable /tmp and home");
    expect(p.owners).toEqual([]);
  });

  it("a mapped rootfs masks the host's secrets (never / nor what holds /tmp)", () => {
    const p = planStart(inputs({}, { rootfs: { dir: "/", env: {}, note: "host", mapped: true } }));
    expect(p.launch?.maskPaths).toEqual(["/etc/hangar"]);
    expect(p.launch?.paths.maskSecrets).toBe(true);
  });

  it("own disk: tmp, home and the overlay's upper on it; nothing to chown", () => {
    const p = planStart(inputs({}, { ownDisk: true, o: options({ diskBytes: 1 << 30 }) }));
    expect(p.disk).toEqual({ dir: `${DIR}/disk`, image: `${DIR}/disk.img` });
    expect(p.launch?.paths).toMatchObject({ tmp: `${DIR}/disk/tmp`, home: `${DIR}/disk/home` });
    expect(p.overlay?.upper).toBe(`${DIR}/disk/upper`);
    expect(p.owners).toEqual([]);
    expect(p.notes.tail).toContain(`own disk of ${1 << 30} bytes (root's writes, /tmp, home, unsized volumes)`);
  });

  it("GPUs: the devices held and the driver's shared nodes and /proc directory", () => {
    const p = planStart(
      inputs(
        {},
        {
          gpuDevices: ["/dev/nvidia0"],
          procDriver: "/proc/driver/nvidia",
          o: options({ gpus: { devices: [], shared: ["/dev/nvidiactl"] } as never }),
        },
      ),
    );
    expect(p.launch?.paths).toMatchObject({ devices: ["/dev/nvidia0", "/dev/nvidiactl"], procDriver: "/proc/driver/nvidia" });
    expect(p.notes.head).toContain("GPUs: /dev/nvidia0");
  });

  it("limits: asked for, or the defaults; runners() counts what was asked", () => {
    const asked = planStart(inputs({ limits: { memory: "1Gi", cpu: "500m" } }));
    expect(asked.cgroup).toEqual({ name: `iabc/${ID}`, caps: { memoryBytes: 1024 ** 3, cpuMillicores: 500, pidsMax: 256 } });
    expect([asked.memoryBytes, asked.cpuMillicores]).toEqual([1024 ** 3, 500]);
    const none = planStart(inputs());
    expect(none.cgroup.caps).toEqual({ memoryBytes: 512 * 1024 * 1024, cpuMillicores: 1000, pidsMax: 256 });
    expect([none.memoryBytes, none.cpuMillicores]).toEqual([512 * 1024 * 1024, 0]);
  });

  it("files: written read-only, mounted at their paths", () => {
    const p = planStart(inputs({ files: [{ path: "/etc/app.conf", content: Buffer.from("x=1") }] }));
    expect(p.writes).toContainEqual({ path: `${DIR}/files/0`, content: Buffer.from("x=1"), mode: 0o444 });
    expect(p.launch?.paths.files).toEqual([{ host: `${DIR}/files/0`, path: "/etc/app.conf" }]);
  });

  it("secrets: in the env, off bubblewrap's command line, through the --args pipe", () => {
    const p = planStart(inputs({ env: { A: "1" } }, { secrets: { env: { TOKEN: "s3cret" } } }));
    expect(p.env).toMatchObject({ A: "1", TOKEN: "s3cret" });
    expect(p.secrets).toEqual({ TOKEN: "s3cret" });
    expect(p.launch?.env.TOKEN).toBeUndefined();
    expect(p.launch?.argsFd).toBe(6);
    expect(planStart(inputs({}, { secrets: { env: {} } })).secrets).toBeUndefined();
  });

  it("volumes: scratch read-write and read-only, owned by the sandbox user", () => {
    const p = planStart(inputs({ volumes: [vol({}), vol({ mountPath: "/ro", readOnly: true })] }));
    expect(p.launch?.paths.volumes).toEqual([
      { host: `${DIR}/volumes/data`, path: "/data", readOnly: undefined },
      { host: `${DIR}/volumes/data`, path: "/ro", readOnly: true },
    ]);
    expect(p.volumes.filter((a) => a.t === "mkdir")).toHaveLength(4);
    expect(p.owners.slice(3)).toEqual([
      { path: `${DIR}/volumes/data`, uid: 201_000, gid: 201_000 },
      { path: `${DIR}/volumes/data`, uid: 201_000, gid: 201_000 },
    ]);
  });

  it("volumes: on the own disk, made in the mount namespace", () => {
    const p = planStart(inputs({ volumes: [vol({ subPath: "a/b" })] }, { ownDisk: true }));
    expect(p.volumes).toEqual([
      { t: "step", step: { t: "dir", path: `${DIR}/disk/volumes/data/a/b`, uid: 201_000, gid: 201_000, mode: 0o755 } },
    ]);
  });

  it("volumes: a sized one gets a file system of its own", () => {
    const p = planStart(inputs({ volumes: [vol({ size: "1Gi" })] }));
    expect(p.volumes).toEqual([
      { t: "mkdir", path: `${DIR}/volumes/data` },
      expect.objectContaining({ t: "volumeFs", image: `${DIR}/volume-fs/data.img`, size: "1Gi", target: `${DIR}/volumes/data` }),
    ]);
    expect(p.notes.head).toContain("volumes of their own size: data");
  });

  it("volumes: restored from a snapshot layer, copy-on-write (only with an overlay root)", () => {
    const restored = new Map([["data", "/data/layers/abc/tree"]]);
    const s = { volumes: [vol({ restore: { snapshotId: "s", at: "v", layer: "abc" } })] };
    const p = planStart(inputs(s, { restored }));
    expect(p.copyOnWrite).toEqual(["data"]);
    expect(p.volumes).toContainEqual({
      t: "step",
      step: {
        t: "overlay",
        lower: "/data/layers/abc/tree",
        upper: `${DIR}/volume-upper/data`,
        work: `${DIR}/volume-work/data`,
        target: `${DIR}/volumes/data`,
      },
    });
    expect(p.notes.tail).toContain("copy-on-write restore of data");
    expect(planStart(inputs(s, { restored, isRoot: false })).copyOnWrite).toEqual([]);
  });

  it("volumes: a registered one is the operator's directory; its sub paths are refused", () => {
    const registered = { id: "v1", at: "sandbox.spec.volumes[0]", source: { hostPath: "/srv/v1" } } as never;
    const p = planStart(inputs({ volumes: [vol({ registered, readOnly: true })] }));
    expect(p.launch?.paths.volumes).toEqual([{ host: "/srv/v1", path: "/data", readOnly: true }]);
    expect(p.volumes).toEqual([]);
    expect(() => planStart(inputs({ volumes: [vol({ registered, subPath: "x" })] }))).toThrow(/sub paths of registered volumes/);
  });

  it("log: its size, rate and tenant's budget", () => {
    expect(planStart(inputs({}, { o: options({ logBytes: 1024, logBytesPerSecond: 10 }) })).log).toEqual({
      bytes: 1024,
      bytesPerSecond: 10,
      tenant: "alpha",
    });
  });
});
