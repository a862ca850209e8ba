/**
 * How far a local image pull is (PREPARING, issue 40): the image's layers from its manifest
 * (`skopeo inspect --raw`, following a multi-platform index to this machine's manifest), and the
 * bytes skopeo has written into the OCI layout so far, sampled while it copies.
 */
import { execFile } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { layoutProgress, readManifest, type LayerRef } from "../../core/pull-progress.js";

const run = promisify(execFile);
const ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64", arm: "arm", ppc64: "ppc64le", s390x: "s390x" };
const PLATFORM = { os: "linux", architecture: ARCH[process.arch] ?? process.arch };

/** The layers of the image `ref` names (a skopeo reference), or undefined when its manifest cannot be read. */
export async function manifestLayers(
  skopeo: string,
  args: string[],
  insecure: boolean,
  ref: string,
  timeoutMs: number,
): Promise<LayerRef[] | undefined> {
  const tls = insecure ? ["--tls-verify=false"] : [];
  const inspect = async (r: string) =>
    JSON.parse(
      (await run(skopeo, [...args, "inspect", ...tls, "--raw", r], { timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024 })).stdout,
    ) as unknown;
  try {
    let m = readManifest(await inspect(ref), PLATFORM);
    if (m && "manifest" in m && ref.startsWith("docker://")) {
      m = readManifest(await inspect(`${ref.replace(/[:@][^/:@]+$/, "")}@${m.manifest}`), PLATFORM);
    }
    return m && "layers" in m ? m.layers : undefined;
  } catch {
    return undefined;
  }
}

async function filesUnder(dir: string, out = new Map<string, number>()): Promise<Map<string, number>> {
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await filesUnder(p, out);
    else if (e.isFile()) out.set(p, (await stat(p).catch(() => undefined))?.size ?? 0);
  }
  return out;
}

/** Samples the layout every everyMs until the returned stop is called; one sample at a time. */
export function watchLayout(
  dir: string,
  layers: readonly LayerRef[],
  report: (p: { bytesDone: number; layersDone: number }) => void,
  everyMs = 300,
) {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void filesUnder(dir)
      .then((files) => report(layoutProgress(files, layers)))
      .finally(() => (busy = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
