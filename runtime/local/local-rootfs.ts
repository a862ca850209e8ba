/** Where a local sandbox's image comes from: a directory the operator mapped, or the image store. */
import type { PullListener } from "./image-store.js";
import type { Rootfs } from "./local-plan.js";
import type { LocalRuntimeOptions } from "./options.js";

const dirNote = (image: string, dir: string, how: string): Rootfs => ({
  dir,
  env: {},
  mapped: true,
  note: `local runtime: image ${image} -> ${dir === "/" ? "the host root filesystem" : `rootfs ${dir}`} (${how})`,
});

/** mapped: a directory the operator named (maybe the host's own): host paths are masked in it. */
export async function rootfsFor(
  o: Pick<LocalRuntimeOptions, "images" | "imageStore">,
  image: string,
  onPull?: PullListener,
): Promise<Rootfs> {
  const exact = o.images[image];
  if (exact) return dirNote(image, exact, "configured");
  try {
    const r = await o.imageStore.resolve(image, onPull);
    return { dir: r.rootfs, env: r.config.env, mapped: false, note: `local runtime: image ${image} from ${r.source}` };
  } catch (e) {
    const fallback = o.images["*"];
    if (fallback) return dirNote(image, fallback, "fallback mapping");
    throw e;
  }
}

/** An unisolated sandbox runs on the host's own root. */
export const HOST_ROOT: Rootfs = { dir: "/", env: {}, mapped: true, note: "no image: the host (HANGAR_LOCAL_UNSAFE_NO_ISOLATION)" };
