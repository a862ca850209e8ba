/** What the local runtime is configured with (cmd/main.ts builds it from the environment). */
import type { EgressTools } from "./egress.js";
import type { LocalGpuConfig } from "./gpus.js";
import type { ImageStore } from "./image-store.js";
import type { LogBudget } from "./log-budget.js";
import type { IdRange, SlotPool } from "./userns.js";
import type { LocalVolume } from "./volume-dirs.js";

export interface LocalRuntimeOptions {
  dataDir: string;
  /** "bubblewrap" isolates; "none" runs sandboxes as plain host processes (explicitly unsafe). */
  isolation: "bubblewrap" | "none";
  tools: {
    bwrap: string;
    nsenter: string;
    setpriv: string;
    unshare: string;
    sleep: string;
    ptyHelper: string;
    guard: string;
    tar?: string;
    mkfsExt4?: string;
  };
  /** Hangar is root: each sandbox's own writes (root, /tmp, home, unsized volumes) go to a file system of this size (HANGAR_LOCAL_DISK_BYTES, ADR 0027); 0/undefined: the data dir's disk. */
  diskBytes?: number;
  /** Restores mount a snapshot unpacked once, copy-on-write (Hangar is root; default true): HANGAR_LOCAL_SNAPSHOT_LAYERS. */
  snapshotLayers?: boolean;
  /** image name -> rootfs directory used as it is (no id shift); "*" is the fallback for images the store cannot provide. */
  images: Record<string, string>;
  /** Provides every other image: archives in the configured directories, or pulled. */
  imageStore: ImageStore;
  /** The seccomp BPF program every sandbox process runs under (built by `make setup`). */
  seccompBpf: string;
  /** Hangar is root: sandbox ids 0.. map to `range`; each sandbox's user namespace is owned by a slot uid. */
  users?: { range: IdRange; slots: SlotPool };
  /** Egress through pasta and the host firewall (needs `users`); absent: egress is refused. */
  egress?: { tools: EgressTools; deniedCidrs: string[] };
  maskPaths: string[];
  /** The uid (and gid) the sandbox's processes run as, inside the sandbox. */
  sandboxUid: number;
  pidsMax: number;
  /** How fast a sandbox's output is read into its log (bytes/s, one second's burst); 0 = unlimited. */
  logBytesPerSecond?: number;
  /** Each sandbox's log keeps at most this many bytes (HANGAR_LOCAL_LOG_BYTES; default 8 MiB)... */
  logBytes?: number;
  /** ...and all of a tenant's logs together their tenant's budget (HANGAR_TENANT_LOG_BYTES, runtime/local/log-budget.ts). */
  logBudget?: (tenant: string) => LogBudget;
  /** The memory cap of a sandbox that asks for none. */
  defaultMemoryBytes: number;
  /** The CPU cap of a sandbox that asks for none. */
  defaultCpuMillicores: number;
  cgroupRoot: string;
  runner: { runnerId: string; runnerGroupId: string; organizationId: string };
  /** Host directories the operator registered per tenant (HANGAR_LOCAL_VOLUMES). */
  volumes?: LocalVolume[];
  /** GPUs: device nodes the operator listed (HANGAR_LOCAL_GPU_DEVICES); absent: GPU sandboxes are refused. */
  gpus?: LocalGpuConfig;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}
