/**
 * The local runtime's settings (HANGAR_LOCAL_*): its images, the tools it runs (checked where the
 * local runtime is the one chosen), the sandbox id ranges, the caps, and through
 * cmd/config-local-mounts.ts the GPUs and volumes it hands in. Read whichever runtime is chosen,
 * so that a bad value is refused either way.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { ConfigError, executable, isRealDir, listOf, type Env } from "./config-env.js";
import { DEFAULT_LOCAL_LOG_BYTES } from "./config-limits.js";
import { readLocalGpus, readLocalVolumes } from "./config-local-mounts.js";

function readImages(env: Env) {
  const images: Record<string, string> = {};
  for (const entry of listOf(env.str("HANGAR_LOCAL_IMAGES", ""))) {
    const eq = entry.lastIndexOf("=");
    const name = entry.slice(0, eq),
      dir = entry.slice(eq + 1);
    if (eq <= 0 || !path.isAbsolute(dir)) throw new ConfigError(`HANGAR_LOCAL_IMAGES: "${entry}" is not image=/absolute/rootfs/dir`);
    if (!existsSync(path.join(dir, "bin")) && !existsSync(path.join(dir, "usr")))
      throw new ConfigError(`HANGAR_LOCAL_IMAGES: ${dir} (for ${name}) does not look like a root filesystem (no bin/ or usr/)`);
    images[name] = dir;
  }
  const imageDirs = listOf(env.str("HANGAR_LOCAL_IMAGE_DIRS", ""));
  for (const d of imageDirs)
    if (!path.isAbsolute(d) || !isRealDir(d)) throw new ConfigError(`HANGAR_LOCAL_IMAGE_DIRS: ${d} is not an absolute path to a directory`);
  return { images, imageDirs };
}

/** The programs the local runtime runs; those it cannot start without are checked when it is the runtime chosen. */
function readTools(env: Env, at: { local: boolean; unsafe: boolean; installDir: string }) {
  const bwrap = env.str("HANGAR_LOCAL_BWRAP", "/usr/bin/bwrap");
  if (at.local && !at.unsafe && !executable(bwrap)) {
    throw new ConfigError(
      `HANGAR_LOCAL_BWRAP=${bwrap}: bubblewrap is not installed, and the local runtime isolates every sandbox with it. Install it (apt-get install bubblewrap), or set HANGAR_LOCAL_UNSAFE_NO_ISOLATION=true to run sandboxes as plain processes of this user with no isolation at all`,
    );
  }
  const ptyHelper = env.str("HANGAR_LOCAL_PTY_HELPER", path.join(at.installDir, ".build/hangar-pty"));
  if (at.local && !executable(ptyHelper))
    throw new ConfigError(`HANGAR_LOCAL_PTY_HELPER=${ptyHelper}: not found; build it with 'make setup'`);
  const guard = env.str("HANGAR_LOCAL_GUARD", path.join(at.installDir, ".build/hangar-guard"));
  const seccompBpf = env.str("HANGAR_LOCAL_SECCOMP_BPF", path.join(at.installDir, ".build/seccomp.bpf"));
  if (at.local && !at.unsafe && (!executable(guard) || !existsSync(seccompBpf)))
    throw new ConfigError(
      `HANGAR_LOCAL_GUARD=${guard} / HANGAR_LOCAL_SECCOMP_BPF=${seccompBpf}: not found; build them with 'make setup' (every sandbox process runs under that seccomp filter)`,
    );
  const tool = (key: string, def: string) => env.str(key, def);
  const tools = {
    bwrap,
    nsenter: tool("HANGAR_LOCAL_NSENTER", "/usr/bin/nsenter"),
    setpriv: tool("HANGAR_LOCAL_SETPRIV", "/usr/bin/setpriv"),
    unshare: tool("HANGAR_LOCAL_UNSHARE", "/usr/bin/unshare"),
    sleep: tool("HANGAR_LOCAL_SLEEP", "/usr/bin/sleep"),
    ptyHelper,
    guard,
    skopeo: tool("HANGAR_LOCAL_SKOPEO", "/usr/bin/skopeo"),
    umoci: tool("HANGAR_LOCAL_UMOCI", "/usr/bin/umoci"),
    tar: tool("HANGAR_LOCAL_TAR", "/usr/bin/tar"),
    mkfsExt4: tool("HANGAR_LOCAL_MKFS_EXT4", "/usr/sbin/mkfs.ext4"),
    pasta: tool("HANGAR_LOCAL_PASTA", "/usr/bin/pasta"),
    iptables: tool("HANGAR_LOCAL_IPTABLES", "/usr/sbin/iptables"),
    iptablesRestore: tool("HANGAR_LOCAL_IPTABLES_RESTORE", "/usr/sbin/iptables-restore"),
  };
  return { tools, seccompBpf };
}

