/**
 * Registered volumes (VolumeService, `volume_id` in a sandbox's volumes): storage the operator
 * registered for one tenant. Kubernetes: a PersistentVolumeClaim in the sandbox namespace labelled
 * for the tenant; local: a host directory listed for the tenant (HANGAR_LOCAL_VOLUMES). A tenant
 * sees and mounts only its own; an id it does not own reads exactly as one that does not exist.
 * Who may write at once is decided here, purely (table-tested).
 */
export interface RegisteredVolume {
  id: string;
  tenant: string;
  /** Registered read-only: every mount is read-only, a read-write one is refused. */
  readOnly: boolean;
  /** Kubernetes access modes (ReadWriteOnce, ReadWriteOncePod, ReadOnlyMany, ReadWriteMany); local: ReadWriteMany. */
  accessModes: string[];
  capacity?: string;
  description?: string;
  /** Ready to mount (a Bound claim; an existing directory), else why not. */
  ready: boolean;
  reason: string;
  source: { claimName: string; namespace: string } | { hostPath: string };
  createdAtMs: number;
}

export interface VolumeRegistry {
  /** The tenant's volumes (read fresh: the operator may add or remove them at any time). */
  list(tenant: string): Promise<RegisteredVolume[]>;
}

/** A volume a sandbox mounts, as the controller tracks writers: which sandbox, writing or not. */
export interface VolumeUse {
  sandboxId: string;
  volumeId: string;
  writes: boolean;
}

/**
 * Why `writes` to `v` is refused beside the uses already live, or undefined. ReadOnlyMany takes
 * no writer; ReadWriteOncePod and ReadWriteOnce one writer at a time (Hangar does not place by
 * node, so "one node" is taken as one sandbox); ReadWriteMany any number.
 */
export function writerConflict(v: RegisteredVolume, writes: boolean, live: VolumeUse[]): string | undefined {
  if (!writes) return undefined;
  if (v.readOnly) return `volume ${v.id} is registered read-only: mount it with read_only`;
  const modes = v.accessModes;
  if (modes.includes("ReadWriteMany")) return undefined;
  if (!modes.includes("ReadWriteOnce") && !modes.includes("ReadWriteOncePod"))
    return `volume ${v.id} is ${modes.join(", ") || "without access modes"}: mount it with read_only`;
  const writer = live.find((u) => u.volumeId === v.id && u.writes);
  return writer
    ? `volume ${v.id} is ${modes.includes("ReadWriteOncePod") ? "ReadWriteOncePod" : "ReadWriteOnce"} and sandbox ${writer.sandboxId} writes to it: mount it with read_only, or wait until that sandbox ends`
    : undefined;
}

/** Where a Kubernetes sandbox's container mounts Hangar's exec agent, read-only (ADR 0023): no volume mounts there. */
export const AGENT_MOUNT_PATH = "/.hangar-agent";

/** Why a volume may not be mounted at this path, if it may not. */
export function reservedMountPath(p: string): string | undefined {
  const norm = p.replace(/\/+/g, "/").replace(/\/$/, "");
  if (norm === AGENT_MOUNT_PATH || norm.startsWith(`${AGENT_MOUNT_PATH}/`))
    return `${AGENT_MOUNT_PATH} is where Hangar mounts its exec agent; mount the volume elsewhere`;
  return undefined;
}
