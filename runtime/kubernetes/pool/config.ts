/**
 * The warm-pool setting and which sandboxes a pool can serve, without loading the Kubernetes
 * client (the config reads it for every runtime; the entry point resolves template pools).
 */
import { DEFAULT_MAIN_ARGV, type EgressGrant, type SandboxSpec } from "../../../core/types.js";
import { SHARED_TEMPLATE_ID } from "../../../core/templates.js";
import { capsFit, parseCap, type MainResources, type PoolCaps } from "./caps.js";

/** What a pool pod is made with beyond its image: a sandbox is served by the pool only when its own are the same. */
export interface PoolShape {
  requests: { cpu?: string; memory?: string };
  limits: { cpu?: string; memory?: string };
  workingDir?: string;
  /**
   * Pods whose netinit rules reach Hangar's egress proxy and nothing else (`=size+https`): they serve
   * only sandboxes whose egress grants are all hostnames, each claim naming its own (ADR 0042).
   */
  https?: boolean;
  /**
   * A sized pool (`=size+cpu:2+memory:4Gi`): reused pods that take each sandbox's own CPU and memory
   * limits at claim, up to these (ADR 0043); requests and limits above are the idle pod's.
   */
  caps?: PoolCaps;
  /**
   * Pods with the hangar-net sidecar (`=size+egress`, ADR 0044): each claim loads its sandbox's own
   * egress rules (addresses, ports, `any`, hostnames through the proxy), each return the idle pod's.
   */
  egressRules?: boolean;
}

/** What a sandbox's decided egress asks of a pool pod: none, hostname grants only (the proxy), or rules fixed when a pod starts. */
export type EgressNeed = "none" | "hostnames" | "rules";

/** A pool, resolved: pods of `image` made with `shape` (none = the default sandbox's). */
export interface WarmPoolConfig {
  image: string;
  /** The operator's cap: the pool never holds more pods than this (idle, and with reuse, hosting). */
  size: number;
  /** Set (`image=min-max`): the pool follows the demand it sees between min and size (demand.ts). */
  min?: number;
  shape?: PoolShape;
  /** The shared template the pool was configured for (logs and docs; matching is by image and shape). */
  template?: string;
  /** The runner the pool serves (HANGAR_KUBE_RUNNERS): its pods carry that runner's node selector. */
  runnerId?: string;
  /** The runner's node selector (absent: a runner that runs on any node). */
  nodeSelector?: Record<string, string>;
}

/** One HANGAR_KUBE_WARM_POOLS entry as written: an image, or a shared template to resolve; for a named runner or the first. */
export type WarmPoolEntry = ({ image: string } | { template: string }) & {
  size: number;
  min?: number;
  runner?: string;
  https?: true;
  egress?: true;
  caps?: PoolCaps;
};

