/**
 * The main process's output, kept per sandbox in memory so StreamLogs can serve tail, since,
 * timestamps and follow. Stored as the chunks the pipe delivered (whole lines; a line longer
 * than 64 KiB is cut), not one object per line: a sandbox printing millions of empty lines
 * costs its bytes plus a fixed overhead per read, never an object per line. Bounded by
 * `maxBytes` (each chunk counts `CHUNK_OVERHEAD` more than its data): the oldest chunks are
 * dropped and readers are told how much with a marker line. Local sandboxes do not outlive the
 * Hangar process, so neither do their logs.
 */
import { EventEmitter } from "node:events";
import { randomBytes } from "node:crypto";
import { LogResumeError, type LogChunk, type LogOptions } from "../types.js";
import type { BudgetedLog, LogBudget } from "./log-budget.js";

interface Chunk {
  seq: number;
  atMs: number;
  /** Raw log bytes up to this chunk's end, from the start of the log. */
  end: number;
  data: Buffer; // whole lines, each with its trailing "\n" (the last may lack it at the end or past 64 KiB)
}

/** What one stored chunk costs beyond its bytes (the object, the Buffer view), counted against the limit. */
export const CHUNK_OVERHEAD = 128;
const MAX_PARTIAL = 64 * 1024;

/** RFC 3339 with nanoseconds, as Kubernetes writes log timestamps. */
export const rfc3339Nano = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000000Z");

export const droppedMarker = (bytes: number, limit: number) =>
  Buffer.from(`[hangar: ${bytes} bytes of older output were dropped: this sandbox's log keeps the last ${limit} bytes]\n`);

export class LogStore implements BudgetedLog {
  private chunks: Chunk[] = [];
  private bytes = 0;
  private seq = 0;
  /** Bytes of output dropped from the front so far. */
  private dropped = 0;
  private readonly partial = new Map<string, Buffer>();
  private readonly events = new EventEmitter();
  private isEnded = false;
  /** Raw bytes recorded so far. */
  private total = 0;
  /** This log's timeline (a new store, a new one): resumable streams name it. */
  readonly session = randomBytes(6).toString("hex");

  /** maxBytes: this log's own limit (HANGAR_LOCAL_LOG_BYTES); budget: its tenant's, shared with its other logs (runtime/local/log-budget.ts). */
  constructor(
    private readonly maxBytes = 8 * 1024 * 1024,
    private readonly budget?: LogBudget,
  ) {
    this.events.setMaxListeners(0);
    budget?.join(this);
  }

  get ended(): boolean {
    return this.isEnded;
  }

  /** The sandbox is removed: its bytes leave its tenant's budget. */
  close(): void {
    this.budget?.leave(this, this.bytes);
  }

  /** Drops the oldest chunks until `bytes` are freed (a live log keeps its newest); returns the bytes freed. */
  shed(bytes: number): number {
    return this.dropOldest(bytes, this.isEnded ? 0 : 1);
  }

  private dropOldest(bytes: number, keep: number): number {
    let drop = 0;
    let freed = 0;
    while (freed < bytes && this.chunks.length - drop > keep) {
      const c = this.chunks[drop++] as Chunk;
      freed += c.data.length + CHUNK_OVERHEAD;
      this.dropped += c.data.length;
    }
    if (drop) this.chunks = this.chunks.slice(drop);
    this.bytes -= freed;
    return freed;
  }

  /** Feed raw bytes read from the main process's stdout or stderr. */
  push(stream: string, chunk: Buffer, now = Date.now()): void {
    const prev = this.partial.get(stream);
    let buf = prev?.length ? Buffer.concat([prev, chunk]) : chunk;
    const nl = buf.lastIndexOf(10);
    if (nl !== -1) {
      this.record(now, buf.subarray(0, nl + 1));
      buf = buf.subarray(nl + 1);
    }
    if (buf.length > MAX_PARTIAL) {
      this.record(now, buf);
      buf = Buffer.alloc(0);
    }
    this.partial.set(stream, Buffer.from(buf)); // a copy: never pin the whole read behind a short remainder
  }

  /** The main process is gone: flush partial lines and end every follower. */
  end(now = Date.now()): void {
    if (this.isEnded) return;
    for (const buf of this.partial.values()) if (buf.length) this.record(now, buf);
    this.partial.clear();
    this.isEnded = true;
    this.events.emit("wake");
  }

