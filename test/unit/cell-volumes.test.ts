/** Scratch volumes at claim in reused pool pods (ADR 0042): which go warm, and the list the cell is made with. */
import { describe, expect, it } from "vitest";
import { cellVolumesOf } from "../../runtime/kubernetes/pool/cell-volumes.js";
import { poolMatch, type WarmPoolConfig } from "../../runtime/kubernetes/pool/warm-pool.js";
import { spec } from "./fixtures.js";
import { noIdlePod } from "../../runtime/kubernetes/lifecycle/start.js";

const pools: WarmPoolConfig[] = [{ image: "python:3.12", size: 2 }];
const sb = (volumes: ReturnType<typeof spec>["volumes"]) => spec({ argv: [], image: "python:3.12", volumes });

describe("poolMatch with scratch volumes", () => {
  it("reused pods take scratch volumes (made in the sandbox's cell at claim)", () => {
    expect(poolMatch(sb([{ name: "data", mountPath: "/data", size: "1Gi" }]), pools, "none", undefined, { cellVolumes: true })).toEqual({
      pool: pools[0],
      volumes: true,
    });
  });
  it("without reuse they start cold and say where they would go warm", () => {
    const m = poolMatch(sb([{ name: "data", mountPath: "/data" }]), pools, "none", undefined, {});
    expect("why" in m && m.why).toMatch(/volumes \(scratch ones go warm only in reused pool pods, HANGAR_KUBE_POOL_REUSE\)/);
  });
  it("registered and restored volumes need a pod of their own", () => {
    for (const v of [
      { name: "r", mountPath: "/r", registered: { id: "vol-1", at: "/" } },
      { name: "s", mountPath: "/s", restore: { snapshotId: "snap-1", at: "/" } },
    ]) {
      const m = poolMatch(sb([v]), pools, "none", undefined, { cellVolumes: true });
      expect("why" in m && m.why).toMatch(/volumes other than scratch ones \(registered, or restored from a snapshot\)/);
    }
  });
  it("no volumes: nothing to make at claim", () => {
    expect(poolMatch(sb([]), pools, "none", undefined, { cellVolumes: true })).toEqual({ pool: pools[0] });
  });
});

describe("cellVolumesOf", () => {
  it("one entry per mount, sizes in bytes shared by the volume's mounts, read-only and subPath kept", () => {
    expect(
      cellVolumesOf({
        volumes: [
          { name: "data", mountPath: "/data", size: "1Mi" },
          { name: "data", mountPath: "/ro", readOnly: true, subPath: "out" },
          { name: "free", mountPath: "/free" },
          { name: "dec", mountPath: "/dec", size: "1.5k" },
        ],
      }),
    ).toEqual([
      { name: "data", path: "/data", bytes: 1048576 },
      { name: "data", path: "/ro", bytes: 1048576, readOnly: true, subPath: "out" },
      { name: "free", path: "/free" },
      { name: "dec", path: "/dec", bytes: 1500 },
    ]);
  });
});

describe("noIdlePod", () => {
  it("says when the claim needed /bin/sh", () => {
    expect(noIdlePod({ pool: { image: "py" } }, false)).toBe("its warm pool (image py) had no idle pod");
    expect(noIdlePod({ pool: { image: "py" }, workingDir: "/w" }, false)).toMatch(/no idle pod whose image has \/bin\/sh/);
    expect(noIdlePod({ pool: { image: "py" } }, true)).toMatch(/no idle pod whose image has \/bin\/sh \(secrets and a working directory/);
  });
});
