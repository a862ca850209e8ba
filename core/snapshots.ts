/**
 * File-system snapshots: a scratch volume's files archived (tar) while its sandbox runs or as it
 * stops, kept per tenant on storage the operator configures (HANGAR_SNAPSHOT_DIR), restored into
 * new sandboxes before they are RUNNING; one snapshot restored into many is a fork.
 */
export type SnapshotState = "CREATING" | "READY" | "FAILED";

export interface SnapshotRecord {
  id: string;
  tenant: string;
  state: SnapshotState;
  stateReason: string;
  sizeBytes: number;
  sourceSandboxId: string;
  sourceVolume: string;
  trigger: "MANUAL" | "ON_DELETE";
  createdAtMs: number;
  completedAtMs?: number;
  requestId?: string;
}

export interface SnapshotStore {
  list(tenant: string): Promise<SnapshotRecord[]>;
  get(tenant: string, id: string): Promise<SnapshotRecord | undefined>;
  /** Writes the record (metadata only). */
  put(r: SnapshotRecord): Promise<void>;
  /** Stores the archive from `chunks`, at most `maxBytes`; resolves to its size, or rejects (and keeps nothing) past the cap. */
  writeArchive(tenant: string, id: string, chunks: AsyncIterable<Buffer>, maxBytes: number): Promise<number>;
  readArchive(tenant: string, id: string): AsyncIterable<Buffer>;
  /** The archive as a file of this host, where the store keeps one (a child process reads it directly). */
  archivePath?(tenant: string, id: string): string | undefined;
  remove(tenant: string, id: string): Promise<void>;
}

export class ArchiveTooLarge extends Error {}
