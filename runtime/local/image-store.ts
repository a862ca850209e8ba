/**
 * Container images for the local runtime: a sandbox runs the requested image's filesystem,
 * never the host's. Images come from archives the operator provides (docker-archive tarballs
 * such as `docker save` or `skopeo copy … docker-archive:` writes, and OCI image layouts) in
 * the configured source directories, or from a registry when pulling is enabled. Each image is
 * unpacked once with skopeo + umoci (with the sandbox uid shift when Hangar is root, so image
 * root is the sandbox's unprivileged root) into the cache, then used read-only as the lower
 * layer of every sandbox's overlay. See docs/local-runtime.md#images.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { errors } from "../../core/errors.js";
import type { PullProgress } from "../../core/pull-progress.js";
import { manifestLayers, watchLayout } from "./image-progress.js";

const run = promisify(execFile);

export interface ImageStoreOptions {
  /** Where unpacked images are kept (one directory per source archive version). */
  cacheDir: string;
  /** Directories scanned for docker-archive `*.tar` files and OCI layouts (a dir with index.json). */
  sources: string[];
  /** Pull images missing from the sources with `skopeo copy docker://…`. */
  pull: boolean;
  pullTimeoutS: number;
  tools: { skopeo: string; umoci: string; tar: string };
  /** Host id range image root maps to (Hangar is root), or undefined: files owned by Hangar's user. */
  idShift?: { start: number; size: number };
  /** Registries (host:port) reached over plain HTTP (HANGAR_LOCAL_INSECURE_REGISTRIES); every other one needs TLS. */
  insecureRegistries?: string[];
}

/** Told how far an image's pull is, while it is pulled. */
export type PullListener = (p: PullProgress) => void;

export interface ImageConfig {
  env: Record<string, string>;
  workingDir?: string;
}

export interface ResolvedImage {
  rootfs: string;
  config: ImageConfig;
  /** Where the image came from, for the sandbox's status. */
  source: string;
}

interface Source {
  /** skopeo transport reference, e.g. docker-archive:/dir/python.tar */
  ref: string;
  /** Identity of the bytes behind ref: its cache key changes when the archive does. */
  key: string;
  /** For the sandbox's status. */
  label: string;
}

/** Canonical name: `python:3.11` is `docker.io/library/python:3.11`, no tag is `:latest`. */
export function normalizeImage(name: string): string {
  let n = name.trim();
  const slash = n.indexOf("/");
  const first = slash < 0 ? "" : n.slice(0, slash);
  if (slash < 0) n = `docker.io/library/${n}`;
  else if (!first.includes(".") && !first.includes(":") && first !== "localhost") n = `docker.io/${n}`;
  const last = n.slice(n.lastIndexOf("/") + 1);
  if (!last.includes(":") && !n.includes("@")) n = `${n}:latest`;
  return n;
}

/** Whether a skopeo reference names a registry the operator lets Hangar reach over plain HTTP. Pure. */
export function insecureRef(ref: string, insecure: readonly string[] = []): boolean {
  if (!ref.startsWith("docker://")) return false;
  const host = ref.slice("docker://".length).split("/")[0] ?? "";
  return insecure.includes(host);
}

/** Waits for the pull with `l` among the image's listeners. */
async function listening<T>(listeners: Map<string, Set<PullListener>>, k: string, l: PullListener, p: Promise<T>): Promise<T> {
  const set = listeners.get(k) ?? new Set<PullListener>();
  listeners.set(k, set.add(l));
  try {
    return await p;
  } finally {
    set.delete(l);
    if (!set.size && listeners.get(k) === set) listeners.delete(k);
  }
}

