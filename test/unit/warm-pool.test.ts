/** Warm pools: configuration, which sandboxes a pool can serve, which pods are claimable, and the claim patch. */
import type { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import {
  claimable,
  claimPatch,
  createWarmPools,
  parseWarmPools,
  poolFor,
  poolMatch,
  poolName,
  poolShapeOf,
  refillCount,
  refillDeferred,
  resolveWarmPools,
  type WarmPoolConfig,
} from "../../runtime/kubernetes/pool/warm-pool.js";
import { DEFAULT_MAIN_ARGV } from "../../core/types.js";
import { DEMAND_BUCKET_MS, DEMAND_WINDOW_MS, type DemandBuckets, demandTarget, recordClaim } from "../../runtime/kubernetes/pool/demand.js";
import { spec } from "./fixtures.js";

describe("HANGAR_KUBE_WARM_POOLS", () => {
  it("parses image=size lists, images with tags and registries included", () => {
    expect(parseWarmPools("")).toEqual([]);
    expect(parseWarmPools("python:3.11=8, localhost:5000/x/y:1=2")).toEqual([
      { image: "python:3.11", size: 8 },
      { image: "localhost:5000/x/y:1", size: 2 },
    ]);
  });
  it("parses template:<id>=size entries beside images", () => {
    expect(parseWarmPools("template:agent-env=4,python:3.11=2")).toEqual([
      { template: "agent-env", size: 4 },
      { image: "python:3.11", size: 2 },
    ]);
  });
  it("parses =size@runner: one pool per runner, the same image for two runners included", () => {
    expect(parseWarmPools("python:3.11=8@cpu-a, python:3.11=2@gpu.b,template:agent-env=4@cpu-a,python:3.11=1")).toEqual([
      { image: "python:3.11", size: 8, runner: "cpu-a" },
      { image: "python:3.11", size: 2, runner: "gpu.b" },
      { template: "agent-env", size: 4, runner: "cpu-a" },
      { image: "python:3.11", size: 1 },
    ]);
  });
  for (const [bad, msg] of [
    ["python:3.11", /image=size/],
    ["=3", /image=size/],
    ["a=0", /1 to 1000/],
    ["a=x", /1 to 1000/],
    ["a=1,a=2", /twice/],
    ["template:=2", /DNS label/],
    ["template:Bad_Id=2", /DNS label/],
    ["template:x=1,template:x=3", /twice/],
    ["a=1@r,a=2@r", /a@r appears twice/],
    ["a=1@", /@<runner> names one runner/],
    ["a=1@Bad_Runner", /@<runner>/],
    ["a=1@r@s", /@<runner>/],
    ["a=x@r", /1 to 1000/],
  ] as const) {
    it(`refuses ${bad}`, () => expect(() => parseWarmPools(bad)).toThrow(msg));
  }
});

describe("poolFor", () => {
  const pools = [{ image: "python:3.11", size: 2 }];
  const sb = (over: Parameters<typeof spec>[0] = {}) => spec({ argv: [], ...over });
  const cases: [string, Parameters<typeof poolFor>[0], boolean, boolean][] = [
    ["the default sandbox of a pooled image", sb(), false, true],
    ["the default main process as the API fills it in", sb({ argv: [...DEFAULT_MAIN_ARGV] }), false, true],
    [
      "env and files are fine (applied per exec / written at claim)",
      sb({ env: { A: "1" }, files: [{ path: "/a", content: Buffer.from("x") }] }),
      false,
      true,
    ],
    ["another image", sb({ image: "python:3.12" }), false, false],
    ["its own main process", sb({ argv: ["sleep", "1"] }), false, false],
    ["resources the pool was not made with", sb({ requests: { cpu: "1" } }), false, false],
    ["a GPU", sb({ limits: { gpuCount: 1 } }), false, false],
    ["volumes", sb({ volumes: [{ name: "v", mountPath: "/v" }] }), false, false],
    ["a working directory (applied at claim)", sb({ workingDir: "/w" }), false, true],
    [
      "secrets (written at claim, sourced by every command)",
      sb({ secrets: [{ store: "s", name: "n", envVar: "E", at: "x" }] }),
      false,
      true,
    ],
    ["egress its pod would have been started with (netinit)", sb(), true, false],
    ["host aliases (a Compose file's service names)", sb({ hostAliases: ["db"] }), false, false],
    ["arguments to the image's entrypoint", sb({ imageEntrypoint: true }), false, false],
  ];
  for (const [name, s, selector, ok] of cases)
    it(`${name}: ${ok ? "pool" : "cold"}`, () => expect(poolFor(s, pools, selector) !== undefined).toBe(ok));

  describe("poolMatch says why a sandbox starts cold", () => {
    const shaped = [
      { image: "python:3.11", size: 2 },
      { image: "python:3.11", size: 1, shape: { requests: { cpu: "1" }, limits: {} } },
    ];
    const whys: [string, Parameters<typeof poolFor>[0], WarmPoolConfig[], boolean, RegExp][] = [
      ["no pools at all", sb(), [], false, /no warm pools are configured \(HANGAR_KUBE_WARM_POOLS\)/],
      [
        "egress under netinit",
        sb(),
        pools,
        true,
        /allows egress by address, port or any, and no warm pool of image .* sets egress rules at claim/,
      ],
      [
        "a field no pool pod takes, named",
        sb({ volumes: [{ name: "v", mountPath: "/v" }] }),
        pools,
        false,
        /^it sets volumes \(scratch ones go warm only in reused pool pods, HANGAR_KUBE_POOL_REUSE\), which a pool pod/,
      ],
      [
        "another image, with the images pooled",
        sb({ image: "node:22" }),
        pools,
        false,
        /no warm pool runs image node:22 \(pools: python:3\.11\)/,
      ],
      [
        "the image pooled, other resources: both shapes said",
        sb({ requests: { memory: "1Gi" } }),
        shaped,
        false,
        /other resources.*\(the defaults; cpu request 1\) than it asks \(memory request 1Gi\)/,
      ],
    ];
    for (const [name, s, ps, cold, want] of whys)
      it(name, () => {
        const m = poolMatch(s, ps, cold);
        expect("why" in m ? m.why : "served").toMatch(want);
      });
    it("another runner's pool does not serve it, and says so", () => {
      const m = poolMatch(sb(), [{ image: "python:3.11", size: 1, nodeSelector: { pool: "gpu" } }], false, {});
      expect("why" in m && m.why).toMatch(/serves the sandbox's runner/);
    });
    it("a pool that serves it is the answer", () => expect(poolMatch(sb(), pools, false)).toEqual({ pool: pools[0] }));
    it("a working directory no pool was made with: the image's pool, the directory applied at claim", () => {
      expect(poolMatch(sb({ workingDir: "/w" }), pools, false)).toEqual({ pool: pools[0], workingDir: "/w" });
      // A pool made with one working directory does not serve another.
      const wd = [{ image: "python:3.11", size: 1, shape: { requests: {}, limits: {}, workingDir: "/a" } }];
      expect(poolMatch(sb({ workingDir: "/b" }), wd, false)).toMatchObject({ why: expect.stringMatching(/working directory \/a/) });
      expect(poolMatch(sb({ workingDir: "/a" }), wd, false)).toEqual({ pool: wd[0] });
    });
  });

  describe("with a template pool (image, resources, working directory)", () => {
    const shape = { requests: { cpu: "500m", memory: "512Mi" }, limits: { cpu: "1", memory: "1Gi" }, workingDir: "/work" };
    const both = [
      { image: "python:3.11", size: 2 },
      { image: "python:3.11", size: 3, shape, template: "agent-env" },
    ];
    const tpl = (over: Parameters<typeof spec>[0] = {}) =>
      sb({ requests: { cpu: "500m", memory: "512Mi" }, limits: { cpu: "1", memory: "1Gi" }, workingDir: "/work", ...over });
    const tcases: [string, Parameters<typeof poolFor>[0], string | undefined][] = [
      ["the template's sandbox", tpl(), "agent-env"],
      [
        "the template's sandbox with env, files and tags of its own",
        tpl({ env: { K: "v" }, files: [{ path: "/a", content: Buffer.from("x") }], tags: ["run:1"] }),
        "agent-env",
      ],
      ["the plain image", sb(), undefined],
      ["another memory request", tpl({ requests: { cpu: "500m", memory: "1Gi" } }), undefined],
      ["no working directory", tpl({ workingDir: undefined }), undefined],
      ["another image", tpl({ image: "python:3.12" }), undefined],
      ["a volume on top", tpl({ volumes: [{ name: "v", mountPath: "/v" }] }), undefined],
    ];
    for (const [name, s, want] of tcases)
      it(`${name}: ${want ?? "image pool or cold"}`, () => expect(poolFor(s, both, false)?.template).toBe(want));
    it("the plain image still goes to the image pool", () => expect(poolFor(sb(), both, false)).toBe(both[0]));
    it("a runner's node selector: only a pool of that runner (same selector, any order) serves it", () => {
      const gpu = { "hangar.dev/pool": "gpu", zone: "a" };
      const perRunner = [
        { image: "python:3.11", size: 2 },
        { image: "python:3.11", size: 1, runnerId: "gpu-a", nodeSelector: gpu },
      ];
      expect(poolFor(sb(), perRunner, false, { zone: "a", "hangar.dev/pool": "gpu" })).toBe(perRunner[1]);
      expect(poolFor(sb(), perRunner, false, {})).toBe(perRunner[0]);
      expect(poolFor(sb(), perRunner, false)).toBe(perRunner[0]);
      expect(poolFor(sb(), perRunner, false, { zone: "b" })).toBeUndefined();
      expect(poolFor(sb(), [perRunner[0]!], false, gpu)).toBeUndefined();
      expect(poolFor(sb(), perRunner, true, gpu)).toBeUndefined();
    });
    it("pool names: the image pool's is the image's hash as before; a shaped pool's differs", () => {
      expect(poolName("python:3.11")).toBe(`p${createHash("sha256").update("python:3.11").digest("hex").slice(0, 12)}`);
      expect(poolName("python:3.11", { requests: {}, limits: {} })).toBe(poolName("python:3.11"));
      expect(poolName("python:3.11", shape)).not.toBe(poolName("python:3.11"));
      expect(poolName("python:3.11", shape)).toMatch(/^p[0-9a-f]{12}$/);
      expect(poolName("python:3.11", undefined, {})).toBe(poolName("python:3.11"));
      expect(poolName("python:3.11", undefined, { zone: "a" })).not.toBe(poolName("python:3.11"));
      expect(poolName("python:3.11", shape, { zone: "a", k: "v" })).toBe(poolName("python:3.11", shape, { k: "v", zone: "a" }));
    });
  });
});

describe("poolShapeOf", () => {
  const sb = (over: Parameters<typeof spec>[0] = {}) => spec({ argv: [], ...over });
  it("keeps cpu and memory requests and limits and the working directory", () => {
    expect(poolShapeOf(sb({ requests: { cpu: "1" }, limits: { memory: "2Gi" }, workingDir: "/w" }))).toEqual({
      shape: { requests: { cpu: "1" }, limits: { memory: "2Gi" }, workingDir: "/w" },
    });
  });
  const refused: [string, Parameters<typeof spec>[0], RegExp][] = [
    ["its own main process", { argv: ["python", "-m", "http.server"] }, /main process/],
    ["volumes", { volumes: [{ name: "v", mountPath: "/v" }] }, /volumes/],
    ["a runtime class", { runtimeClass: "gvisor" }, /runtime class/],
    ["a startup probe", { startupProbe: { argv: ["true"] } as never }, /startup probe/],
    ["sidecars", { sidecars: [{ name: "db" }] as never }, /beside the primary/],
    ["service ports", { services: [{ port: 80 }] as never }, /service ports/],
    ["a GPU", { limits: { gpuCount: 1 } }, /GPUs/],
    ["a GPU type alone", { requests: { gpuType: "H100" } }, /GPUs/],
  ];
  for (const [name, over, msg] of refused)
    it(`refuses ${name}`, () => expect((poolShapeOf(sb(over)) as { reason: string }).reason).toMatch(msg));
});

describe("resolveWarmPools", () => {
  const templates: Record<string, ReturnType<typeof spec>> = {
    "agent-env": spec({ argv: [], image: "python:3.11", requests: { memory: "1Gi" }, workingDir: "/repo" }),
    "plain-python": spec({ argv: [], image: "python:3.11" }),
    "with-volume": spec({ argv: [], volumes: [{ name: "v", mountPath: "/v" }] }),
    "open-net": spec({ argv: [], image: "python:3.11", denyEgress: false, requests: { cpu: "1" } }),
  };
  const specOf = (id: string) => templates[id];
  const egress = (s: ReturnType<typeof spec>) => s.denyEgress === false;
  it("resolves a template to its image and shape, beside image pools", () => {
    expect(
      resolveWarmPools(
        [
          { image: "python:3.11", size: 2 },
          { template: "agent-env", size: 4 },
        ],
        specOf,
        egress,
        false,
      ),
    ).toEqual([
      { image: "python:3.11", size: 2 },
      { image: "python:3.11", size: 4, shape: { requests: { memory: "1Gi" }, limits: {}, workingDir: "/repo" }, template: "agent-env" },
    ]);
  });
  const bad: [string, Parameters<typeof resolveWarmPools>[0], boolean, RegExp][] = [
    ["an unknown template", [{ template: "nope", size: 1 }], false, /template:nope: no shared template/],
    ["a template a pool pod cannot serve", [{ template: "with-volume", size: 1 }], false, /template:with-volume: .*volumes/],
    [
      "two pools that make the same pod",
      [
        { image: "python:3.11", size: 1 },
        { template: "plain-python", size: 1 },
      ],
      false,
      /template:plain-python and python:3.11 make the same pod/,
    ],
    ["a template allowing egress under netinit", [{ template: "open-net", size: 1 }], true, /allow egress/],
  ];
  for (const [name, entries, fixed, msg] of bad)
    it(`refuses ${name}`, () => expect(() => resolveWarmPools(entries, specOf, egress, fixed)).toThrow(msg));
  const runners: { runnerId: string; nodeSelector: Record<string, string> }[] = [
    { runnerId: "any", nodeSelector: {} },
    { runnerId: "gpu-a", nodeSelector: { pool: "gpu" } },
  ];
  it("places each pool on its runner: the first runner without @, a named one with it", () => {
    expect(
      resolveWarmPools(
        [
          { image: "python:3.11", size: 2 },
          { image: "python:3.11", size: 1, runner: "gpu-a" },
          { template: "agent-env", size: 3, runner: "gpu-a" },
        ],
        specOf,
        egress,
        false,
        runners,
      ),
    ).toEqual([
      { image: "python:3.11", size: 2, runnerId: "any" },
      { image: "python:3.11", size: 1, runnerId: "gpu-a", nodeSelector: { pool: "gpu" } },
      {
        image: "python:3.11",
        size: 3,
        shape: { requests: { memory: "1Gi" }, limits: {}, workingDir: "/repo" },
        template: "agent-env",
        runnerId: "gpu-a",
        nodeSelector: { pool: "gpu" },
      },
    ]);
    expect(resolveWarmPools([{ image: "python:3.11", size: 2 }], specOf, egress, false, [...runners].reverse())).toEqual([
      { image: "python:3.11", size: 2, runnerId: "gpu-a", nodeSelector: { pool: "gpu" } },
    ]);
  });
  it("refuses a runner HANGAR_KUBE_RUNNERS does not list, naming the ones it does", () => {
    expect(() => resolveWarmPools([{ image: "python:3.11", size: 1, runner: "gpu-b" }], specOf, egress, false, runners)).toThrow(
      /python:3.11@gpu-b: no runner has the id gpu-b \(HANGAR_KUBE_RUNNERS lists any, gpu-a\)/,
    );
  });
  it("refuses two runners' pools that make the same pod (the same node selector)", () => {
    const same = [
      { runnerId: "a", nodeSelector: { pool: "x" } },
      { runnerId: "b", nodeSelector: { pool: "x" } },
    ];
    expect(() =>
      resolveWarmPools(
        [
          { image: "python:3.11", size: 1, runner: "a" },
          { image: "python:3.11", size: 1, runner: "b" },
        ],
        specOf,
        egress,
        false,
        same,
      ),
    ).toThrow(/python:3.11@b and python:3.11@a make the same pod/);
  });
  it("a template allowing egress is pooled when egress is a label (NetworkPolicy)", () => {
    expect(resolveWarmPools([{ template: "open-net", size: 1 }], specOf, egress, false)[0]?.template).toBe("open-net");
  });
});

describe("claimable", () => {
  const P = poolName("python:3.11");
  const pod = (
    name: string,
    over: { labels?: Record<string, string>; exec?: boolean; running?: boolean; deleting?: boolean; phase?: string } = {},
  ): V1Pod => ({
    metadata: {
      name,
      labels: { "hangar.dev/warm-pool": P, ...over.labels },
      annotations: over.exec === false ? {} : { "hangar.dev/exec": "sh" },
      ...(over.deleting ? { deletionTimestamp: new Date(0) } : {}),
    },
    status: {
      phase: over.phase ?? "Running",
      containerStatuses: [
        {
          name: "main",
          image: "",
          imageID: "",
          ready: true,
          restartCount: 0,
          state: over.running === false ? { waiting: {} } : { running: {} },
        },
      ],
    },
  });
  it("idle = pool pods not claimed, not deleted, not finished; ready = running with exec proven", () => {
    const pods = [
      pod("a"),
      pod("b", { exec: false }),
      pod("c", { running: false }),
      pod("d", { labels: { "hangar.dev/sandbox-id": "x" } }),
      pod("e", { deleting: true }),
      pod("f", { phase: "Failed" }),
      pod("g", { labels: { "hangar.dev/warm-pool": "other" } }),
    ];
    const r = claimable(pods, P);
    expect(r.idle.map((p) => p.metadata?.name)).toEqual(["a", "b", "c"]);
    expect(r.ready.map((p) => p.metadata?.name)).toEqual(["a"]);
  });
});

describe("claimPatch", () => {
  it("relabels with a resourceVersion precondition and counts the lifetime from the claim", () => {
    const pod: V1Pod = { metadata: { name: "warm-1", resourceVersion: "42" }, status: { startTime: new Date(100_000) } };
    const p = claimPatch(
      pod,
      {
        id: "id-1",
        spec: spec({ tags: ["a:b"], annotations: { note: "x" } }),
        tenant: "alpha",
        recordText: "{}",
        egress: false,
        deadlineSeconds: 660,
      },
      130_500,
    ) as {
      metadata: {
        resourceVersion: string;
        labels: Record<string, string | null>;
        annotations: Record<string, string>;
        finalizers: string[];
      };
      spec: { activeDeadlineSeconds: number };
    };
    expect(p.metadata.resourceVersion).toBe("42");
    expect(p.metadata.labels).toMatchObject({
      "hangar.dev/sandbox-id": "id-1",
      "hangar.dev/tenant": "alpha",
      "tag.hangar.dev/a": "b",
      "hangar.dev/egress": "deny",
      "hangar.dev/warm-pool": null,
      "hangar.dev/claimed": "true",
    });
    expect(p.metadata.annotations).toEqual({ note: "x", "hangar.dev/tags": '["a:b"]', "hangar.dev/record": "{}" });
    expect(p.metadata.finalizers).toEqual(["hangar.dev/record"]);
    expect(p.spec.activeDeadlineSeconds).toBe(31 + 660);
  });
});

describe("refillCount", () => {
  const cases: [string, [number, number, number, number], number][] = [
    ["a full pool creates nothing", [4, 4, 0, 10], 0],
    ["a small gap is filled at once", [4, 1, 0, 10], 3],
    ["creates in flight count as filled", [4, 1, 2, 10], 1],
    ["an emptied big pool refills at most perTick at a time", [100, 0, 0, 10], 10],
    ["and not more while those are in flight", [100, 0, 10, 10], 0],
    ["some in flight leave room for the rest of the tick", [100, 0, 4, 10], 6],
    ["a surplus creates nothing", [4, 6, 0, 10], 0],
  ];
  for (const [name, [size, idle, creating, perTick], want] of cases)
    it(name, () => expect(refillCount(size, idle, creating, perTick)).toBe(want));
});

describe("refillDeferred", () => {
  // [nowMs, lastClaimMs, shortSinceMs] with quiet 1000 ms and at most 3000 ms of deferral
  const cases: [string, [number, number | undefined, number], boolean][] = [
    ["no claim seen: refill", [10_000, undefined, 10_000], false],
    ["a claim 200 ms ago, short for 200 ms: wait", [10_000, 9_800, 9_800], true],
    ["claims paused for the quiet period: refill", [10_000, 9_000, 8_000], false],
    ["claims still coming, short for 2.9 s: wait", [10_000, 9_900, 7_100], true],
    ["claims still coming, short for 3 s: refill anyway", [10_000, 9_900, 7_000], false],
    ["a steady stream keeps refilling once the deferral is spent", [20_000, 19_950, 7_000], false],
  ];
  for (const [name, [nowMs, last, since], want] of cases) it(name, () => expect(refillDeferred(nowMs, last, since, 1000, 3000)).toBe(want));
});

describe("refill waits for claims to pause", () => {
  const pool = { image: "python:3.11", size: 4 };
  const name = poolName(pool.image);
  const readyPod = (n: string): V1Pod => ({
    metadata: { name: n, labels: { "hangar.dev/warm-pool": name }, annotations: { "hangar.dev/exec": "sh" }, resourceVersion: "1" },
    status: { phase: "Running", containerStatuses: [{ name: "main", state: { running: {} } } as never] },
  });
  function setup(n: number) {
    let pods = Array.from({ length: n }, (_, i) => readyPod(`w${i}`));
    let t = 100_000;
    const created: string[] = [];
    const core = {
      createNamespacedPod: async () => {
        const n = `c${created.length}`;
        created.push(n);
        pods = [...pods, { metadata: { name: n, labels: { "hangar.dev/warm-pool": name } }, status: { phase: "Pending" } }];
        return {};
      },
      patchNamespacedPod: async (a: { name: string }) => {
        pods = pods.filter((p) => p.metadata?.name !== a.name);
        return {};
      },
      deleteNamespacedPod: async () => ({}),
    };
    const w = createWarmPools({
      core: core as never,
      namespace: "ns",
      pools: [pool],
      pods: () => pods,
      idlePod: () => ({}),
      probe: async () => "sh",
      log: { warn: () => undefined },
      now: () => t,
    });
    w.close();
    /** Moves the clock on by ms, runs one refill tick, and answers how many pool pods were created so far. */
    const tick = async (ms: number) => {
      t += ms;
      await w.refillOnce();
      await new Promise((r) => setImmediate(r));
      return created.length;
    };
    return { w, tick, take: (k: number) => (pods = pods.slice(k)), add: (p: V1Pod) => (pods = [...pods, p]) };
  }

  it("a claim that needs /bin/sh takes only a pod whose image has it", async () => {
    const s = setup(0);
    s.add({ ...readyPod("plain"), metadata: { ...readyPod("plain").metadata, annotations: { "hangar.dev/exec": "plain" } } });
    expect(await s.w.claim(pool, "t1", () => ({}), { shell: true })).toBeUndefined();
    expect(await s.w.claim(pool, "t1", () => ({}))).toBe("plain");
  });

  it("a claim defers the refill until claims pause for the quiet period", async () => {
    const s = setup(4);
    expect(await s.w.claim(pool, "t1", () => ({}))).toBeDefined();
    expect(await s.tick(100)).toBe(0);
    expect(await s.tick(1000)).toBe(1);
  });

  it("claims another replica made (idle pods gone between ticks) defer it too", async () => {
    const s = setup(4);
    expect(await s.tick(0)).toBe(0); // full: nothing to do, idle count noted
    s.take(3);
    expect(await s.tick(1000)).toBe(0);
    expect(await s.tick(1000)).toBe(3);
  });

  it("a steady stream of claims delays the refill at most REFILL_MAX_DEFER_MS", async () => {
    const s = setup(4);
    const made: number[] = [];
    for (let i = 0; i < 5; i++) {
      await s.w.claim(pool, "t1", () => ({}));
      made.push(await s.tick(i === 0 ? 0 : 1000));
    }
    // Short from the first tick on (t=0); claims every second: the ticks at 0, 1 and 2 s wait, the one at 3 s refills.
    expect(made).toEqual([0, 0, 0, 4, 4]);
  });
});

describe("warm pool stats (metrics)", () => {
  const pool = { image: "python:3.11", size: 2 };
  const name = poolName(pool.image);
  it("counts claims that found a pod (hit) and that found none (miss), refills started and refused, and idle and ready pods now", async () => {
    let pods: V1Pod[] = [
      {
        metadata: { name: "w0", labels: { "hangar.dev/warm-pool": name }, annotations: { "hangar.dev/exec": "sh" }, resourceVersion: "1" },
        status: { phase: "Running", containerStatuses: [{ name: "main", state: { running: {} } } as never] },
      },
    ];
    let refuse = false;
    const core = {
      createNamespacedPod: async () => {
        if (refuse) throw new Error("quota exceeded");
        pods = [...pods, { metadata: { name: `c${pods.length}`, labels: { "hangar.dev/warm-pool": name } }, status: { phase: "Pending" } }];
        return {};
      },
      patchNamespacedPod: async (a: { name: string }) => {
        pods = pods.filter((p) => p.metadata?.name !== a.name);
        return {};
      },
      deleteNamespacedPod: async () => ({}),
    };
    let t = 100_000;
    const w = createWarmPools({
      core: core as never,
      namespace: "ns",
      pools: [pool],
      pods: () => pods,
      idlePod: () => ({}),
      probe: async () => "sh",
      log: { warn: () => undefined },
      now: () => t,
    });
    w.close();
    expect(w.stats()).toEqual([{ pool: name, size: 2, idle: 1, ready: 1, hits: 0, misses: 0, refills: 0, refillFailures: 0 }]);
    expect(await w.claim(pool, "t1", () => ({}))).toBe("w0");
    expect(await w.claim(pool, "t1", () => ({}))).toBeUndefined();
    t += 10_000;
    await w.refillOnce(); // two pods short, claims paused: two creates
    await new Promise((r) => setImmediate(r));
    expect(w.stats()).toEqual([{ pool: name, size: 2, idle: 2, ready: 0, hits: 1, misses: 1, refills: 2, refillFailures: 0 }]);
    pods = [];
    refuse = true;
    t += 10_000;
    await w.refillOnce();
    await new Promise((r) => setImmediate(r));
    expect(w.stats()).toMatchObject([{ idle: 0, ready: 0, refills: 4, refillFailures: 2 }]);
  });
});

describe("demand-sized pools (image=min-max)", () => {
  it("parses min-max, refuses min above max", () => {
    expect(parseWarmPools("python:3.11=2-32@cpu")).toEqual([{ image: "python:3.11", size: 32, min: 2, runner: "cpu" }]);
    expect(parseWarmPools("template:agent=0-4")).toEqual([{ template: "agent", size: 4, min: 0 }]);
    expect(() => parseWarmPools("python:3.11=8-2")).toThrow(/min at most max/);
    expect(() => parseWarmPools("python:3.11=2-2000")).toThrow(/1 to 1000/);
  });

  const T0 = 1_000_000;
  const cases: [string, { size: number; min?: number }, number[], number, number][] = [
    ["a fixed pool is its size, whatever the demand", { size: 8 }, [], T0, 8],
    ["no demand: min", { size: 8, min: 2 }, [], T0, 2],
    ["the busiest 10 s counts", { size: 8, min: 1 }, [T0, T0 + 1, T0 + 2, T0 + 20_000], T0 + 20_000, 3],
    ["never past the operator's max", { size: 8, min: 1 }, Array.from({ length: 50 }, (_, i) => T0 + i), T0 + 100, 8],
    ["a burst is remembered for 5 minutes", { size: 8, min: 1 }, [T0, T0, T0, T0], T0 + 280_000, 4],
    ["then forgotten", { size: 8, min: 1 }, [T0, T0, T0, T0], T0 + 310_000, 1],
  ];
  for (const [name, pool, claims, nowMs, want] of cases)
    it(name, () => {
      const b = claims.reduce<DemandBuckets>((acc, ms) => recordClaim(acc, ms), []);
      expect(demandTarget(pool, b, nowMs)).toBe(want);
    });
  it("recordClaim drops buckets past the window", () => {
    const b = recordClaim(recordClaim([], T0), T0 + DEMAND_WINDOW_MS + DEMAND_BUCKET_MS);
    expect(b).toHaveLength(1);
  });

  it("the pool grows to the claims it saw and shrinks back to min, trimming idle pods", async () => {
    const pool = { image: "python:3.11", size: 6, min: 1 };
    const name = poolName(pool.image);
    const ready = (n: string): V1Pod => ({
      metadata: { name: n, labels: { "hangar.dev/warm-pool": name }, annotations: { "hangar.dev/exec": "sh" }, resourceVersion: "1" },
      status: { phase: "Running", containerStatuses: [{ name: "main", state: { running: {} } } as never] },
    });
    let pods = [ready("w0")];
    const deleted: string[] = [];
    let made = 0;
    const core = {
      createNamespacedPod: async () => void (pods = [...pods, ready(`c${made++}`)]),
      patchNamespacedPod: async (a: { name: string }) => void (pods = pods.filter((p) => p.metadata?.name !== a.name)),
      deleteNamespacedPod: async (a: { name: string }) => {
        deleted.push(a.name);
        pods = pods.filter((p) => p.metadata?.name !== a.name);
      },
    };
    let t = T0;
    const w = createWarmPools({
      core: core as never,
      namespace: "ns",
      pools: [pool],
      pods: () => pods,
      idlePod: () => ({}),
      probe: async () => "sh",
      log: { warn: () => undefined },
      now: () => t,
    });
    w.close();
    const tick = async (ms: number) => {
      t += ms;
      await w.refillOnce();
      await new Promise((r) => setImmediate(r));
    };
    await tick(0);
    expect(pods).toHaveLength(1); // no demand yet: min
    for (let i = 0; i < 4; i++) await w.claim(pool, "t1", () => ({})); // one hit, three misses: four wanted a pod
    await tick(2_000); // idle pods gone since the last tick: the refill waits for claims to pause
    await tick(1_000);
    expect(pods).toHaveLength(4);
    expect(w.stats()[0]?.size).toBe(4);
    await tick(DEMAND_WINDOW_MS);
    expect(pods).toHaveLength(1);
    expect(deleted).toHaveLength(3);
    // A retry of the same start (waiting for a returning pod) is not more demand.
    await w.claim(pool, "t1", () => ({}));
    await w.claim(pool, "t1", () => ({}), { again: true });
    await w.claim(pool, "t1", () => ({}), { again: true });
    expect(w.stats()[0]?.size).toBe(1);
  });
});