/** The uids the sandboxes run as (HANGAR_LOCAL_ID_RANGE_START) and the slot uids (HANGAR_LOCAL_SLOT_UID_BASE): never overlapping. */
function readIdRanges(env: Env) {
  const idRangeStart = env.int("HANGAR_LOCAL_ID_RANGE_START", 200_000, 1, 4_294_967_294 - 65_536);
  const slotUidBase = env.int("HANGAR_LOCAL_SLOT_UID_BASE", 300_000, 1, 4_294_967_294 - 65_536);
  if (slotUidBase < idRangeStart + 65_536 && slotUidBase + 65_536 > idRangeStart)
    throw new ConfigError(
      `HANGAR_LOCAL_SLOT_UID_BASE=${slotUidBase}: the slot uids (${slotUidBase}-${slotUidBase + 65_535}) overlap the sandbox id range HANGAR_LOCAL_ID_RANGE_START=${idRangeStart} (${idRangeStart}-${idRangeStart + 65_535})`,
    );
  return { idRangeStart, slotUidBase };
}

function readDiskBytes(env: Env) {
  const n = env.int("HANGAR_LOCAL_DISK_BYTES", 10 * 1024 ** 3, 0, Number.MAX_SAFE_INTEGER);
  if (n > 0 && n < 64 * 1024 ** 2)
    throw new ConfigError(
      `HANGAR_LOCAL_DISK_BYTES=${n}: below 64 MiB (67108864) a sandbox could not install a package; 0 turns the cap off`,
    );
  return n;
}

function readEgressDeniedCidrs(env: Env) {
  return listOf(env.str("HANGAR_LOCAL_EGRESS_DENY_CIDRS", "")).map((c) => {
    if (!/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/.test(c))
      throw new ConfigError(`HANGAR_LOCAL_EGRESS_DENY_CIDRS: ${c} is not an IPv4 CIDR (a.b.c.d/n)`);
    return c;
  });
}

export function readLocal(env: Env, at: { runtime: "local" | "kubernetes"; dataDir: string; installDir: string }) {
  const { images, imageDirs } = readImages(env);
  const unsafe = env.bool("HANGAR_LOCAL_UNSAFE_NO_ISOLATION", false);
  const { tools, seccompBpf } = readTools(env, { local: at.runtime === "local", unsafe, installDir: at.installDir });
  const gpus = readLocalGpus(env, unsafe);
  const volumes = readLocalVolumes(env);
  const { idRangeStart, slotUidBase } = readIdRanges(env);
  return {
    images,
    imageDirs,
    imageCacheDir: path.resolve(env.str("HANGAR_LOCAL_IMAGE_CACHE_DIR", path.join(at.dataDir, "images"))),
    imagePull: env.bool("HANGAR_LOCAL_IMAGE_PULL", true),
    snapshotLayers: env.bool("HANGAR_LOCAL_SNAPSHOT_LAYERS", true),
    diskBytes: readDiskBytes(env),
    imagePullTimeoutSeconds: env.int("HANGAR_LOCAL_IMAGE_PULL_TIMEOUT_SECONDS", 600, 5, 86400),
    insecureRegistries: readInsecureRegistries(env.str("HANGAR_LOCAL_INSECURE_REGISTRIES", "")),
    idRangeStart,
    slotUidBase,
    seccompBpf,
    egressDeniedCidrs: readEgressDeniedCidrs(env),
    maskPaths: listOf(env.str("HANGAR_LOCAL_MASK_PATHS", "/home,/srv,/mnt,/media,/opt,/var/lib,/var/log,/var/mail,/work")).filter(
      isRealDir,
    ),
    unsafe,
    sandboxUid: env.int("HANGAR_LOCAL_SANDBOX_UID", 0, 0, 65535),
    pidsMax: env.int("HANGAR_LOCAL_PIDS_MAX", 4096, 16, 1_000_000),
    logBytesPerSecond: env.int("HANGAR_LOCAL_LOG_BYTES_PER_SECOND", 16 * 1024 * 1024, 0, 1024 ** 3),
    logBytes: env.int("HANGAR_LOCAL_LOG_BYTES", DEFAULT_LOCAL_LOG_BYTES, 64 * 1024, 1024 ** 3),
    defaultMemoryBytes: env.int("HANGAR_LOCAL_DEFAULT_MEMORY_BYTES", 4 * 1024 ** 3, 32 * 1024 ** 2, Number.MAX_SAFE_INTEGER),
    defaultCpuMillicores: env.int("HANGAR_LOCAL_DEFAULT_CPU_MILLICORES", 1000, 10, 1_000_000),
    cgroupRoot: env.str("HANGAR_LOCAL_CGROUP_ROOT", "/sys/fs/cgroup"),
    volumes,
    gpus,
    tools,
  };
}

/** HANGAR_LOCAL_INSECURE_REGISTRIES: registries (host:port) the local runtime pulls from over plain HTTP. */
function readInsecureRegistries(text: string): string[] {
  const out = listOf(text);
  for (const r of out) {
    if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-fA-F:]+\](:\d{1,5})?$/.test(r))
      throw new ConfigError(`HANGAR_LOCAL_INSECURE_REGISTRIES: "${r.slice(0, 80)}" is not a registry host[:port]`);
  }
  return out;
}