export function createImageStore(o: ImageStoreOptions) {
  const inflight = new Map<string, Promise<ResolvedImage>>();
  const listeners = new Map<string, Set<PullListener>>();
  const archiveTags = new Map<string, { stamp: string; tags: string[] }>();
  const policy = path.join(o.cacheDir, "policy.json");

  async function tagsOfArchive(file: string): Promise<string[]> {
    const st = await stat(file);
    const stamp = `${st.size}:${st.mtimeMs}`;
    const known = archiveTags.get(file);
    if (known?.stamp === stamp) return known.tags;
    let tags: string[] = [];
    try {
      const { stdout } = await run(o.tools.tar, ["-xOf", file, "manifest.json"], { maxBuffer: 16 * 1024 * 1024 });
      const manifest = JSON.parse(stdout) as { RepoTags?: string[] }[];
      tags = manifest.flatMap((m) => m.RepoTags ?? []).map(normalizeImage);
    } catch {
      // not a docker-archive: ignored
    }
    archiveTags.set(file, { stamp, tags });
    return tags;
  }

  async function findSource(image: string): Promise<Source | undefined> {
    const want = normalizeImage(image);
    for (const dir of o.sources) {
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const n of names.sort()) {
        const p = path.join(dir, n);
        const st = await stat(p).catch(() => undefined);
        if (!st) continue;
        const stamp = `${st.size}:${st.mtimeMs}:${st.ino}`;
        if (st.isFile() && n.endsWith(".tar")) {
          if ((await tagsOfArchive(p)).includes(want))
            return { ref: `docker-archive:${p}:${want}`, key: `${p}|${stamp}|${want}`, label: `docker-archive ${p}` };
        } else if (st.isDirectory() && existsSync(path.join(p, "index.json"))) {
          const found = await ociSource(p, image, want);
          if (found) return found;
        }
      }
    }
    return undefined;
  }

  async function resolveOnce(image: string): Promise<ResolvedImage> {
    await mkdir(o.cacheDir, { recursive: true });
    if (!existsSync(policy)) await writeFile(policy, JSON.stringify({ default: [{ type: "insecureAcceptAnything" }] }));
    const local = await findSource(image);
    const src =
      local ??
      (o.pull
        ? { ref: `docker://${normalizeImage(image)}`, key: `pull|${normalizeImage(image)}`, label: `docker://${normalizeImage(image)}` }
        : undefined);
    if (!src) throw missing(o, image, "not found");
    const shift = o.idShift ? `${o.idShift.start}-${o.idShift.size}` : "rootless";
    const dest = path.join(o.cacheDir, createHash("sha256").update(`${src.key}|${shift}`).digest("hex").slice(0, 32));
    if (!existsSync(path.join(dest, "config.json"))) {
      const k = normalizeImage(image);
      const report = (p: Omit<PullProgress, "image">) => {
        for (const l of listeners.get(k) ?? []) l({ image: k, ...p });
      };
      try {
        await unpack(o, policy, src, dest, report);
      } catch (e) {
        const msg = ((e as { stderr?: string }).stderr || (e as Error).message).trim().split("\n").slice(-2).join(" ");
        if (!local) throw missing(o, image, `pulling ${src.ref} failed: ${msg}`);
        throw errors.internal(`could not unpack image ${image} from ${src.ref}: ${msg}`, e);
      }
    }
    return load(dest, src.label);
  }

  return {
    /**
     * The unpacked image: unpacked on first use, then shared read-only by every sandbox. `onProgress`
     * hears how far the pull is while this call waits for it (every caller waiting on the same image does).
     */
    async resolve(image: string, onProgress?: PullListener): Promise<ResolvedImage> {
      const k = normalizeImage(image);
      let p = inflight.get(k);
      if (!p) {
        p = resolveOnce(image).finally(() => inflight.delete(k));
        inflight.set(k, p);
      }
      return onProgress ? listening(listeners, k, onProgress, p) : p;
    },
  };
}

export type ImageStore = ReturnType<typeof createImageStore>;

/**
 * skopeo copies the image into an OCI layout, umoci unpacks it (id-shifted when Hangar is root);
 * renamed into place when whole. `report` hears the bytes and layers copied so far, then the unpacking.
 */
