/**
 * The end of a wrapped command, said in band. Kubernetes reports an exec whose stream was cut
 * (the kubelet restarted mid-command) exactly as one that exited 0: the remote-command protocol
 * reads an error stream that closes without a message as success. So the sh wrapper ends by writing
 * `\0hangar-rc:<rc>\0` to stderr, and a "success" without that marker is a cut stream, not an exit
 * (the chaos suite saw an exit 0 with no output while the kubelet restarted). The filter passes
 * stderr through, holding back only bytes that may begin the marker (they start with NUL, which
 * ordinary stderr hardly has), and strips the marker. Pure; table-tested.
 */
export const EXIT_MARK = "\0hangar-rc:";
/** The printf that writes it, in the wrapper (dash, bash and busybox printf read \0 as NUL). */
export const EXIT_MARK_PRINTF = 'printf "\\0hangar-rc:%d\\0" "$rc" >&2';

const MARK = Buffer.from(EXIT_MARK);
const MAX_MARK = MARK.length + 4; // "\0hangar-rc:" + up to 3 digits + "\0"

export class ExitMarkFilter {
  private held: Buffer = Buffer.alloc(0);
  /** The exit code the wrapper wrote, once seen. */
  rc: number | undefined;

  /** The stderr bytes to pass on now. */
  push(data: Buffer): Buffer {
    let all = this.held.length ? Buffer.concat([this.held, data]) : data;
    this.held = Buffer.alloc(0);
    const at = all.indexOf(MARK);
    if (at >= 0) {
      const end = all.indexOf(0, at + MARK.length);
      if (end >= 0) {
        const digits = all.subarray(at + MARK.length, end).toString("latin1");
        if (/^\d{1,3}$/.test(digits)) {
          this.rc = Number(digits);
          all = Buffer.concat([all.subarray(0, at), all.subarray(end + 1)]);
          return all;
        }
      } else if (all.length - at <= MAX_MARK) {
        this.held = all.subarray(at);
        return all.subarray(0, at);
      }
    }
    // Hold a tail that could still become the marker: from the last NUL, when it matches so far.
    const nul = all.lastIndexOf(0);
    if (nul >= 0 && all.length - nul < MAX_MARK) {
      const tail = all.subarray(nul);
      const n = Math.min(tail.length, MARK.length);
      if (tail.subarray(0, n).equals(MARK.subarray(0, n))) {
        this.held = Buffer.from(tail);
        return all.subarray(0, nul);
      }
    }
    return all;
  }

  /** Whatever is still held, at the end of the stream (it was not the marker). */
  flush(): Buffer {
    const h = this.held;
    this.held = Buffer.alloc(0);
    return h;
  }
}
