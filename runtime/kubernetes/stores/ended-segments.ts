/** Segments of ended records (ended-records.ts), the pure part: when one may be deleted. Table-tested. */

export interface Segment {
  name: string;
  /** The sandbox ids whose records it holds. */
  ids: Set<string>;
  /** Its resourceVersion when last seen: the delete's precondition (a record added since keeps it). */
  rv: string;
  /** When it was last seen changing. */
  changedMs: number;
  /** Each record's text as last seen (only changed ones are delivered again). */
  texts?: Map<string, string>;
}

/**
 * Whether a segment may be deleted now: every record in it released here (retention), and it is
 * this replica's own, or another's unchanged for `orphanMs` (its owner, which deletes its own at
 * once, is gone).
 */
export function deletableSegment(s: Segment, released: Set<string>, own: boolean, nowMs: number, orphanMs: number): boolean {
  if (!s.ids.size || ![...s.ids].every((id) => released.has(id))) return false;
  return own || nowMs - s.changedMs >= orphanMs;
}

/** What a replica knows of every segment (from its informer): which holds each record, and which records were released here. */
export function createSegmentIndex(onRecord: (id: string, text: string) => void, now: () => number) {
  const segments = new Map<string, Segment>();
  const where = new Map<string, string>(); // sandbox id -> the segment holding its record
  const released = new Set<string>();
  return {
    segments,
    where,
    released,
    /** A segment added or changed: only the records that changed are delivered. */
    seen(name: string, data: Record<string, string>, rv: string) {
      const before = segments.get(name);
      for (const [id, text] of Object.entries(data)) {
        where.set(id, name);
        if (before?.texts?.get(id) !== text) onRecord(id, text);
      }
      segments.set(name, { name, ids: new Set(Object.keys(data)), rv, changedMs: now(), texts: new Map(Object.entries(data)) });
    },
    /** A segment deleted: its records are forgotten here too. */
    gone(name: string) {
      const s = segments.get(name);
      segments.delete(name);
      for (const id of s?.ids ?? []) {
        if (where.get(id) !== name) continue;
        where.delete(id);
        released.delete(id);
      }
    },
  };
}
