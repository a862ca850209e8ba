/**
 * Sized pools (ADR 0043): `image=size+cpu:<q>+memory:<q>` pools whose reused pods take each
 * sandbox's own limits at claim, resized in place; a pod's memory limit only goes up, so a claim
 * never takes a pod whose limit is above the sandbox's.
 */
import type { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { DEFAULT_EGRESS_CONFIG } from "../../runtime/kubernetes/egress/policy.js";
import { idlePod, type PodPlanOptions } from "../../runtime/kubernetes/lifecycle/pod-plan.js";
import { createKubeState } from "../../runtime/kubernetes/lifecycle/state.js";
import { canResize, capsFit, cgroupWant, idleResources, type MainResources, sameResources } from "../../runtime/kubernetes/pool/caps.js";
import { resizePatch } from "../../runtime/kubernetes/pool/resize.js";
import {
  claimOrder,
  mainResourcesOf,
  parseWarmPools,
  poolKey,
  poolMatch,
  resolveWarmPools,
  type WarmPoolConfig,
} from "../../runtime/kubernetes/pool/warm-pool.js";
import { slimPod } from "../../runtime/kubernetes/pod/state.js";
import { spec } from "./fixtures.js";

const res = (limits: MainResources["limits"], requests: MainResources["requests"] = limits): MainResources => ({ requests, limits });

describe("HANGAR_KUBE_WARM_POOLS +cpu and +memory", () => {
  it("parses caps after the size, with +https and @runner; a sized pool and a plain one of the same image are two pools", () => {
    expect(parseWarmPools("python:3.12=4,python:3.12=2+cpu:1+memory:2Gi,python:3.12=1-8+https+memory:512Mi@gpu")).toEqual([
      { image: "python:3.12", size: 4 },
      { image: "python:3.12", size: 2, caps: { cpu: "1", memory: "2Gi" } },
      { image: "python:3.12", size: 8, min: 1, runner: "gpu", https: true, caps: { memory: "512Mi" } },
    ]);
  });
  const refusals: [string, RegExp][] = [
    ["python:3.12=2+cpu:lots", /\+cpu:<quantity> is a CPU limit from 1m to 1024/],
    ["python:3.12=2+cpu:2000", /from 1m to 1024/],
    ["python:3.12=2+memory:32Mi", /\+memory:<quantity> is a memory limit of at least 64Mi/],
    ["python:3.12=2+memory:1Gi+memory:2Gi", /\+memory appears twice/],
    ["python:3.12=2+https+https", /\+https appears twice/],
    ["python:3.12=2+gpu:1", /\+ takes https, cpu:<quantity> or memory:<quantity> \(got \+gpu\)/],
    ["template:small=2+cpu:1", /size an image's pool; a template's pool has the template's resources/],
    ["python:3.12=2+cpu:1,python:3.12=3+memory:1Gi", /python:3.12\+sized appears twice/],
  ];
  for (const [text, want] of refusals) it(`refuses ${text}`, () => expect(() => parseWarmPools(text)).toThrow(want));
  it("resolves an image's sized pool to a shape with the caps; its key differs from the plain pool's, which keeps its own", () => {
    const [plain, sized] = resolveWarmPools(
      parseWarmPools("python:3.12=2,python:3.12=2+cpu:1+memory:1Gi"),
      () => undefined,
      () => false,
      true,
    );
    expect(sized?.shape).toEqual({ requests: {}, limits: {}, caps: { cpu: "1", memory: "1Gi" } });
    expect(poolKey(plain!.image, plain!.shape)).toBe("python:3.12");
    expect(poolKey(sized!.image, sized!.shape)).not.toBe("python:3.12");
    // Other shapes keep their keys (and their pods' labels) from before sized pools.
    expect(poolKey("i", { requests: {}, limits: {}, https: true })).toBe(JSON.stringify(["i", "", "", "", "", "", "https"]));
  });
});

describe("capsFit", () => {
  const caps = { cpu: "1", memory: "1Gi" };
  const cases: [string, Parameters<typeof capsFit>[0], ReturnType<typeof capsFit>][] = [
    [
      "limits within the caps; requests default to them",
      { requests: {}, limits: { cpu: "500m", memory: "256Mi" } },
      { resources: res({ cpu: "500m", memory: "256Mi" }) },
    ],
    [
      "its own requests kept",
      { requests: { cpu: "100m" }, limits: { cpu: "1", memory: "1Gi" } },
      { resources: res({ cpu: "1", memory: "1Gi" }, { cpu: "100m", memory: "1Gi" }) },
    ],
    [
      "no limits",
      { requests: {}, limits: {} },
      { why: "the pool's pods are sized for sandboxes that limit cpu and memory, and it limits none" },
    ],
    [
      "one of two",
      { requests: {}, limits: { memory: "256Mi" } },
      { why: "the pool's pods are sized for sandboxes that limit cpu and memory, and it limits memory" },
    ],
    ["cpu above", { requests: {}, limits: { cpu: "1500m", memory: "256Mi" } }, { why: "its cpu limit 1500m is above the pool's cap of 1" }],
    ["memory above", { requests: {}, limits: { cpu: "1", memory: "2Gi" } }, { why: "its memory limit 2Gi is above the pool's cap of 1Gi" }],
    [
      "memory below the floor",
      { requests: {}, limits: { cpu: "1", memory: "32Mi" } },
      { why: expect.stringMatching(/below the 64Mi a pool pod starts with/) as never },
    ],
  ];
  for (const [name, s, want] of cases) it(name, () => expect(capsFit(s, caps)).toEqual(want));
  it("a request of a resource the pool limits but the sandbox does not", () =>
    expect(capsFit({ requests: { cpu: "1" }, limits: { memory: "256Mi" } }, { memory: "1Gi" })).toEqual({
      why: "it requests cpu without limiting it, and the pool's pods limit it",
    }));
});

describe("resizing in place", () => {
  it("a pod's memory limit only goes up: a pod raised above the ask cannot serve it; CPU goes both ways", () => {
    expect(canResize(res({ cpu: "1", memory: "64Mi" }), res({ cpu: "250m", memory: "256Mi" }))).toBe(true);
    expect(canResize(res({ cpu: "250m", memory: "256Mi" }), res({ cpu: "1", memory: "256Mi" }))).toBe(true);
    expect(canResize(res({ memory: "384Mi" }), res({ memory: "256Mi" }))).toBe(false);
    expect(canResize(res({}), res({ memory: "256Mi" }))).toBe(false); // adding a memory limit is lowering it
    expect(canResize(res({ cpu: "1" }), res({ cpu: "2" }))).toBe(true);
  });
  it("compares quantities, not spellings", () => {
    expect(sameResources(res({ cpu: "0.5", memory: "1Gi" }), res({ cpu: "500m", memory: "1024Mi" }))).toBe(true);
    expect(sameResources(res({ cpu: "500m", memory: "1Gi" }), res({ cpu: "500m", memory: "1Gi" }, { cpu: "100m", memory: "1Gi" }))).toBe(
      false,
    );
    expect(sameResources(res({ cpu: "1" }), res({ cpu: "1", memory: "1Gi" }))).toBe(false);
  });
  it("the cgroup values the kubelet writes: quota = milli x 100 ms / 1000 (at least 1 ms), memory in bytes", () => {
    expect(cgroupWant({ cpu: "250m", memory: "256Mi" })).toEqual({ memory_bytes: 268435456, cpu_quota_us: 25000, cpu_period_us: 100000 });
    expect(cgroupWant({ cpu: "2" })).toEqual({ cpu_quota_us: 200000, cpu_period_us: 100000 });
    expect(cgroupWant({ cpu: "1m" })).toEqual({ cpu_quota_us: 1000, cpu_period_us: 100000 });
    expect(cgroupWant({ memory: "1G" })).toEqual({ memory_bytes: 1e9 });
  });
  it("an idle pod starts at the CPU cap and the memory floor, with small requests", () => {
    expect(idleResources({ cpu: "2", memory: "4Gi" })).toEqual(res({ cpu: "2", memory: "64Mi" }, { cpu: "10m", memory: "64Mi" }));
    expect(idleResources({ memory: "4Gi" })).toEqual(res({ memory: "64Mi" }));
  });
  it("the resize patch names the main container and CPU and memory only", () => {
    expect(resizePatch(res({ cpu: "1", memory: "1Gi" }))).toEqual({
      spec: { containers: [{ name: "main", resources: { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } } }] },
    });
  });
});

const podWith = (name: string, r: MainResources): V1Pod => ({
  metadata: { name },
  spec: {
    containers: [
      { name: "main", image: "i", resources: { requests: { ...r.requests, "ephemeral-storage": "0" }, limits: { ...r.limits } } },
    ],
  },
});

describe("claimOrder", () => {
  const keep = <T>(a: T[]) => a;
  const at64 = podWith("at64", res({ cpu: "1", memory: "64Mi" }));
  const at256 = podWith("at256", res({ cpu: "250m", memory: "256Mi" }));
  const at512 = podWith("at512", res({ cpu: "250m", memory: "512Mi" }));
  it("a sized claim: pods already at its resources first, then pods it can raise; never a pod above its memory", () => {
    expect(claimOrder([at64, at256, at512], res({ cpu: "250m", memory: "256Mi" }), keep).map((p) => p.metadata?.name)).toEqual([
      "at256",
      "at64",
    ]);
    expect(claimOrder([at512], res({ cpu: "250m", memory: "256Mi" }), keep)).toEqual([]);
  });
  it("any other claim: every pod, shuffled", () => {
    expect(claimOrder([at64, at512], undefined, (a) => [...a].reverse()).map((p) => p.metadata?.name)).toEqual(["at512", "at64"]);
  });
  it("reads a pod's resources from the informer's slim copy", () => {
    expect(mainResourcesOf(slimPod(structuredClone(at256)))).toEqual(res({ cpu: "250m", memory: "256Mi" }));
  });
});

describe("poolMatch with a sized pool", () => {
  const plain: WarmPoolConfig = { image: "python:3.12", size: 2 };
  const sized: WarmPoolConfig = { image: "python:3.12", size: 2, shape: { requests: {}, limits: {}, caps: { cpu: "1", memory: "1Gi" } } };
  it("limits within the caps go to the sized pool, with the resources its claim applies", () => {
    const s = spec({ argv: [], image: "python:3.12", limits: { cpu: "500m", memory: "512Mi" } });
    expect(poolMatch(s, [plain, sized], "none")).toEqual({ pool: sized, resources: res({ cpu: "500m", memory: "512Mi" }) });
  });
  it("a working directory is applied at claim there too", () => {
    const s = spec({ argv: [], image: "python:3.12", limits: { cpu: "500m", memory: "512Mi" }, workingDir: "/w" });
    expect(poolMatch(s, [sized], "none")).toEqual({ pool: sized, resources: res({ cpu: "500m", memory: "512Mi" }), workingDir: "/w" });
  });
  it("a sandbox without limits goes to the plain pool, never the sized one", () => {
    expect(poolMatch(spec({ argv: [], image: "python:3.12" }), [plain, sized], "none")).toEqual({ pool: plain });
    expect(poolMatch(spec({ argv: [], image: "python:3.12" }), [sized], "none")).toMatchObject({
      why: expect.stringMatching(/other resources/),
    });
  });
  it("limits above the caps start cold, saying which", () => {
    const s = spec({ argv: [], image: "python:3.12", limits: { cpu: "500m", memory: "2Gi" } });
    expect(poolMatch(s, [plain, sized], "none")).toEqual({
      why: "it cannot use the sized pool of image python:3.12: its memory limit 2Gi is above the pool's cap of 1Gi",
    });
  });
  it("hostname grants need a sized +https pool", () => {
    const s = spec({ argv: [], image: "python:3.12", limits: { cpu: "500m", memory: "512Mi" } });
    expect(poolMatch(s, [sized], "hostnames")).toMatchObject({ why: expect.stringMatching(/hostname grants/) });
    const both: WarmPoolConfig = { ...sized, shape: { ...sized.shape!, https: true } };
    expect(poolMatch(s, [sized, both], "hostnames")).toMatchObject({ pool: both });
  });
});

describe("idlePod of a sized pool", () => {
  const state = createKubeState();
  state.userns = { on: true, note: "" };
  const plan = {
    namespace: "ns",
    startupTimeoutMs: 60_000,
    deadlineMarginSeconds: 60,
    egress: { ...DEFAULT_EGRESS_CONFIG, enforcement: "netinit" },
    netinitImage: "hangar:dev",
    execAgent: { mounted: "/hangar/agent" },
    gpu: { resource: "nvidia.com/gpu", typeLabels: [], memoryLabel: "" },
    state,
    nodes: { addresses: () => [], nodes: () => [] },
  } as unknown as PodPlanOptions;
  it("its main container starts at the CPU cap and the memory floor", () => {
    const pool: WarmPoolConfig = { image: "python:3.12", size: 1, shape: { requests: {}, limits: {}, caps: { cpu: "2", memory: "4Gi" } } };
    const main = idlePod(plan, pool, "w1", {}).spec?.containers.find((c) => c.name === "main");
    expect(main?.resources?.limits).toMatchObject({ cpu: "2", memory: "64Mi" });
    expect(main?.resources?.requests).toMatchObject({ cpu: "10m", memory: "64Mi" });
  });
});
