/**
 * An image being pulled for a sandbox (PREPARING): how far, in bytes and layers, and the words the
 * sandbox's state_reason shows. Pure; the runtimes measure, this reads what they measured.
 */
export interface PullProgress {
  image: string;
  /** pulling: the layers come in; unpacking: all are here and the filesystem is being made. */
  phase: "pulling" | "unpacking";
  bytesDone: number;
  /** The image's layers in total, when its manifest was read. */
  bytesTotal?: number;
  layersDone: number;
  layersTotal?: number;
}

export interface LayerRef {
  digest: string;
  size: number;
}

const MB = 1_000_000;
const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;

/** The state_reason of a sandbox waiting on the pull. */
export function pullReason(p: PullProgress): string {
  const layers = p.layersTotal !== undefined ? `${p.layersDone} of ${p.layersTotal} layers` : `${p.layersDone} layers`;
  if (p.phase === "unpacking")
    return `unpacking image ${p.image} (${mb(p.bytesTotal ?? p.bytesDone)}, ${p.layersTotal ?? p.layersDone} layers)`;
  const bytes = p.bytesTotal !== undefined ? `${mb(p.bytesDone)} of ${mb(p.bytesTotal)}` : mb(p.bytesDone);
  return `pulling image ${p.image}: ${bytes}, ${layers}`;
}

const INDEX_TYPES = ["application/vnd.oci.image.index.v1+json", "application/vnd.docker.distribution.manifest.list.v2+json"];

/**
 * What a raw manifest says: its layers, or the digest of the platform's manifest when it is an
 * index (a multi-platform image), or nothing it can read.
 */
export function readManifest(
  raw: unknown,
  platform: { os: string; architecture: string },
): { layers: LayerRef[] } | { manifest: string } | undefined {
  const m = raw as { mediaType?: string; manifests?: unknown; layers?: unknown };
  if (!m || typeof m !== "object") return undefined;
  if (Array.isArray(m.manifests) && (m.mediaType === undefined || INDEX_TYPES.includes(m.mediaType))) {
    const hit = (m.manifests as { digest?: unknown; platform?: { os?: string; architecture?: string } }[]).find(
      (e) => e.platform?.os === platform.os && e.platform?.architecture === platform.architecture,
    );
    return typeof hit?.digest === "string" ? { manifest: hit.digest } : undefined;
  }
  if (!Array.isArray(m.layers)) return undefined;
  const layers = (m.layers as { digest?: unknown; size?: unknown }[])
    .filter((l) => typeof l.digest === "string" && typeof l.size === "number")
    .map((l) => ({ digest: l.digest as string, size: l.size as number }));
  return { layers };
}

/**
 * How far a copy into an OCI layout is, from the files in it (name → bytes, the blobs under
 * blobs/<alg>/<hex> and whatever partial files the copy keeps beside them): the layers whose blob
 * is whole, and the bytes of those plus every other file that is no known blob, never past the total.
 */
export function layoutProgress(files: ReadonlyMap<string, number>, layers: readonly LayerRef[]): { bytesDone: number; layersDone: number } {
  const wanted = new Map(layers.map((l) => [l.digest.replace(":", "/"), l.size]));
  let bytes = 0;
  let done = 0;
  for (const [name, size] of files) {
    const key = [...wanted.keys()].find((k) => name.endsWith(k));
    if (key !== undefined) {
      const whole = wanted.get(key) as number;
      if (size >= whole) done++;
      bytes += Math.min(size, whole);
    } else if (!/(^|\/)(index\.json|oci-layout)$/.test(name)) {
      bytes += size;
    }
  }
  const total = layers.reduce((a, l) => a + l.size, 0);
  return { bytesDone: layers.length ? Math.min(bytes, total) : bytes, layersDone: done };
}
