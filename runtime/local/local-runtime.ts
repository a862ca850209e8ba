/**
 * The embedded local runtime: each sandbox is a process tree on this machine, isolated with
 * bubblewrap: its own user namespace (root inside is an unprivileged host uid when Hangar is
 * root), mount, pid, ipc, uts and network namespaces, no capabilities, no_new_privs and a
 * seccomp filter, on a private writable overlay of its image's filesystem with its own /tmp
 * and home. Commands join it with nsenter through the guard. Egress, when allowed, goes
 * through pasta under a host firewall. See docs/local-runtime.md and docs/security.md.
 */
import { createHash } from "node:crypto";
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import type { ArchiveSource, Runtime, RuntimeEvent } from "../types.js";
import { createSnapshotLayers } from "./snapshot-layers.js";
import { diskSpares } from "./volume-fs.js";
import { createGpuPool } from "./gpus.js";
import { createDirVolumeRegistry } from "./volume-dirs.js";
import { bubblewrapLauncher } from "./launcher.js";
import { createFileTemplateStore } from "./template-files.js";
import { prepareLocalRuntime } from "./prepare.js";
import { localRecords } from "./record-file.js";
import { createLocalExec } from "./local-exec.js";
import { localLogs, logSession } from "./local-logs.js";
import { localRunner } from "./local-runners.js";
import type { LocalSandbox, LocalState } from "./local-sandboxes.js";
import { createLocalStart } from "./local-start.js";
import { close, remove, stop, teardown } from "./local-stop.js";
import type { LocalRuntimeOptions } from "./options.js";

export type { LocalRuntimeOptions } from "./options.js";

/** The local runtime, assembled from its rooms (runtime/local/local-*.ts) over one shared state. */
export function createLocalRuntime(o: LocalRuntimeOptions): Runtime {
  /** Names this Hangar's cgroups (hangar/<instance>/<id>): several Hangars may share a machine. */
  const instance = `i${createHash("sha256").update(path.resolve(o.dataDir)).digest("hex").slice(0, 12)}`;
  const isRoot = process.getuid?.() === 0;
  const connectedAtMs = Date.now();
  const prepared = prepareLocalRuntime(o, instance);
  prepared.catch(() => undefined);
  const events = eventStream();
  /** Records on disk (ADR 0030): a killed Hangar's sandboxes answer with a terminal record after its restart. */
  const durable = localRecords(path.join(o.dataDir, "records"), events.emit, o.log);
  const layers = snapshotLayersOf(o, isRoot);
  layers?.catch(() => undefined);
  const s: LocalState = {
    o,
    sandboxes: new Map<string, LocalSandbox>(),
    launcher: bubblewrapLauncher(o.tools, realOr(o.tools.bwrap), o.users !== undefined),
    ...(o.gpus?.devices.length ? { gpuPool: createGpuPool(o.gpus) } : {}),
    ...(layers ? { layers } : {}),
    emit: events.emit,
  };
  const execs = createLocalExec(s);
  const { start } = createLocalStart(s, {
    prepared,
    durable,
    instance,
    isRoot,
    procDriver: existsSync("/proc/driver/nvidia") ? "/proc/driver/nvidia" : undefined,
    disks: spareDisksOf(o, isRoot),
    stop: (id, graceMs) => stop(s, id, graceMs),
    teardown: (sb) => teardown(s, sb),
    probeOnce: execs.probeOnce,
  });
  const layersApi = layers && {
    ensure: async (key: string, archive: ArchiveSource) => (await layers).ensure(key, archive),
    drop: async (key: string) => (await layers).drop(key),
  };
  return {
    name: "local",
    records: durable.records,
    templates: createFileTemplateStore(o.dataDir),
    volumes: createDirVolumeRegistry(o.volumes ?? []),
    ...(layersApi ? { layers: layersApi } : {}),
    runners: () => [localRunner(s, connectedAtMs)],
    start,
    subscribe: events.subscribe,
    stop: (id, graceMs) => stop(s, id, graceMs),
    exec: execs.exec,
    logs: (id, opts) => localLogs(s, durable.restored, id, opts),
    logSession: (id) => logSession(s, id),
    remove: (id) => remove(s, durable, id),
    close: () => close(s, durable),
  };
}

function eventStream() {
  const listeners = new Set<(e: RuntimeEvent) => void>();
  return {
    emit: (e: RuntimeEvent) => {
      for (const l of listeners) l(e);
    },
    subscribe: (l: (e: RuntimeEvent) => void) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
}

const realOr = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/** What a sandbox's own disk holds from the start: its root's overlay upper and work dirs, /tmp, home. */
const diskLayout = (rangeRoot: number, sandboxUser: number) => [
  { name: "upper", uid: rangeRoot, gid: rangeRoot, mode: 0o755 },
  { name: "work", uid: 0, gid: 0, mode: 0o700 },
  { name: "tmp", uid: rangeRoot, gid: rangeRoot, mode: 0o1777 },
  { name: "home", uid: sandboxUser, gid: sandboxUser, mode: 0o755 },
];

/** Hangar root with HANGAR_LOCAL_DISK_BYTES: each sandbox's writes go to a disk of its own, made ahead (ADR 0027). */
function spareDisksOf(o: LocalRuntimeOptions, isRoot: boolean) {
  if (!(o.isolation === "bubblewrap" && isRoot && o.users && (o.diskBytes ?? 0) > 0)) return undefined;
  return diskSpares({
    dir: path.join(o.dataDir, "disk-spares"),
    mkfs: o.tools.mkfsExt4 ?? "/usr/sbin/mkfs.ext4",
    bytes: o.diskBytes ?? 0,
    count: 8,
    layout: diskLayout(o.users.range.start, o.users.range.start + o.sandboxUid),
    onError: (e) => o.log.warn({ err: e }, "could not make a spare sandbox disk"),
  });
}

/** Hangar root: restores mount a snapshot unpacked once, copy-on-write (HANGAR_LOCAL_SNAPSHOT_LAYERS). */
function snapshotLayersOf(o: LocalRuntimeOptions, isRoot: boolean) {
  if (!(o.isolation === "bubblewrap" && isRoot && o.users && o.snapshotLayers !== false)) return undefined;
  return createSnapshotLayers({
    dir: path.join(o.dataDir, "layers"),
    tools: { ...o.tools, tar: o.tools.tar ?? "/usr/bin/tar" },
    range: o.users.range,
    slots: o.users.slots,
  });
}
