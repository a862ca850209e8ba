import { describe, expect, it } from "vitest";
import { toDomainSpec } from "../../api/spec.js";
import { chooseRunner } from "../../controller/placement.js";
import type { RunnerInfo } from "../../core/types.js";
import { bwrapArgs } from "../../runtime/local/bwrap-args.js";
import { createGpuPool } from "../../runtime/local/gpus.js";

describe("local GPUs: the devices the operator listed, one sandbox each", () => {
  it("takes all or none, never a device another sandbox holds, and gives them back", () => {
    const pool = createGpuPool({
      devices: ["/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia2"],
      shared: ["/dev/nvidiactl"],
      type: "H100",
      memoryGb: 80,
    });
    expect(pool.take("a", 2)).toEqual({ devices: ["/dev/nvidia0", "/dev/nvidia1"] });
    expect(pool.take("b", 2)).toEqual({ refused: "2 of this Hangar's 3 local GPUs are in use (2 asked, 1 free)" });
    expect(pool.held("b")).toEqual([]);
    expect(pool.take("c", 1)).toEqual({ devices: ["/dev/nvidia2"] });
    expect(pool.runnerGpus()).toEqual({ perNodeMax: 3, total: 3, available: 0, types: ["H100"], maxMemoryGb: 80 });
    pool.release("a");
    expect(pool.held("a")).toEqual([]);
    expect(pool.take("b", 2)).toEqual({ devices: ["/dev/nvidia0", "/dev/nvidia1"] });
    expect(pool.take("d", 4)).toEqual({ refused: "this Hangar's local runtime has 3 GPUs (4 asked)" });
    expect(pool.held("c")).toEqual(["/dev/nvidia2"]);
  });

  it("binds a sandbox's devices at their own paths, and shows the driver's /proc directory only to it", () => {
    const spec = toDomainSpec({ containers: [{ image: "python:3.11" }] } as never, { maxLifetimeSeconds: 60 });
    const paths = { root: "/r", rootWritable: true, tmp: "/t", home: "/h", empty: "/e", files: [], volumes: [] };
    const masks = { files: [], dirs: ["/proc/driver", "/proc/acpi"] };
    const plain = bwrapArgs({ paths, spec, hostname: "h", uid: 0, maskPaths: [], env: {}, procMasks: masks });
    expect(plain.join(" ")).not.toContain("--dev-bind");
    expect(plain.join(" ")).toContain("--tmpfs /proc/driver --remount-ro /proc/driver");
    const gpu = bwrapArgs({
      paths: { ...paths, devices: ["/dev/nvidia1", "/dev/nvidiactl"], procDriver: "/proc/driver/nvidia" },
      spec,
      hostname: "h",
      uid: 0,
      maskPaths: [],
      env: {},
      procMasks: masks,
    }).join(" ");
    expect(gpu).toContain(
      "--dev /dev --proc /proc --tmpfs /run --dev-bind /dev/nvidia1 /dev/nvidia1 --dev-bind /dev/nvidiactl /dev/nvidiactl",
    );
    expect(gpu).toContain("--tmpfs /proc/driver --ro-bind /proc/driver/nvidia /proc/driver/nvidia --remount-ro /proc/driver");
    expect(gpu).toContain("--tmpfs /proc/acpi --remount-ro /proc/acpi");
  });

  it("places a GPU sandbox on the local runner only when it has enough of the model asked", () => {
    const runner = (gpus?: RunnerInfo["gpus"]): RunnerInfo => ({
      runnerId: "local",
      runnerGroupId: "g",
      organizationId: "o",
      architectures: [],
      healthy: true,
      connectedAtMs: 0,
      maxCpuMillicores: 1,
      maxMemoryBytes: 1,
      availableCpuMillicores: 1,
      availableMemoryBytes: 1,
      runningSandboxes: 0,
      runtimeClasses: [],
      ...(gpus ? { gpus } : {}),
    });
    const ask = (gpu: object) =>
      toDomainSpec({ containers: [{ image: "python:3.11", resources: { gpu } }] } as never, { maxLifetimeSeconds: 60 });
    const two = createGpuPool({ devices: ["/dev/a", "/dev/b"], shared: [], type: "H100" }).runnerGpus();
    expect(chooseRunner(ask({ count: 1 }), [runner()])).toMatchObject({
      refused: expect.stringMatching(/no runner can give one sandbox 1 GPU/),
    });
    expect(chooseRunner(ask({ count: 2, type: "H100" }), [runner(two)])).toHaveProperty("runner");
    expect(chooseRunner(ask({ count: 1, type: "A100" }), [runner(two)])).toMatchObject({ refused: expect.stringMatching(/of type A100/) });
    expect(chooseRunner(ask({ count: 3 }), [runner(two)])).toMatchObject({ refused: expect.stringMatching(/3 GPUs/) });
  });
});