const RUNNER_ID = /^[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?$/;

/**
 * HANGAR_KUBE_WARM_POOLS: `image=size,template:id=size,...` (the last `=` splits: images contain
 * `:`). `template:<id>` names a shared template (HANGAR_SHARED_TEMPLATES_FILE), resolved at start.
 * `=size@runner` keeps the pool for that runner of HANGAR_KUBE_RUNNERS (its pods on that runner's
 * nodes); without it the pool is the first runner's. `=size+https` (before any `@runner`) makes pods
 * for sandboxes whose egress grants are all hostnames (their rules reach Hangar's egress proxy only).
 * `+cpu:<q>` and `+memory:<q>` make a sized pool (ADR 0043): its reused pods take each sandbox's
 * own limits at claim, up to these.
 */
export function parseWarmPools(text: string): WarmPoolEntry[] {
  if (!text.trim()) return [];
  const seen = new Set<string>();
  return text.split(",").map((entry) => {
    const e = entry.trim();
    const eq = e.lastIndexOf("=");
    const name = e.slice(0, eq).trim();
    const [sizeAndKind = "", runner, ...more] = e.slice(eq + 1).split("@");
    const [sizeText = "", ...mods] = sizeAndKind.split("+");
    let https = false;
    let egress = false;
    let caps: PoolCaps = {};
    for (const m of mods) {
      const [key = "", ...value] = m.trim().split(":");
      if (key === "https" && !value.length && !https) https = true;
      else if (key === "https") throw new Error(`"${e}": +https appears twice or takes no value`);
      else if (key === "egress" && !value.length && !egress) egress = true;
      else if (key === "egress") throw new Error(`"${e}": +egress appears twice or takes no value`);
      else caps = parseCap(e, key, value.join(":"), caps);
    }
    const range = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(sizeText);
    const size = Number(range ? range[2] : sizeText.trim());
    const min = range ? Number(range[1]) : undefined;
    if (eq <= 0 || !name) throw new Error(`"${e}": expected image=size or template:<id>=size, e.g. python:3.11=8`);
    if (!Number.isInteger(size) || size < 1 || size > 1000) throw new Error(`"${e}": size must be an integer from 1 to 1000`);
    if (min !== undefined && min > size)
      throw new Error(`"${e}": a demand-sized pool is min-max with min at most max, e.g. python:3.11=2-32`);
    if (runner !== undefined && (more.length || !RUNNER_ID.test(runner.trim())))
      throw new Error(`"${e}": after the size, @<runner> names one runner of HANGAR_KUBE_RUNNERS (a DNS label), e.g. python:3.11=8@gpu-a`);
    const at = {
      ...(min === undefined ? {} : { min }),
      ...(runner === undefined ? {} : { runner: runner.trim() }),
      ...(https ? { https: true as const } : {}),
      ...(egress ? { egress: true as const } : {}),
      ...(Object.keys(caps).length ? { caps } : {}),
    };
    if (https && egress) throw new Error(`"${e}": +egress pods take hostname grants too; +https and +egress are one or the other`);
    const sized = Object.keys(caps).length ? "+sized" : "";
    const kind = `${https ? "+https" : ""}${egress ? "+egress" : ""}${sized}`;
    const key = `${name}@${at.runner ?? ""}${kind}`;
    if (seen.has(key)) throw new Error(`${name}${kind}${at.runner ? `@${at.runner}` : ""} appears twice`);
    seen.add(key);
    if (name.startsWith("template:")) {
      const template = name.slice("template:".length);
      if (!SHARED_TEMPLATE_ID.test(template)) throw new Error(`"${e}": template:<id> names a shared template by its id (a DNS label)`);
      if (at.caps) throw new Error(`"${e}": +cpu and +memory size an image's pool; a template's pool has the template's resources`);
      return { template, size, ...at };
    }
    return { image: name, size, ...at };
  });
}

export const minOf = (e: WarmPoolEntry) => (e.min === undefined ? {} : { min: e.min });

/** A decided grant through Hangar's egress proxy (a hostname), not a rule netinit loads. */
export const isHostnameGrant = (g: EgressGrant) => g.to !== "any" && "hostname" in g.to;

/**
 * What a sandbox's decided grants ask of a pool pod (pure): with rules fixed when a pod starts
 * (netinit), hostname grants alone can go to a `+https` pool; any other grant only to a pod of its own.
 */
export function egressNeed(grants: EgressGrant[], fixedAtStart: boolean): EgressNeed {
  if (!fixedAtStart || !grants.length) return "none";
  return grants.every(isHostnameGrant) ? "hostnames" : "rules";
}

const isDefaultMain = (argv: string[]) =>
  argv.length === 0 || (argv.length === DEFAULT_MAIN_ARGV.length && argv.every((a, i) => a === DEFAULT_MAIN_ARGV[i]));

/**
 * The shape of the pod a sandbox needs, when a pool pod could be it (pure, table-tested), or why
 * not: what the idle pod was not made with and cannot take on at claim. Env, secrets and mounted
 * files are fine (applied per exec / written at claim); tags, annotations and the lifetime are set by the claim.
 * cellVolumes: pool pods are reused (ADR 0040), and a claim makes the sandbox's cell with its scratch
 * volumes (ADR 0042); registered and restored volumes still need a pod of their own.
 */
export function poolShapeOf(spec: SandboxSpec, o: { cellVolumes?: boolean } = {}): { shape: PoolShape } | { reason: string } {
  const scratchOnly = spec.volumes.every((v) => !v.registered && !v.restore);
  const refused: [unknown, string][] = [
    [!isDefaultMain(spec.argv) || spec.imageEntrypoint, "its own main process (pool pods run the default one)"],
    [
      spec.volumes.length && !(o.cellVolumes && scratchOnly),
      o.cellVolumes
        ? "volumes other than scratch ones (registered, or restored from a snapshot)"
        : "volumes (scratch ones go warm only in reused pool pods, HANGAR_KUBE_POOL_REUSE)",
    ],
    [spec.runtimeClass, "a runtime class"],
    [spec.imagePull, "image pull credentials"],
    [spec.services?.length, "service ports"],
    [spec.startupProbe, "a startup probe"],
    [spec.sidecars?.length, "containers beside the primary"],
    [spec.hostAliases?.length, "host aliases"],
    [spec.compose, "a Compose file"],
    [[spec.requests, spec.limits].some((q) => q.gpuCount || q.gpuType || q.gpuMemoryGb), "GPUs (an idle pod would hold them)"],
  ];
  const hit = refused.find(([v]) => v);
  if (hit) return { reason: `it sets ${hit[1]}` };
  const q = (x: SandboxSpec["requests"]) => ({ ...(x.cpu ? { cpu: x.cpu } : {}), ...(x.memory ? { memory: x.memory } : {}) });
  return { shape: { requests: q(spec.requests), limits: q(spec.limits), ...(spec.workingDir ? { workingDir: spec.workingDir } : {}) } };
}

/**
 * The identity of a pool: image, shape and node selector, canonical (the empty shape with no
 * selector is the image alone; a selector adds its sorted pairs).
 */
export function poolKey(image: string, shape?: PoolShape, nodeSelector?: Record<string, string>): string {
  const s = shape ?? { requests: {}, limits: {} };
  const caps = s.caps && (s.caps.cpu || s.caps.memory) ? `caps:${s.caps.cpu ?? ""}/${s.caps.memory ?? ""}` : undefined;
  // Caps and egress only when set: every other pool keeps the key (and the pod label) it had before them.
  const parts = [
    s.requests.cpu,
    s.requests.memory,
    s.limits.cpu,
    s.limits.memory,
    s.workingDir,
    s.https ? "https" : undefined,
    ...(caps ? [caps] : []),
    ...(s.egressRules ? ["egress"] : []),
  ];
  const sel = Object.entries(nodeSelector ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (parts.every((p) => !p) && !sel.length) return image;
  return JSON.stringify([image, ...parts.map((p) => p ?? ""), ...(sel.length ? [sel] : [])]);
}

/**
 * The pool that can serve a sandbox: same image, same shape, pods on the nodes of the sandbox's
 * runner (`nodeSelector`: its selector), and nothing the idle pod lacks.
 * mustBeCold: the sandbox must be networked in a way pool pods were not started with.
 */
export function poolFor(
  spec: SandboxSpec,
  pools: WarmPoolConfig[],
  egress: EgressNeed | boolean,
  nodeSelector?: Record<string, string>,
): WarmPoolConfig | undefined {
  const m = poolMatch(spec, pools, egress, nodeSelector);
  return "pool" in m ? m.pool : undefined;
}

/**
 * The pool that serves a sandbox, or why none can (pure, table-tested): the sentence a cold
 * start's status carries ("cold start: " + why), so a user sees what to change to go warm.
 */
export function poolMatch(
  spec: SandboxSpec,
  pools: WarmPoolConfig[],
  egressAsk: EgressNeed | boolean,
  nodeSelector?: Record<string, string>,
  o: { cellVolumes?: boolean } = {},
): { pool: WarmPoolConfig; workingDir?: string; volumes?: true; resources?: MainResources } | { why: string } {
  // true: rules a pool pod cannot take (the old boolean form); false: none.
  const egress: EgressNeed = egressAsk === true ? "rules" : egressAsk === false ? "none" : egressAsk;
  if (!pools.length) return { why: "no warm pools are configured (HANGAR_KUBE_WARM_POOLS)" };
  const s0 = poolShapeOf(spec, o);
  // Scratch volumes of a reused pod's cell are made at claim (ADR 0042).
  const vols = spec.volumes.length ? { volumes: true as const } : {};
  if (!("shape" in s0)) return { why: `${s0.reason}, which a pool pod was not made with` };
  // Hostname grants alone: a +https pool; rules by address, port or any: a +egress pool (ADR 0044).
  const s =
    egress === "hostnames"
      ? { shape: { ...s0.shape, https: true } }
      : egress === "rules"
        ? { shape: { ...s0.shape, egressRules: true } }
        : s0;
  const key = poolKey(spec.image, s.shape, nodeSelector);
  const pool = pools.find((p) => poolKey(p.image, p.shape, p.nodeSelector) === key);
  if (pool) return { pool, ...vols };
  // A working directory a pool's pods were not made with is applied at claim (made, and every command started in it).
  if (s.shape.workingDir) {
    const bare = poolKey(spec.image, { ...s.shape, workingDir: undefined }, nodeSelector);
    const any = pools.find((p) => !p.shape?.workingDir && poolKey(p.image, p.shape, p.nodeSelector) === bare);
    if (any) return { pool: any, workingDir: s.shape.workingDir, ...vols };
  }
  const sized = sizedMatch(spec, s.shape, pools, nodeSelector);
  if (sized && "pool" in sized) return { ...sized, ...vols };
  const sameImage = pools.filter((p) => p.image === spec.image);
  if (!sameImage.length) return { why: `no warm pool runs image ${spec.image} (pools: ${pools.map((p) => p.image).join(", ")})` };
  const sameEgress = sameImage.filter((p) => poolEgress(p) === egress);
  if (!sameEgress.length)
    return {
      why:
        egress === "hostnames"
          ? `it has hostname grants, and no warm pool of image ${spec.image} makes pods for them (\`${spec.image}=<size>+https\`)`
          : egress === "rules"
            ? `it allows egress by address, port or any, and no warm pool of image ${spec.image} sets egress rules at claim (\`${spec.image}=<size>+egress\`, netinit)`
            : `the warm pools of image ${spec.image} make pods for sandboxes with egress grants only, and it has none`,
    };
  const sel = poolKey("", undefined, nodeSelector);
  const onRunner = sameEgress.filter((p) => poolKey("", undefined, p.nodeSelector) === sel);
  if (!onRunner.length) return { why: `no warm pool of image ${spec.image} serves the sandbox's runner` };
  if (sized && (spec.limits.cpu || spec.limits.memory)) return sized;
  return {
    why: `the warm pools of image ${spec.image} make pods with other resources or working directory (${onRunner
      .map((p) => shapeText(p.shape))
      .join("; ")}) than it asks (${shapeText(s.shape)})`,
  };
}

/**
 * A sized pool (ADR 0043) of the sandbox's image, egress and runner whose caps hold its limits: the
 * pool and the resources its claim resizes the pod to; or why the first such pool cannot; undefined
 * when there is none.
 */
function sizedMatch(
  spec: SandboxSpec,
  shape: PoolShape,
  pools: WarmPoolConfig[],
  nodeSelector?: Record<string, string>,
): { pool: WarmPoolConfig; resources: MainResources; workingDir?: string } | { why: string } | undefined {
  const sel = poolKey("", undefined, nodeSelector);
  const candidates = pools.filter(
    (p) =>
      p.image === spec.image &&
      p.shape?.caps &&
      !!p.shape.https === !!shape.https &&
      !!p.shape.egressRules === !!shape.egressRules &&
      poolKey("", undefined, p.nodeSelector) === sel &&
      (!p.shape.workingDir || p.shape.workingDir === shape.workingDir),
  );
  let why: string | undefined;
  for (const pool of candidates) {
    const fit = capsFit(spec, pool.shape?.caps ?? {});
    if ("why" in fit) why ??= fit.why;
    else
      return {
        pool,
        resources: fit.resources,
        ...(shape.workingDir && !pool.shape?.workingDir ? { workingDir: shape.workingDir } : {}),
      };
  }
  return why ? { why: `it cannot use the sized pool of image ${spec.image}: ${why}` } : undefined;
}

/** The egress a pool's pods serve: a +https pool hostname grants, a +egress pool rules, any other none. */
const poolEgress = (p: WarmPoolConfig): EgressNeed => (p.shape?.https ? "hostnames" : p.shape?.egressRules ? "rules" : "none");

const shapeText = (s?: PoolShape) => {
  const parts = [
    s?.requests.cpu && `cpu request ${s.requests.cpu}`,
    s?.requests.memory && `memory request ${s.requests.memory}`,
    s?.limits.cpu && `cpu limit ${s.limits.cpu}`,
    s?.limits.memory && `memory limit ${s.limits.memory}`,
    s?.workingDir && `working directory ${s.workingDir}`,
    s?.caps &&
      `sized up to ${[s.caps.cpu && `cpu ${s.caps.cpu}`, s.caps.memory && `memory ${s.caps.memory}`].filter(Boolean).join(" and ")}`,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "the defaults";
};
