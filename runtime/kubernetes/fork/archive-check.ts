/**
 * What hangar-forkcsi will unpack (forkcsi/unpack.go), checked by Hangar first: a snapshot's
 * archive is tenant data, and one the plugin would refuse must not reach it (the pod would wait
 * on a mount that never comes); such a volume is restored with tar inside the sandbox instead.
 * Only the headers are read (the file is seeked past each entry's data), so a 1 GiB archive costs
 * one read per entry. The rules are the plugin's: files, directories, symlinks and hard links;
 * no path out of the volume; owners inside the pod's 65536 ids.
 */
import { open } from "node:fs/promises";
import path from "node:path";

const BLOCK = 512;
const MAX_ID = 65535;
/** Header types that describe an entry (0, NUL: file; 1: hard link; 2: symlink; 5: directory). */
const ENTRY_TYPES = new Set(["0", "\0", "1", "2", "5"]);

const cstr = (b: Buffer, from: number, len: number) => {
  const s = b.subarray(from, from + len);
  const end = s.indexOf(0);
  return s.subarray(0, end < 0 ? len : end).toString("utf8");
};

/** A numeric header field: octal text, or GNU's base-256 (high bit set). */
function num(b: Buffer, from: number, len: number): number {
  if ((b[from] ?? 0) & 0x80) {
    let n = (b[from] ?? 0) & 0x7f;
    for (let i = 1; i < len; i++) n = n * 256 + (b[from + i] ?? 0);
    return n;
  }
  const t = cstr(b, from, len).trim();
  return t ? parseInt(t, 8) : 0;
}

/** pax records: "len key=value\n" ... */
function pax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < data.length) {
    const sp = data.indexOf(0x20, i);
    if (sp < 0) break;
    const len = parseInt(data.subarray(i, sp).toString("ascii"), 10);
    if (!(len > 0)) break;
    const rec = data.subarray(sp + 1, i + len - 1).toString("utf8");
    const eq = rec.indexOf("=");
    if (eq > 0) out[rec.slice(0, eq)] = rec.slice(eq + 1);
    i += len;
  }
  return out;
}

/** A name inside the volume (relative, no `..` after cleaning), or why not. */
export function insideName(name: string): boolean {
  if (name.startsWith("/")) return false;
  const clean = path.posix.normalize(name.replace(/^(\.\/)+/, ""));
  return clean === "." || clean === "./" || !(clean === ".." || clean.startsWith("../"));
}

/** Resolves if the archive is one hangar-forkcsi unpacks; otherwise rejects with what is wrong. */
export async function checkArchive(file: string): Promise<void> {
  const fh = await open(file, "r");
  try {
    const { size } = await fh.stat();
    let pos = 0;
    let next: Record<string, string> = {};
    const header = Buffer.alloc(BLOCK);
    // What the plugin's unpack meets: a name made twice, a path through a symlink, a hard link to
    // nothing before it; `tar -cf` of a real tree makes none of them.
    const kinds = new Map<string, string>();
    for (;;) {
      if (pos + BLOCK > size) throw new Error("the archive ends inside a header");
      await fh.read(header, 0, BLOCK, pos);
      pos += BLOCK;
      if (header.every((x) => x === 0)) return; // the end-of-archive block
      const type = String.fromCharCode(header[156] ?? 0);
      const bytes = num(header, 124, 12);
      const dataLen = Math.ceil(bytes / BLOCK) * BLOCK;
      if (pos + dataLen > size) throw new Error("an entry runs past the archive's end");
      if (type === "x" || type === "L" || type === "K" || type === "g") {
        if (bytes > 1024 * 1024) throw new Error("an extended header over 1 MiB");
        const data = Buffer.alloc(bytes);
        await fh.read(data, 0, bytes, pos);
        if (type === "x") next = { ...next, ...pax(data) };
        else if (type === "L") next.path = cstr(data, 0, bytes);
        else if (type === "K") next.linkpath = cstr(data, 0, bytes);
        pos += dataLen;
        continue;
      }
      const prefix = cstr(header, 345, 155);
      const name = next.path ?? (prefix ? `${prefix}/${cstr(header, 0, 100)}` : cstr(header, 0, 100));
      const link = next.linkpath ?? cstr(header, 157, 100);
      const uid = next.uid !== undefined ? Number(next.uid) : num(header, 108, 8);
      const gid = next.gid !== undefined ? Number(next.gid) : num(header, 116, 8);
      next = {};
      if (!ENTRY_TYPES.has(type)) throw new Error(`${name}: entry type ${JSON.stringify(type)} (files, directories and links only)`);
      if (!insideName(name)) throw new Error(`${name}: a path outside the volume`);
      if (type === "1" && !insideName(link)) throw new Error(`${name}: a hard link to ${link}, outside the volume`);
      if (!(uid >= 0 && uid <= MAX_ID && gid >= 0 && gid <= MAX_ID))
        throw new Error(`${name}: owner ${uid}:${gid} outside the sandbox's ids`);
      const clean = path.posix.normalize(name.replace(/^(\.\/)+/, "")).replace(/\/$/, "") || ".";
      const parts = clean.split("/");
      for (let i = 1; i < parts.length; i++)
        if (kinds.get(parts.slice(0, i).join("/")) !== "5")
          throw new Error(`${name}: under ${parts.slice(0, i).join("/")}, which is not a directory of the archive`);
      const seen = kinds.get(clean);
      if (seen !== undefined && !(seen === "5" && type === "5")) throw new Error(`${name}: in the archive twice`);
      if (type === "1") {
        const target = path.posix.normalize(link.replace(/^(\.\/)+/, ""));
        const k = kinds.get(target);
        if (k !== "0" && k !== "\0") throw new Error(`${name}: a hard link to ${link}, not a file before it`);
      }
      kinds.set(clean, type === "1" ? "0" : type);
      pos += dataLen;
    }
  } finally {
    await fh.close();
  }
}