  private record(atMs: number, data: Buffer): void {
    // A view of the read's own buffer when it is most of it (no copy: the pipe's reads are not
    // shared); a copy when it is a small part, so a short tail does not pin a large buffer.
    const own = data.byteOffset === 0 && data.buffer.byteLength - data.length <= 4096;
    this.total += data.length;
    this.chunks.push({ seq: ++this.seq, atMs, end: this.total, data: own ? data : Buffer.from(data) });
    this.bytes += data.length + CHUNK_OVERHEAD;
    if (this.bytes > this.maxBytes) {
      const freed = this.dropOldest(this.bytes - this.maxBytes, 1);
      this.budget?.release(freed);
    }
    this.budget?.charge(this, data.length + CHUNK_OVERHEAD);
    this.events.emit("wake");
  }

  lastLine(): string | undefined {
    const d = this.chunks.at(-1)?.data;
    if (!d) return undefined;
    const end = d.at(-1) === 10 ? d.length - 1 : d.length;
    return d
      .subarray(d.lastIndexOf(10, end - 1) + 1, end)
      .toString("utf8")
      .trim()
      .slice(0, 500);
  }

  async *read(opts: LogOptions): AsyncIterable<LogChunk> {
    const format = (c: Chunk, data = c.data): LogChunk => ({ data: opts.timestamps ? stamp(data, rfc3339Nano(c.atMs)) : data, end: c.end });
    let start = this.chunks.filter((c) => opts.sinceMs === undefined || c.atMs >= opts.sinceMs);
    let first: Buffer | undefined;
    if (opts.fromOffset !== undefined) {
      const from = opts.fromOffset;
      const oldest = (this.chunks[0]?.end ?? this.total) - (this.chunks[0]?.data.length ?? 0);
      if (from > this.total)
        throw new LogResumeError("INVALID_RESUME_OFFSET", `offset ${from} is past the end of this log (${this.total} bytes)`);
      if (from < oldest)
        throw new LogResumeError(
          "REPLAY_GAP",
          `bytes ${from}-${oldest} of this log are no longer kept (it keeps the last ${this.maxBytes} bytes)`,
        );
      start = this.chunks.filter((c) => c.end > from);
      const head = start[0];
      if (head) first = head.data.subarray(head.data.length - (head.end - from));
    } else if (opts.tailLines > 0) {
      const t = tail(start, opts.tailLines);
      start = t.chunks;
      first = t.first;
    } else if (this.dropped > 0 && start.length === this.chunks.length) yield { data: droppedMarker(this.dropped, this.maxBytes) };
    let lastSeq = this.seq;
    for (const [i, c] of start.entries()) yield format(c, i === 0 && first ? first : c.data);
    if (!opts.follow) return;
    for (;;) {
      const head = this.chunks[0];
      if (head && head.seq > lastSeq + 1) yield { data: Buffer.from(`[hangar: this reader fell behind; output between was dropped]\n`) };
      // Seqs are consecutive: start at the first unread chunk instead of scanning from the oldest.
      const chunks = this.chunks; // record() may replace the array while this reader is suspended
      for (let i = Math.max(0, lastSeq + 1 - (head?.seq ?? 0)); i < chunks.length; i++) {
        const c = chunks[i] as Chunk;
        lastSeq = c.seq;
        yield format(c);
      }
      if (this.isEnded || opts.signal.aborted) return;
      if ((this.chunks.at(-1)?.seq ?? 0) > lastSeq) continue;
      await new Promise<void>((resolve) => {
        const done = () => {
          this.events.off("wake", done);
          opts.signal.removeEventListener("abort", done);
          resolve();
        };
        this.events.on("wake", done);
        opts.signal.addEventListener("abort", done);
      });
    }
  }
}

/** The chunks holding the last n lines; `first` is the first of them cut to where those lines start. */
function tail(chunks: Chunk[], n: number): { chunks: Chunk[]; first?: Buffer } {
  let lines = 0;
  for (let i = chunks.length - 1; i >= 0; i--) {
    const d = (chunks[i] as Chunk).data;
    // Line starts in d, from the end: after each "\n" but the last byte, and at 0.
    let pos = d.length;
    for (;;) {
      const nl = pos >= 2 ? d.lastIndexOf(10, pos - 2) : -1; // (a negative offset would count from the end)
      const startOfLine = nl + 1;
      lines++;
      if (lines === n) return { chunks: chunks.slice(i), first: d.subarray(startOfLine) };
      if (nl < 0) break;
      pos = startOfLine;
    }
  }
  return { chunks };
}

/** Each line of data prefixed with the timestamp (all lines of one chunk share it). */
function stamp(data: Buffer, ts: string): Buffer {
  const prefix = Buffer.from(`${ts} `);
  const parts: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const nl = data.indexOf(10, at);
    const end = nl === -1 ? data.length : nl + 1;
    parts.push(prefix, data.subarray(at, end));
    at = end;
  }
  return Buffer.concat(parts);
}
