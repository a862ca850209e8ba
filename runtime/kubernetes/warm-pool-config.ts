/** The warm-pool setting, parsed without loading the Kubernetes client (the config reads it for every runtime). */
export interface WarmPoolConfig {
  image: string;
  size: number;
}

/** HANGAR_KUBE_WARM_POOLS: `image=size,image=size` (the last `=` splits: images contain `:`). */
export function parseWarmPools(text: string): WarmPoolConfig[] {
  if (!text.trim()) return [];
  const seen = new Set<string>();
  return text.split(",").map((entry) => {
    const e = entry.trim();
    const eq = e.lastIndexOf("=");
    const image = e.slice(0, eq).trim();
    const size = Number(e.slice(eq + 1));
    if (eq <= 0 || !image) throw new Error(`"${e}": expected image=size, e.g. python:3.11=8`);
    if (!Number.isInteger(size) || size < 1 || size > 1000) throw new Error(`"${e}": size must be an integer from 1 to 1000`);
    if (seen.has(image)) throw new Error(`${image} appears twice`);
    seen.add(image);
    return { image, size };
  });
}
