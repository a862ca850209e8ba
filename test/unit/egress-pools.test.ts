/**
 * `+egress` pools (ADR 0044): pods with the hangar-net sidecar, whose egress rules are loaded at each
 * claim (the sandbox's, exactly what its cold pod would start with) and at each return (the idle
 * pod's, before the pod is claimable again).
 */
import type { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import type { EgressGrant } from "../../core/types.js";
import { DEFAULT_EGRESS_CONFIG } from "../../runtime/kubernetes/egress/policy.js";
import { createCells } from "../../runtime/kubernetes/lifecycle/cells.js";
import { createEgressAtClaim } from "../../runtime/kubernetes/lifecycle/egress-at-claim.js";
import { coldPod, idlePod, type PodPlanOptions } from "../../runtime/kubernetes/lifecycle/pod-plan.js";
import { createKubeState, type Tracked } from "../../runtime/kubernetes/lifecycle/state.js";
import { NET_SIDECAR } from "../../runtime/kubernetes/pod/net-sidecar.js";
import { parseWarmPools, poolMatch, resolveWarmPools, type WarmPoolConfig } from "../../runtime/kubernetes/pool/warm-pool.js";
import { record, spec } from "./fixtures.js";

const cidr = (c: string, port?: number): EgressGrant => ({
  to: { cidr: c, except: [] },
  ports: port ? [{ protocol: "TCP", port, endPort: port }] : [],
});

const plan = (netinit = true): PodPlanOptions => {
  const state = createKubeState();
  state.userns = { on: true, note: "" };
  return {
    namespace: "ns",
    startupTimeoutMs: 60_000,
    deadlineMarginSeconds: 60,
    egress: { ...DEFAULT_EGRESS_CONFIG, enforcement: netinit ? "netinit" : "networkpolicy" },
    netinitImage: netinit ? "hangar:dev" : undefined,
    gpu: { resource: "nvidia.com/gpu", typeLabels: [], memoryLabel: "" },
    state,
    nodes: { addresses: () => ["10.88.7.1"], nodes: () => [] },
  } as unknown as PodPlanOptions;
};

describe("HANGAR_KUBE_WARM_POOLS =size+egress", () => {
  it("parses +egress (with caps and @runner); a +egress pool and a plain one of the same image are two pools", () => {
    expect(parseWarmPools("python:3.12=2,python:3.12=4+egress,python:3.12=1-8+egress+memory:1Gi@gpu")).toEqual([
      { image: "python:3.12", size: 2 },
      { image: "python:3.12", size: 4, egress: true },
      { image: "python:3.12", size: 8, min: 1, runner: "gpu", egress: true, caps: { memory: "1Gi" } },
    ]);
  });
  it("refuses +egress twice, with a value, or beside +https", () => {
    expect(() => parseWarmPools("python:3.12=2+egress+egress")).toThrow(/\+egress appears twice/);
    expect(() => parseWarmPools("python:3.12=2+egress:all")).toThrow(/\+egress appears twice or takes no value/);
    expect(() => parseWarmPools("python:3.12=2+https+egress")).toThrow(/\+https and \+egress are one or the other/);
  });
  it("is refused without netinit enforcement; a template whose grants are rules makes one only with +egress", () => {
    expect(() =>
      resolveWarmPools(
        parseWarmPools("python:3.12=2+egress"),
        () => undefined,
        () => false,
        false,
      ),
    ).toThrow(/\+https and \+egress pools are for netinit enforcement/);
    const t = spec({ argv: [], image: "python:3.12", egress: [cidr("198.18.0.0/15")] });
    expect(() =>
      resolveWarmPools(
        parseWarmPools("template:net=2"),
        () => t,
        () => true,
        true,
      ),
    ).toThrow(/=<size>\+egress makes pods/);
    const [pool] = resolveWarmPools(
      parseWarmPools("template:net=2+egress"),
      () => t,
      () => true,
      true,
    );
    expect(pool?.shape?.egressRules).toBe(true);
    expect(pool?.shape?.https).toBeUndefined();
  });
});

describe("poolMatch with a +egress pool", () => {
  const plain: WarmPoolConfig = { image: "python:3.12", size: 2 };
  const https: WarmPoolConfig = { image: "python:3.12", size: 2, shape: { requests: {}, limits: {}, https: true } };
  const egress: WarmPoolConfig = { image: "python:3.12", size: 2, shape: { requests: {}, limits: {}, egressRules: true } };
  const sb = spec({ argv: [], image: "python:3.12" });
  it("rules go to the +egress pool; hostnames to +https; none to the plain one", () => {
    expect(poolMatch(sb, [plain, https, egress], "rules")).toEqual({ pool: egress });
    expect(poolMatch(sb, [plain, https, egress], "hostnames")).toEqual({ pool: https });
    expect(poolMatch(sb, [plain, https, egress], "none")).toEqual({ pool: plain });
  });
  it("a sandbox without grants never gets a +egress pod; rules without such a pool start cold saying what to configure", () => {
    expect(poolMatch(sb, [egress], "none")).toEqual({
      why: "the warm pools of image python:3.12 make pods for sandboxes with egress grants only, and it has none",
    });
    expect(poolMatch(sb, [plain, https], "rules")).toEqual({
      why: "it allows egress by address, port or any, and no warm pool of image python:3.12 sets egress rules at claim (`python:3.12=<size>+egress`, netinit)",
    });
  });
});

describe("idlePod of a +egress pool", () => {
  const pool: WarmPoolConfig = { image: "python:3.12", size: 1, shape: { requests: {}, limits: {}, egressRules: true } };
  it("has the hangar-net sidecar: netinit's image running hold, NET_ADMIN alone, its state volume mounted by it only", () => {
    const p = idlePod(plan(), pool, "w1", {});
    const inits = p.spec?.initContainers ?? [];
    expect(inits.map((c) => c.name)).toEqual(["hangar-netinit", NET_SIDECAR]);
    const net = inits[1]!;
    expect(net.image).toBe("hangar:dev");
    expect(net.restartPolicy).toBe("Always");
    expect(net.command).toEqual([inits[0]!.command?.[0], "hold"]);
    expect(net.securityContext?.capabilities).toEqual({ drop: ["ALL"], add: ["NET_ADMIN"] });
    expect(net.securityContext?.allowPrivilegeEscalation).toBe(false);
    expect(net.volumeMounts?.map((m) => m.name)).toEqual(["hangar-net"]);
    expect(p.spec?.containers.some((c) => c.volumeMounts?.some((m) => m.name === "hangar-net"))).toBe(false);
    expect(idlePod(plan(), { image: "python:3.12", size: 1 }, "w2", {}).spec?.initContainers?.map((c) => c.name)).toEqual([
      "hangar-netinit",
    ]);
  });
  it("is not made without netinit", () => {
    expect(() => idlePod(plan(false), pool, "w1", {})).toThrow(/need netinit enforcement/);
  });
});

describe("createEgressAtClaim", () => {
  const r = record({ spec: spec({ argv: [], image: "python:3.12" }), effectiveEgress: [cidr("198.18.0.0/15", 8080)] });
  const ran: { pod: string; argv: string[]; container?: string }[] = [];
  const fake = (code: number) => async (pod: string, argv: string[], _input?: Buffer, container?: string) => {
    ran.push({ pod, argv, ...(container ? { container } : {}) });
    return code;
  };
  it("a claim loads exactly the policy the sandbox's cold pod starts with, in the sidecar", async () => {
    ran.length = 0;
    const p = plan();
    await createEgressAtClaim({ plan: p, run: fake(0) }).claim("warm-1", r);
    const cold = coldPod(p, { record: r, text: "", csiVolumes: {} });
    const env = cold.spec?.initContainers?.[0]?.env?.find((e) => e.name === "HANGAR_NETINIT_POLICY")?.value;
    expect(ran).toEqual([{ pod: "warm-1", argv: [cold.spec?.initContainers?.[0]?.command?.[0], "apply", env], container: NET_SIDECAR }]);
    expect(JSON.parse(env ?? "{}").grants).toHaveLength(1);
  });
  it("closes the pod's direct agent link before each load (the flush would leave it judged as new)", async () => {
    const order: string[] = [];
    const e = createEgressAtClaim({
      plan: plan(),
      run: async () => (order.push("apply"), 0),
      closeDirect: (pod) => void order.push(`close ${pod}`),
    });
    await e.claim("warm-1", r);
    await e.reset("warm-1");
    expect(order).toEqual(["close warm-1", "apply", "close warm-1", "apply"]);
  });
  it("a return loads the idle pod's (no grants); a load that fails throws", async () => {
    ran.length = 0;
    await createEgressAtClaim({ plan: plan(), run: fake(0) }).reset("warm-1");
    expect(JSON.parse(ran[0]?.argv[2] ?? "{}").grants ?? []).toEqual([]);
    await expect(createEgressAtClaim({ plan: plan(), run: fake(1) }).claim("warm-1", r)).rejects.toThrow(/exited 1/);
  });
});

describe("a +egress pod's return", () => {
  const pod = (sidecar: boolean): V1Pod => ({
    metadata: { name: "warm-1", labels: { "hangar.dev/cell-pool": "p1" }, annotations: { "hangar.dev/exec": "sh" }, resourceVersion: "5" },
    spec: { containers: [{ name: "main" }], initContainers: [{ name: "hangar-netinit" }, ...(sidecar ? [{ name: NET_SIDECAR }] : [])] },
    status: { phase: "Running", containerStatuses: [{ name: "main", state: { running: {} } } as never] },
  });
  const harness = (p: V1Pod, reset: () => Promise<void>) => {
    const calls: string[] = [];
    const cells = createCells({
      core: { patchNamespacedPod: async () => (calls.push("return patch"), p) } as never,
      namespace: "ns",
      watch: { get: () => p },
      egressAtClaim: { reset: async () => (calls.push("reset rules"), reset()) },
      ended: { write: async () => undefined, remove: async () => undefined },
      finish: () => undefined,
      deletePod: async () => void calls.push("delete"),
      stopPod: async () => undefined,
      track: (x) => x,
      fresh: new Map(),
      state: createKubeState(),
      returned: () => undefined,
      log: { warn: () => undefined },
    });
    const t = { id: "s1", pod: "warm-1", cell: true } as unknown as Tracked;
    return { calls, save: () => cells.saveEnded(t, record({ id: "s1" }), "text") };
  };
  it("loads the idle pod's rules before the pod goes back", async () => {
    const h = harness(pod(true), async () => undefined);
    await h.save();
    expect(h.calls).toEqual(["reset rules", "return patch"]);
  });
  it("a pod whose rules could not be reset is deleted, never returned", async () => {
    const h = harness(pod(true), async () => {
      throw new Error("apply exited 1");
    });
    await h.save();
    expect(h.calls).toEqual(["reset rules", "delete"]);
  });
  it("a pod without the sidecar goes back as before", async () => {
    const h = harness(pod(false), async () => undefined);
    await h.save();
    expect(h.calls).toEqual(["return patch"]);
  });
});
