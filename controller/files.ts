/**
 * ReadFile / WriteFile implemented over Runtime.exec with a POSIX shell in the sandbox,
 * so the same code serves every runtime and a path can only reach what the sandbox's own
 * processes can see (`..` and symlinks resolve inside the sandbox). Exit codes of the
 * scripts name the typed errors.
 */
import { errors, isHangarError } from "../core/errors.js";
import type { ExecProcess, Runtime } from "../runtime/types.js";
import { reportKills } from "../core/kill.js";

const READ = [
  "p=$1",
  'if [ ! -e "$p" ]; then exit 2; fi',
  'if [ -d "$p" ]; then exit 3; fi',
  'if [ ! -r "$p" ]; then exit 4; fi',
  's=$(wc -c < "$p") || exit 5',
  'echo "$s"',
  'exec cat -- "$p"',
].join("\n");

/**
 * All or nothing: the bytes go to a temporary file beside the target, which replaces it only when
 * all `$2` bytes arrived (a write cut mid-way, by a replica killed or a client gone, leaves the old
 * file or none, never a part; the chaos suite checks it). A symlink is written through, as before;
 * an existing file keeps its mode. Where the directory is not writable but the file is, in place.
 */
const WRITE = [
  "p=$1; n=$2",
  '[ -L "$p" ] && p=$(readlink -f -- "$p")',
  'd=$(dirname -- "$p")',
  'mkdir -p -- "$d" 2>/dev/null',
  'if [ -d "$p" ]; then exit 3; fi',
  'if [ ! -d "$d" ]; then exit 6; fi',
  'if [ -e "$p" ] && [ ! -w "$p" ]; then exit 4; fi',
  'if [ ! -e "$p" ] && [ ! -w "$d" ]; then exit 4; fi',
  'if [ ! -w "$d" ]; then cat > "$p" || exit 5; exit 0; fi',
  't="$d/.hangar-write-$$"',
  'cat > "$t" || { rm -f -- "$t"; exit 5; }',
  's=$(wc -c < "$t") && [ $((s)) -eq "$n" ] || { rm -f -- "$t"; echo "the content was cut short" >&2; exit 5; }',
  'if [ -e "$p" ]; then m=$(stat -c %a -- "$p" 2>/dev/null) && chmod "$m" "$t" 2>/dev/null; fi',
  'mv -f -- "$t" "$p" || { rm -f -- "$t"; exit 5; }',
].join("\n");

const NO_SHELL = 127;

function mapExit(code: number, path: string, op: "read" | "write", stderr: string): Error {
  switch (code) {
    case 2:
      return errors.fileNotFound(path, op);
    case 3:
      return errors.fileIsDirectory(path, op);
    case 4:
      return errors.filePermissionDenied(path, op);
    case 6:
      return errors.fileIoFailed(path, op, "a parent of the path is not a directory");
    case NO_SHELL:
      return errors.fileIoFailed(path, op, "the sandbox image has no /bin/sh, which file operations need");
    default:
      return errors.fileIoFailed(path, op, stderr.trim().slice(0, 500) || `exit code ${code}`);
  }
}

async function collectStderr(p: ExecProcess, onStdout: (b: Buffer) => boolean | void): Promise<string> {
  let stderr = "";
  for await (const c of p.output()) {
    if (c.stream === "stderr") stderr += c.data.toString("utf8");
    else if (onStdout(c.data) === false) break;
  }
  return stderr;
}

/** Starts a file script; an image without a shell becomes the file error the SDK expects. */
async function startScript(
  rt: Runtime,
  id: string,
  argv: string[],
  path: string,
  op: "read" | "write",
  sidecar?: string,
): Promise<ExecProcess> {
  try {
    return reportKills(await rt.exec(id, { argv, ...(sidecar ? { sidecar } : {}) }), rt.name, id);
  } catch (e) {
    if (isHangarError(e) && e.metadata.no_shell)
      throw errors.fileIoFailed(path, op, "the sandbox image has no /bin/sh, which file operations need");
    throw e;
  }
}

export async function readFile(
  rt: Runtime,
  id: string,
  path: string,
  maxBytes: number,
  signal: AbortSignal,
  sidecar?: string,
): Promise<Buffer> {
  const p = await startScript(rt, id, ["/bin/sh", "-c", READ, "hangar-read-file", path], path, "read", sidecar);
  const abort = () => void p.kill().catch(() => undefined); // a failure is reported (reportKills)
  signal.addEventListener("abort", abort, { once: true });
  try {
    p.closeStdin();
    let header: Buffer = Buffer.alloc(0);
    let size = -1;
    const parts: Buffer[] = [];
    let got = 0;
    let tooLarge = false;
    const stderr = await collectStderr(p, (b) => {
      if (size < 0) {
        header = Buffer.concat([header, b]);
        const nl = header.indexOf(10);
        if (nl < 0) return;
        size = Number(header.subarray(0, nl).toString().trim());
        if (size > maxBytes) {
          tooLarge = true;
          return false;
        }
        b = header.subarray(nl + 1);
      }
      got += b.length;
      if (got > maxBytes) {
        tooLarge = true;
        return false;
      }
      parts.push(b);
    });
    if (tooLarge) {
      await p.kill().catch(() => undefined); // a failure is reported (reportKills); the answer stays "too large"
      throw errors.fileTooLarge(path, "read", Math.max(size, got), maxBytes);
    }
    const { exitCode } = await p.exited;
    if (signal.aborted) throw errors.unavailable("the call was cancelled");
    if (exitCode !== 0) throw mapExit(exitCode, path, "read", stderr);
    return Buffer.concat(parts, got);
  } finally {
    signal.removeEventListener("abort", abort);
  }
}

export async function writeFile(
  rt: Runtime,
  id: string,
  path: string,
  content: Buffer,
  signal: AbortSignal,
  sidecar?: string,
): Promise<void> {
  const p = await startScript(rt, id, ["/bin/sh", "-c", WRITE, "hangar-write-file", path, String(content.length)], path, "write", sidecar);
  const abort = () => void p.kill().catch(() => undefined); // a failure is reported (reportKills)
  signal.addEventListener("abort", abort, { once: true });
  try {
    const out = collectStderr(p, () => undefined);
    for (let off = 0; off < content.length; off += 1 << 20) await p.write(content.subarray(off, off + (1 << 20)));
    p.closeStdin();
    const stderr = await out;
    const { exitCode } = await p.exited;
    if (exitCode !== 0) throw mapExit(exitCode, path, "write", stderr);
  } finally {
    signal.removeEventListener("abort", abort);
  }
}
