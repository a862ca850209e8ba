/**
 * The main process's output, kept per sandbox as timestamped lines in memory (bounded:
 * the oldest lines are dropped past `maxBytes`), so StreamLogs can serve tail, since,
 * timestamps and follow. Local sandboxes do not outlive the Hangar process, so neither
 * do their logs.
 */
import { EventEmitter } from "node:events";
import type { LogOptions } from "../types.js";

export interface LogLine {
  seq: number;
  atMs: number;
  data: Buffer; // includes the trailing "\n" when the line had one
}

/** RFC 3339 with nanoseconds, as Kubernetes writes log timestamps. */
export const rfc3339Nano = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000000Z");

export class LogStore {
  private readonly lines: LogLine[] = [];
  private bytes = 0;
  private seq = 0;
  private readonly partial = new Map<string, Buffer>();
  private readonly events = new EventEmitter();
  private ended = false;

  constructor(private readonly maxBytes = 8 * 1024 * 1024) {
    this.events.setMaxListeners(0);
  }

  /** Feed raw bytes read from the main process's stdout or stderr. */
  push(stream: string, chunk: Buffer, now = Date.now()): void {
    let buf = Buffer.concat([this.partial.get(stream) ?? Buffer.alloc(0), chunk]);
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10)) {
      this.record(now, buf.subarray(0, nl + 1));
      buf = buf.subarray(nl + 1);
    }
    if (buf.length > 64 * 1024) {
      this.record(now, buf);
      buf = Buffer.alloc(0);
    }
    this.partial.set(stream, buf);
  }

  /** The main process is gone: flush partial lines and end every follower. */
  end(now = Date.now()): void {
    if (this.ended) return;
    for (const buf of this.partial.values()) if (buf.length) this.record(now, buf);
    this.partial.clear();
    this.ended = true;
    this.events.emit("wake");
  }

  private record(atMs: number, data: Buffer): void {
    const line = { seq: ++this.seq, atMs, data: Buffer.from(data) };
    this.lines.push(line);
    this.bytes += data.length;
    while (this.bytes > this.maxBytes && this.lines.length > 1) this.bytes -= (this.lines.shift() as LogLine).data.length;
    this.events.emit("wake");
  }

  lastLine(): string | undefined {
    const l = this.lines.at(-1);
    return l?.data.toString("utf8").trim().slice(0, 500);
  }

  async *read(opts: LogOptions): AsyncIterable<Buffer> {
    const format = (l: LogLine) => (opts.timestamps ? Buffer.concat([Buffer.from(`${rfc3339Nano(l.atMs)} `), l.data]) : l.data);
    let initial = this.lines.filter((l) => opts.sinceMs === undefined || l.atMs >= opts.sinceMs);
    if (opts.tailLines > 0) initial = initial.slice(-opts.tailLines);
    let lastSeq = this.seq;
    for (const l of initial) yield format(l);
    if (!opts.follow) return;
    for (;;) {
      const fresh = this.lines.filter((l) => l.seq > lastSeq);
      for (const l of fresh) {
        lastSeq = l.seq;
        yield format(l);
      }
      if (this.ended || opts.signal.aborted) return;
      if (this.lines.some((l) => l.seq > lastSeq)) continue;
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
