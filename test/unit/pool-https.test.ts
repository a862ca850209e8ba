/**
 * `+https` pools (ADR 0042): sandboxes whose grants are all hostnames go warm under netinit
 * enforcement, in pods whose rules reach Hangar's egress proxy only; each claim names its own grants,
 * and the proxy reads a pool pod's grants fresh, so a reused pod is never judged by the last sandbox's.
 */
import type { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import type { EgressGrant } from "../../core/types.js";
import { DEFAULT_EGRESS_CONFIG } from "../../runtime/kubernetes/egress/policy.js";
import { claimedEnv } from "../../runtime/kubernetes/lifecycle/warm-claim.js";
import { freshGrantsOf } from "../../runtime/kubernetes/lifecycle/ready.js";
import { idlePod, type PodPlanOptions } from "../../runtime/kubernetes/lifecycle/pod-plan.js";
import { createKubeState } from "../../runtime/kubernetes/lifecycle/state.js";
import { egressNeed } from "../../runtime/kubernetes/pool/config.js";
import {
  claimPatch,
  parseWarmPools,
  poolMatch,
  poolName,
  resolveWarmPools,
  type WarmPoolConfig,
} from "../../runtime/kubernetes/pool/warm-pool.js";
import { spec } from "./fixtures.js";

const host = (hostname: string): EgressGrant => ({ to: { hostname }, ports: [] });
const cidr = (c: string): EgressGrant => ({ to: { cidr: c, except: [] }, ports: [] });

describe("HANGAR_KUBE_WARM_POOLS =size+https", () => {
  it("parses +https after a size or a range, before @runner; the same image with and without is two pools", () => {
    expect(parseWarmPools("python:3.12=4,python:3.12=2+https,python:3.12=1-8+https@cpu")).toEqual([
      { image: "python:3.12", size: 4 },
      { image: "python:3.12", size: 2, https: true },
      { image: "python:3.12", size: 8, min: 1, runner: "cpu", https: true },
    ]);
  });
  it("refuses the same +https pool twice, and anything else after the size", () => {
    expect(() => parseWarmPools("python:3.12=2+https,python:3.12=3+https")).toThrow(/python:3.12\+https appears twice/);
    expect(() => parseWarmPools("python:3.12=2+http")).toThrow(/\+ takes https, cpu:<quantity> or memory:<quantity> \(got \+http\)/);
  });
});

describe("egressNeed", () => {
  const cases: [string, EgressGrant[], boolean, ReturnType<typeof egressNeed>][] = [
    ["no grants", [], true, "none"],
    ["hostnames only under netinit", [host("pypi.org"), host("*.github.com")], true, "hostnames"],
    ["a range under netinit", [cidr("8.8.8.8/32")], true, "rules"],
    ["a hostname and a range", [host("pypi.org"), cidr("8.8.8.8/32")], true, "rules"],
    ["any under netinit", [{ to: "any", ports: [] }], true, "rules"],
    ["anything when egress is a label (NetworkPolicy)", [cidr("8.8.8.8/32")], false, "none"],
  ];
  for (const [name, grants, fixed, want] of cases) it(name, () => expect(egressNeed(grants, fixed)).toBe(want));
});

describe("poolMatch with hostname grants", () => {
  const plain: WarmPoolConfig = { image: "python:3.12", size: 2 };
  const https: WarmPoolConfig = { image: "python:3.12", size: 2, shape: { requests: {}, limits: {}, https: true } };
  const sb = spec({ argv: [], image: "python:3.12" });
  it("hostname grants go to the +https pool, none to the plain one", () => {
    expect(poolMatch(sb, [plain, https], "hostnames")).toEqual({ pool: https });
    expect(poolMatch(sb, [plain, https], "none")).toEqual({ pool: plain });
  });
  it("a working directory applied at claim works there too", () => {
    expect(poolMatch(spec({ argv: [], image: "python:3.12", workingDir: "/w" }), [https], "hostnames")).toEqual({
      pool: https,
      workingDir: "/w",
    });
  });
  const whys: [string, WarmPoolConfig[], ReturnType<typeof egressNeed>, RegExp][] = [
    [
      "rules, no +egress pool of the image",
      [plain, https],
      "rules",
      /by address, port or any, and no warm pool of image python:3.12 sets egress rules at claim \(`python:3.12=<size>\+egress`, netinit\)/,
    ],
    [
      "hostnames, no +https pool of the image",
      [plain],
      "hostnames",
      /hostname grants, and no warm pool of image python:3.12 makes pods for them \(`python:3.12=<size>\+https`\)/,
    ],
    ["none, only a +https pool", [https], "none", /make pods for sandboxes with egress grants only, and it has none/],
  ];
  for (const [name, pools, need, want] of whys)
    it(name, () => {
      const m = poolMatch(sb, pools, need);
      expect("why" in m ? m.why : "served").toMatch(want);
    });
  it("the two pools have different names (their pods differ)", () => {
    expect(poolName(plain.image, plain.shape)).not.toBe(poolName(https.image, https.shape));
  });
});

describe("resolveWarmPools with +https", () => {
  const templates: Record<string, ReturnType<typeof spec>> = {
    pip: spec({ argv: [], image: "python:3.12", egress: [host("pypi.org")] }),
    ranges: spec({ argv: [], image: "python:3.12", egress: [cidr("8.8.8.8/32")] }),
  };
  const specOf = (id: string) => templates[id];
  const egress = (s: ReturnType<typeof spec>) => !!s.egress?.length;
  it("an image pool with +https makes pods for hostname grants", () => {
    const [p] = resolveWarmPools([{ image: "python:3.12", size: 2, https: true }], specOf, egress, true);
    expect(p?.shape).toEqual({ requests: {}, limits: {}, https: true });
  });
  it("a template whose grants are all hostnames is a +https pool under netinit", () => {
    expect(resolveWarmPools([{ template: "pip", size: 1 }], specOf, egress, true)[0]?.shape?.https).toBe(true);
  });
  it("a template with a range still cannot be pooled under netinit, and says what can", () => {
    expect(() => resolveWarmPools([{ template: "ranges", size: 1 }], specOf, egress, true)).toThrow(
      /by address or port.*hostname grants alone are served by a \+https pool/,
    );
  });
  it("+https is refused where egress is a label (NetworkPolicy): nothing is fixed at start there", () => {
    expect(() => resolveWarmPools([{ image: "python:3.12", size: 2, https: true }], specOf, egress, false)).toThrow(
      /python:3.12\+https: \+https and \+egress pools are for netinit enforcement/,
    );
  });
});

describe("a claim names its sandbox's hostname grants", () => {
  it("the claim patch carries the grants annotation the proxy reads; none without grants", () => {
    const pod: V1Pod = { metadata: { name: "warm-1", resourceVersion: "7" } };
    const base = { id: "id-1", spec: spec(), tenant: "alpha", recordText: "{}", egress: true, deadlineSeconds: 60 };
    const annotations = (p: object) => (p as { metadata: { annotations: Record<string, string> } }).metadata.annotations;
    expect(annotations(claimPatch(pod, { ...base, hostnames: ["pypi.org"] }, 0))["hangar.dev/egress-hosts"]).toBe('["pypi.org"]');
    expect(annotations(claimPatch(pod, base, 0))["hangar.dev/egress-hosts"]).toBeUndefined();
  });
  it("commands of a claimed sandbox with hostname grants get HTTPS_PROXY; its own env wins", () => {
    const rec = { effectiveEgress: [host("pypi.org")], spec: spec({ env: { A: "1", https_proxy: "mine" } }) };
    expect(claimedEnv(rec, "10.96.0.9:3128")).toEqual({ HTTPS_PROXY: "http://10.96.0.9:3128", https_proxy: "mine", A: "1" });
    expect(claimedEnv({ ...rec, effectiveEgress: [] }, "10.96.0.9:3128")).toEqual({ A: "1", https_proxy: "mine" });
    expect(claimedEnv(rec, undefined)).toEqual({ A: "1", https_proxy: "mine" });
  });
});

describe("freshGrantsOf", () => {
  const pod = (name: string, labels: Record<string, string>, hosts?: string[]): V1Pod => ({
    metadata: { name, labels, ...(hosts ? { annotations: { "hangar.dev/egress-hosts": JSON.stringify(hosts) } } : {}) },
    status: { podIP: "10.0.0.5", phase: "Running" },
  });
  it("a pool pod's grants are read from the apiserver, not the watch's (maybe the last sandbox's) copy", async () => {
    const stale = pod("warm-1", { "hangar.dev/claimed": "true" }, ["old.test"]);
    const reads: string[] = [];
    const got = await freshGrantsOf([stale], "10.0.0.5", async (name) => {
      reads.push(name);
      return pod(name, { "hangar.dev/claimed": "true" }, ["new.test"]);
    });
    expect(got).toEqual(["new.test"]);
    expect(reads).toEqual(["warm-1"]);
  });
  it("an idle pool pod the watch shows unclaimed is read too (the claim may be newer)", async () => {
    const got = await freshGrantsOf([pod("warm-1", { "hangar.dev/warm-pool": "pabc" })], "10.0.0.5", async (n) =>
      pod(n, { "hangar.dev/claimed": "true" }, ["pypi.org"]),
    );
    expect(got).toEqual(["pypi.org"]);
  });
  it("a pod of its own sandbox is judged from the watch, without a read", async () => {
    const got = await freshGrantsOf([pod("sbx-1", { "hangar.dev/sandbox-id": "x" }, ["a.test"])], "10.0.0.5", () => {
      throw new Error("no read expected");
    });
    expect(got).toEqual(["a.test"]);
  });
  it("a read that fails refuses (the proxy answers 403 on undefined)", async () => {
    await expect(
      freshGrantsOf([pod("warm-1", { "hangar.dev/claimed": "true" }, ["a.test"])], "10.0.0.5", () => Promise.reject(new Error("down"))),
    ).rejects.toThrow(/down/);
  });
});

describe("idlePod of a +https pool", () => {
  const plan = (proxyAddress?: string): PodPlanOptions => {
    const state = createKubeState();
    state.proxyAddress = proxyAddress;
    state.userns = { on: true, note: "" };
    return {
      namespace: "ns",
      startupTimeoutMs: 60_000,
      deadlineMarginSeconds: 60,
      egress: { ...DEFAULT_EGRESS_CONFIG, enforcement: "netinit" },
      netinitImage: "hangar:dev",
      gpu: { resource: "nvidia.com/gpu", typeLabels: [], memoryLabel: "" },
      state,
      nodes: { addresses: () => [], nodes: () => [] },
    } as unknown as PodPlanOptions;
  };
  const policyOf = (p: V1Pod) => {
    const c = p.spec?.initContainers?.find((x) => x.name === "hangar-netinit");
    const env = c?.env?.find((e) => e.name.includes("POLICY"))?.value ?? c?.args?.join(" ") ?? "";
    return JSON.stringify(c) + env;
  };
  const https: WarmPoolConfig = { image: "python:3.12", size: 1, shape: { requests: {}, limits: {}, https: true } };
  it("its netinit rules open Hangar's egress proxy; a plain pool's do not", () => {
    const labels = { "hangar.dev/warm-pool": "p1" };
    expect(policyOf(idlePod(plan("10.96.0.9:3128"), https, "w1", labels))).toContain("10.96.0.9:3128");
    expect(policyOf(idlePod(plan("10.96.0.9:3128"), { image: "python:3.12", size: 1 }, "w2", labels))).not.toContain("10.96.0.9:3128");
  });
  it("is not made without the proxy", () => {
    expect(() => idlePod(plan(undefined), https, "w1", {})).toThrow(/need netinit enforcement and Hangar's egress proxy/);
  });
});
