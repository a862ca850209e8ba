/** ListSandboxes and PurgeSandboxes selection and paging: pure and table-tested. */
import { errors } from "../core/errors.js";
import { isTerminal, type SandboxRecord, type State } from "../core/types.js";

export interface ListQuery {
  tags: string[];
  /** PREPARING: CREATING while the image is pulled (as Get shows it). */
  state?: State | "TERMINATED" | "PREPARING";
  showTerminated: boolean;
  runnerIds: string[];
  pageSize: number;
  pageToken: string;
  /** Newest first (SORT_DIRECTION_DESCENDING); default oldest first. */
  descending?: boolean;
  /** Only sandboxes that mount one of these registered volumes. */
  volumeIds?: string[];
}

export const DEFAULT_PAGE_SIZE = 200;
export const MAX_PAGE_SIZE = 1000;

export function matches(r: SandboxRecord, q: Pick<ListQuery, "tags" | "state" | "showTerminated" | "runnerIds" | "volumeIds">): boolean {
  if (q.state !== undefined) {
    if (q.state === "PREPARING") {
      if (r.state !== "CREATING" || !r.preparing) return false;
    } else if (q.state === "TERMINATED" || r.state !== q.state) return false;
  } else if (!q.showTerminated && isTerminal(r.state)) {
    return false;
  }
  if (q.runnerIds.length && !q.runnerIds.includes(r.runnerId)) return false;
  if (q.volumeIds?.length && !r.spec.volumes.some((m) => m.registered && q.volumeIds?.includes(m.registered.id))) return false;
  // Tags are few per sandbox: a scan beats building a Set for each of 10,000 records per List.
  return q.tags.every((t) => r.spec.tags.includes(t));
}

const sortKey = (r: SandboxRecord) => `${String(r.createdAtMs).padStart(15, "0")}:${r.id}`;

/** A page token: the last key served, and the direction it was served in ("v1:" oldest first, "v1d:" newest first). */
export function encodeToken(key: string, descending = false): string {
  return Buffer.from(`${descending ? "v1d" : "v1"}:${key}`).toString("base64url");
}

export function decodeToken(token: string, descending = false): string | undefined {
  if (!token) return undefined;
  const raw = Buffer.from(token, "base64url").toString();
  const prefix = descending ? "v1d:" : "v1:";
  if (!raw.startsWith(prefix) || !/^\d{15}:[A-Za-z0-9-]+$/.test(raw.slice(prefix.length))) {
    throw errors.invalidField("page_token", "not a page token from a previous ListSandboxes response with the same sort_direction");
  }
  return raw.slice(prefix.length);
}

export function page(records: Iterable<SandboxRecord>, q: ListQuery): { items: SandboxRecord[]; nextPageToken: string } {
  const desc = !!q.descending;
  const after = decodeToken(q.pageToken, desc);
  const size = q.pageSize > 0 ? Math.min(q.pageSize, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
  const all: SandboxRecord[] = [];
  for (const r of records) if (matches(r, q)) all.push(r);
  // The order of sortKey, compared without building its string for every comparison.
  all.sort((a, b) => a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (desc) all.reverse();
  const rest = after === undefined ? all : all.filter((r) => (desc ? sortKey(r) < after : sortKey(r) > after));
  const items = rest.slice(0, size);
  const last = items.at(-1);
  return { items, nextPageToken: rest.length > size && last ? encodeToken(sortKey(last), desc) : "" };
}
