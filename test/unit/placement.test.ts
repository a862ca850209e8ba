// Which runner a sandbox goes to, GPUs by model and memory (controller/placement.ts), and what
// the nodes of a runner offer (runtime/kubernetes/node-capacity.ts): pure tables.
import type { V1Node } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { chooseRunner } from "../../controller/placement.js";
import { gpuTypeMatches } from "../../core/gpu.js";
import type { RunnerGpus, RunnerInfo } from "../../core/types.js";
import { DEFAULT_GPU_CONFIG, gpuAffinity, offerOf, offeredClasses } from "../../runtime/kubernetes/nodes/capacity.js";
import { subject } from "./subjects.js";
import { runnerInfo } from "./fixtures.js";

const runner = (runnerId: string, gpus?: RunnerGpus): RunnerInfo =>
  runnerInfo({
    runnerId,
    runtimeClasses: runnerId === "cpu" ? ["gvisor"] : [],
    ...(gpus ? { gpus } : {}),
  });
const h100 = runner("h100", { perNodeMax: 8, total: 16, available: 3, types: ["NVIDIA-H100-80GB-HBM3"], maxMemoryGb: 85 });
const a100 = runner("a100", { perNodeMax: 4, total: 4, available: 4, types: ["NVIDIA-A100-SXM4-40GB"], maxMemoryGb: 42 });
const cpu = runner("cpu");
const ALL = [cpu, h100, a100];
const ask = (gpuCount?: number, gpuType?: string, gpuMemoryGb?: number, runnerIds: string[] = [], runtimeClass?: string) => ({
  runnerIds,
  requests: {},
  limits: { gpuCount, gpuType, gpuMemoryGb },
  runtimeClass,
});

describe("GPU model names", () => {
  const cases: [string, string, boolean][] = [
    ["H100", "NVIDIA-H100-80GB-HBM3", true],
    ["h100-80gb", "NVIDIA-H100-80GB-HBM3", true],
    ["H100", "H100_NVLINK_80GB", true],
    ["NVIDIA-H100-80GB-HBM3", "NVIDIA-H100-80GB-HBM3", true],
    ["H10", "NVIDIA-H100-80GB-HBM3", false],
    ["A100", "NVIDIA-H100-80GB-HBM3", false],
    ["80GB-H100", "NVIDIA-H100-80GB-HBM3", false],
    ["", "NVIDIA-H100-80GB-HBM3", false],
  ];
  for (const [asked, label, want] of cases)
    it(`${asked || '""'} ${want ? "matches" : "does not match"} ${label}`, () => expect(gpuTypeMatches(asked, label)).toBe(want));
});

describe("placement", () => {
  const cases: [string, ReturnType<typeof ask>, string | RegExp][] = [
    ["no GPUs: the first runner", ask(), "cpu"],
    ["no GPUs, a named runner", ask(undefined, undefined, undefined, ["a100"]), "a100"],
    ["any GPU: the runner with the most free", ask(1), "a100"],
    ["a model", ask(1, "H100"), "h100"],
    ["more than one node of A100s has", ask(8), "h100"],
    ["memory per GPU", ask(1, undefined, 80), "h100"],
    [
      "a model on a named runner without it",
      ask(1, "H100", undefined, ["a100", "cpu"]),
      /no runner can give one sandbox 1 GPU of type H100; cpu: no GPUs; a100: up to 4 per node \(NVIDIA-A100-SXM4-40GB, up to 42 GB each\)$/,
    ],
    ["more than any node has", ask(9), /9 GPUs; cpu: no GPUs; h100: up to 8 per node/],
    ["a model nobody has", ask(1, "B200"), /of type B200/],
    ["too much memory", ask(1, "A100", 80), /with at least 80 GB each/],
    [
      "a runner that does not exist",
      ask(undefined, undefined, undefined, ["nope"]),
      /no runner among \[nope\]; this Hangar's runners: cpu, h100, a100/,
    ],
    ["a runtime class the runner has", ask(undefined, undefined, undefined, [], "gvisor"), "cpu"],
    [
      "a runtime class only another runner has",
      ask(undefined, undefined, undefined, ["h100"], "gvisor"),
      /runtime class "gvisor" is not offered by h100 \(it offers none\); cpu offers: gvisor/,
    ],
    [
      "GPUs and a runtime class no GPU runner has",
      ask(1, undefined, undefined, [], "gvisor"),
      /runtime class "gvisor" is not offered by h100 \(it offers none\), a100 \(it offers none\)/,
    ],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => {
      const got = chooseRunner(spec, ALL);
      if (typeof want === "string") expect("runner" in got && got.runner.runnerId).toBe(want);
      else expect("refused" in got && got.refused).toMatch(want);
      if ("refused" in got)
        expect(got.field).toBe(/runtime class/.test(got.refused) ? subject("spec.runtimeClass", "sandbox.spec.runtime_class") : undefined);
    });
  }
  it("a runtime with no GPUs refuses every GPU request, saying so", () => {
    expect(chooseRunner(ask(1), [runner("local-host")])).toEqual({ refused: "no runner can give one sandbox 1 GPU; local-host: no GPUs" });
  });
});

