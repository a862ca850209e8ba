/**
 * Image pull progress on Kubernetes (ADR 0038): the kubelet and CRI tell nothing while an image is
 * pulled, so a read-only reporter on each node (hangar-pullwatch, the chart's pullProgress DaemonSet,
 * host network) reads containerd's content store and answers GET /pulls. Hangar asks the sandbox's
 * node about once a second while the sandbox is PREPARING; the answer waits in a cache, so the
 * reconciler reads it synchronously.
 */
import type { PullProgress } from "../../../core/pull-progress.js";

/** One pull in progress on a node, as hangar-pullwatch reports it. */
export interface NodePull {
  manifest: string;
  layersDone: number;
  layersTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

/**
 * The progress a sandbox waiting for `image` on a node is shown. One pull on the node is the
 * image's; with several (the reporter knows manifests, not names) the node's pulls together, saying so. Pure.
 */
export function attribute(image: string, pulls: readonly NodePull[]): PullProgress | undefined {
  if (!pulls.length) return undefined;
  const sum = (k: keyof Omit<NodePull, "manifest">) => pulls.reduce((a, p) => a + p[k], 0);
  return {
    image: pulls.length === 1 ? image : `${image} (the node pulls ${pulls.length} images; their layers together)`,
    phase: "pulling",
    bytesDone: sum("bytesDone"),
    bytesTotal: sum("bytesTotal"),
    layersDone: sum("layersDone"),
    layersTotal: sum("layersTotal"),
  };
}

/** The reporter's answer, checked: anything else is no answer. Pure. */
export function readPulls(body: unknown): NodePull[] | undefined {
  const pulls = (body as { pulls?: unknown })?.pulls;
  if (!Array.isArray(pulls)) return undefined;
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined);
  const out: NodePull[] = [];
  for (const p of pulls as Record<string, unknown>[]) {
    const [ld, lt, bd, bt] = [num(p.layersDone), num(p.layersTotal), num(p.bytesDone), num(p.bytesTotal)];
    if (typeof p.manifest !== "string" || ld === undefined || lt === undefined || bd === undefined || bt === undefined) return undefined;
    out.push({ manifest: p.manifest.slice(0, 80), layersDone: ld, layersTotal: lt, bytesDone: bd, bytesTotal: bt });
  }
  return out;
}

export interface PullWatchOptions {
  port: number;
  /** The node's address (its InternalIP), or undefined when not known. */
  addressOf(node: string): string | undefined;
  now: () => number;
  fetch?: typeof fetch;
  /** How old an answer may be before the next read asks again. */
  maxAgeMs?: number;
}

export function createPullWatch(o: PullWatchOptions) {
  const cache = new Map<string, { atMs: number; pulls: NodePull[] | undefined; asking: boolean }>();
  const get = o.fetch ?? fetch;
  const maxAge = o.maxAgeMs ?? 800;
  async function ask(node: string, addr: string) {
    const c = cache.get(node) ?? { atMs: 0, pulls: undefined, asking: false };
    cache.set(node, { ...c, asking: true });
    let pulls: NodePull[] | undefined;
    try {
      const host = addr.includes(":") ? `[${addr}]` : addr;
      const r = await get(`http://${host}:${o.port}/pulls`, { signal: AbortSignal.timeout(1500) });
      pulls = r.ok ? readPulls(await r.json()) : undefined;
    } catch {
      pulls = undefined; // no reporter there (yet): the reason stays the kubelet's words
    }
    cache.set(node, { atMs: o.now(), pulls, asking: false });
  }
  return {
    /** The latest known progress of `image` on `node` (asking the node again in the background when stale). */
    progress(node: string, image: string): PullProgress | undefined {
      const c = cache.get(node);
      const addr = o.addressOf(node);
      if (addr && !c?.asking && (!c || o.now() - c.atMs > maxAge)) void ask(node, addr);
      return c?.pulls ? attribute(image, c.pulls) : undefined;
    },
    /** Nodes no sandbox waits on are forgotten. */
    forget: (node: string) => void cache.delete(node),
  };
}

export type PullWatch = ReturnType<typeof createPullWatch>;
