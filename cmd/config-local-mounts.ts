/**
 * What the local runtime hands into a sandbox from the host: GPUs (HANGAR_LOCAL_GPU_*, only the
 * device nodes listed, one GPU each: runtime/local/gpus.ts) and registered volumes
 * (HANGAR_LOCAL_VOLUMES, tenant/id=/dir[:ro]: runtime/local/volume-dirs.ts).
 */
import path from "node:path";
import { charDevice, ConfigError, isRealDir, listOf, type Env } from "./config-env.js";

/** `unsafe`: HANGAR_LOCAL_UNSAFE_NO_ISOLATION, under which GPUs are refused. */
export function readLocalGpus(env: Env, unsafe: boolean) {
  const gpuDevices = listOf(env.str("HANGAR_LOCAL_GPU_DEVICES", ""));
  for (const d of gpuDevices)
    if (!path.isAbsolute(d) || !charDevice(d))
      throw new ConfigError(
        `HANGAR_LOCAL_GPU_DEVICES: ${d} is not an absolute path to a character device (one per GPU, e.g. /dev/nvidia0)`,
      );
  if (new Set(gpuDevices).size !== gpuDevices.length) throw new ConfigError("HANGAR_LOCAL_GPU_DEVICES: a device is listed twice");
  const gpuSharedText = env.str(
    "HANGAR_LOCAL_GPU_SHARED_DEVICES",
    "/dev/nvidiactl,/dev/nvidia-uvm,/dev/nvidia-uvm-tools,/dev/nvidia-modeset",
  );
  const gpuShared = listOf(gpuSharedText).filter((d) => path.isAbsolute(d) && charDevice(d));
  const gpuType = env.str("HANGAR_LOCAL_GPU_TYPE", "");
  if (gpuType && !/^[A-Za-z0-9][-A-Za-z0-9_. ]{0,62}$/.test(gpuType))
    throw new ConfigError(`HANGAR_LOCAL_GPU_TYPE=${gpuType}: a GPU model name such as H100 (letters, digits, '-', '_', '.', ' ')`);
  const gpuMemoryGb = env.int("HANGAR_LOCAL_GPU_MEMORY_GB", 0, 0, 100_000);
  if ((gpuType || gpuMemoryGb) && !gpuDevices.length)
    throw new ConfigError(
      "HANGAR_LOCAL_GPU_TYPE / HANGAR_LOCAL_GPU_MEMORY_GB describe the GPUs of HANGAR_LOCAL_GPU_DEVICES, which lists none",
    );
  if (gpuDevices.length && unsafe)
    throw new ConfigError(
      "HANGAR_LOCAL_GPU_DEVICES: GPU sandboxes need isolation (with HANGAR_LOCAL_UNSAFE_NO_ISOLATION every process sees every device)",
    );
  return gpuDevices.length
    ? {
        devices: gpuDevices,
        shared: gpuShared,
        ...(gpuType ? { type: gpuType } : {}),
        ...(gpuMemoryGb ? { memoryGb: gpuMemoryGb } : {}),
      }
    : undefined;
}

export function readLocalVolumes(env: Env) {
  const localVolumes = listOf(env.str("HANGAR_LOCAL_VOLUMES", "")).map((entry) => {
    const m = /^([A-Za-z0-9][-A-Za-z0-9_.]{0,62})\/([A-Za-z0-9][-A-Za-z0-9_.]{0,127})=(\/[^:]*)(?::(ro|rw))?$/.exec(entry);
    if (!m) throw new ConfigError(`HANGAR_LOCAL_VOLUMES: "${entry}" is not tenant/volume-id=/absolute/dir[:ro]`);
    const dir = path.resolve(m[3] as string);
    if (dir === "/" || !isRealDir(dir))
      throw new ConfigError(`HANGAR_LOCAL_VOLUMES: ${m[3]} (volume ${m[2]} of ${m[1]}) is not a directory (and never the host's root)`);
    return { tenant: m[1] as string, id: m[2] as string, dir, readOnly: m[4] === "ro" };
  });
  for (const [i, v] of localVolumes.entries())
    if (localVolumes.findIndex((x) => x.tenant === v.tenant && x.id === v.id) !== i)
      throw new ConfigError(`HANGAR_LOCAL_VOLUMES: volume ${v.id} of ${v.tenant} is listed twice`);
  return localVolumes;
}