const node = (name: string, labels: Record<string, string>, allocatable: Record<string, string>, unschedulable = false): V1Node =>
  ({ metadata: { name, labels }, spec: { unschedulable }, status: { allocatable: { cpu: "4", memory: "8Gi", ...allocatable } } }) as V1Node;
const millis = (q: string) => (q.endsWith("m") ? Number(q.slice(0, -1)) : Number(q) * 1000);

describe("what a runner's nodes offer", () => {
  const gfd = node(
    "g1",
    { "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu.memory": "81559" },
    { "nvidia.com/gpu": "8" },
  );
  const cw = node("g2", { "gpu.nvidia.com/class": "A100_NVLINK_80GB" }, { "nvidia.com/gpu": "4" });
  const plain = node("c1", {}, {});
  it("sums CPU and memory, and counts GPUs per node, their models and memory", () => {
    expect(offerOf([gfd, cw, plain], DEFAULT_GPU_CONFIG, millis)).toEqual({
      cpuMillicores: 12000,
      memoryBytes: 3 * 8 * 2 ** 30,
      gpus: { perNodeMax: 8, total: 12, types: ["A100_NVLINK_80GB", "NVIDIA-H100-80GB-HBM3"], maxMemoryGb: 85 },
    });
  });
  it("no GPUs where no node has any, and none on a cordoned node", () => {
    expect(offerOf([plain], DEFAULT_GPU_CONFIG, millis).gpus).toBeUndefined();
    expect(offerOf([node("x", {}, { "nvidia.com/gpu": "8" }, true)], DEFAULT_GPU_CONFIG, millis).gpus).toBeUndefined();
  });
  it("another extended resource when the operator names one", () => {
    const amd = node("m", { "amd.com/gpu.product-name": "MI300X" }, { "amd.com/gpu": "8" });
    expect(offerOf([amd], { resource: "amd.com/gpu", typeLabels: ["amd.com/gpu.product-name"], memoryLabel: "-" }, millis).gpus).toEqual({
      perNodeMax: 8,
      total: 8,
      types: ["MI300X"],
    });
  });
  it("sends a GPU sandbox to a node of the model (any model label) and memory asked", () => {
    expect(gpuAffinity({ count: 1 }, [gfd, cw], DEFAULT_GPU_CONFIG)).toBeUndefined();
    expect(gpuAffinity({ count: 1, type: "H100" }, [gfd, cw], DEFAULT_GPU_CONFIG)).toEqual([
      { matchExpressions: [{ key: "nvidia.com/gpu.product", operator: "In", values: ["NVIDIA-H100-80GB-HBM3"] }] },
    ]);
    expect(gpuAffinity({ count: 1, type: "A100", memoryGb: 80 }, [gfd, cw], DEFAULT_GPU_CONFIG)).toEqual([
      {
        matchExpressions: [
          { key: "gpu.nvidia.com/class", operator: "In", values: ["A100_NVLINK_80GB"] },
          { key: "nvidia.com/gpu.memory", operator: "Gt", values: ["76293"] },
        ],
      },
    ]);
    expect(gpuAffinity({ count: 1, memoryGb: 80 }, [gfd], DEFAULT_GPU_CONFIG)).toEqual([
      { matchExpressions: [{ key: "nvidia.com/gpu.memory", operator: "Gt", values: ["76293"] }] },
    ]);
  });
});

describe("runtime classes a runner offers", () => {
  const gvisor = { metadata: { name: "gvisor" }, handler: "runsc" };
  const kata = { metadata: { name: "kata" }, handler: "kata", scheduling: { nodeSelector: { "katacontainers.io/kata-runtime": "true" } } };
  const plain = node("n1", {}, {});
  const kataNode = node("n2", { "katacontainers.io/kata-runtime": "true" }, {});
  it("every class of the cluster, less those no node of the runner can run", () => {
    expect(offeredClasses([kata, gvisor], [plain, kataNode])).toEqual(["gvisor", "kata"]);
    expect(offeredClasses([kata, gvisor], [plain])).toEqual(["gvisor"]);
    expect(offeredClasses([kata, gvisor], undefined)).toEqual(["gvisor", "kata"]);
    expect(offeredClasses([], [plain])).toEqual([]);
    expect(offeredClasses([gvisor], [])).toEqual([]); // a runner with no nodes runs nothing
  });
});