async function unpack(o: ImageStoreOptions, policy: string, src: Source, dest: string, report: (p: Omit<PullProgress, "image">) => void) {
  const tmp = `${dest}.tmp-${process.pid}-${Date.now()}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  const insecure = insecureRef(src.ref, o.insecureRegistries);
  const layers = await manifestLayers(o.tools.skopeo, ["--policy", policy], insecure, src.ref, 60_000);
  const bytesTotal = layers?.reduce((a, l) => a + l.size, 0);
  const totals = { bytesTotal, layersTotal: layers?.length };
  report({ phase: "pulling", bytesDone: 0, layersDone: 0, ...totals });
  const stop = watchLayout(`${tmp}/layout`, layers ?? [], (p) => report({ phase: "pulling", ...p, ...totals }));
  try {
    try {
      await run(
        o.tools.skopeo,
        ["--policy", policy, "copy", "--quiet", ...(insecure ? ["--src-tls-verify=false"] : []), src.ref, `oci:${tmp}/layout:image`],
        {
          timeout: o.pullTimeoutS * 1000,
        },
      );
    } finally {
      stop();
    }
    report({ phase: "unpacking", bytesDone: bytesTotal ?? 0, layersDone: layers?.length ?? 0, ...totals });
    const shift = o.idShift
      ? ["--uid-map", `0:${o.idShift.start}:${o.idShift.size}`, "--gid-map", `0:${o.idShift.start}:${o.idShift.size}`]
      : ["--rootless"];
    await run(o.tools.umoci, ["unpack", ...shift, "--image", `${tmp}/layout:image`, `${tmp}/bundle`], { timeout: 600_000 });
    await rm(path.join(tmp, "layout"), { recursive: true, force: true });
    // Another Hangar sharing this cache may have finished first: its copy is as good.
    await rename(path.join(tmp, "bundle"), dest).catch((e) => {
      if (!existsSync(path.join(dest, "config.json"))) throw e;
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The unpacked image: its rootfs and the config a sandbox takes from it (env, working dir). */
async function load(dest: string, source: string): Promise<ResolvedImage> {
  const spec = JSON.parse(await readFile(path.join(dest, "config.json"), "utf8")) as { process?: { env?: string[]; cwd?: string } };
  const env: Record<string, string> = {};
  for (const kv of spec.process?.env ?? []) {
    const eq = kv.indexOf("=");
    if (eq > 0) env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  return { rootfs: path.join(dest, "rootfs"), config: { env, workingDir: spec.process?.cwd || undefined }, source };
}

function missing(o: ImageStoreOptions, image: string, why: string) {
  const where = o.sources.length ? o.sources.join(", ") : "(no HANGAR_LOCAL_IMAGE_DIRS)";
  return errors.invalidField(
    "spec.image",
    `image ${image} is not available to the local runtime: ${why}. Looked in ${where} for a docker-archive (*.tar) or OCI layout naming ${normalizeImage(image)}` +
      `${o.pull ? "" : "; pulling is off (HANGAR_LOCAL_IMAGE_PULL)"}. Provide it, e.g. skopeo copy docker://${normalizeImage(image)} docker-archive:<dir>/image.tar:${normalizeImage(image)}, or build the offline images with 'make images'`,
  );
}

/** An OCI layout (a dir with index.json) that names the image. */
async function ociSource(p: string, image: string, want: string): Promise<Source | undefined> {
  const index = JSON.parse(await readFile(path.join(p, "index.json"), "utf8").catch(() => "{}")) as {
    manifests?: { annotations?: Record<string, string> }[];
  };
  for (const m of index.manifests ?? []) {
    const ref = m.annotations?.["org.opencontainers.image.ref.name"];
    if (ref && (normalizeImage(ref) === want || ref === image)) {
      const ist = await stat(path.join(p, "index.json"));
      return { ref: `oci:${p}:${ref}`, key: `${p}|${ist.mtimeMs}|${ref}`, label: `OCI layout ${p}` };
    }
  }
  return undefined;
}
