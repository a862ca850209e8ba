/**
 * A directory secret store (HANGAR_SECRET_STORES name=dir:/path/{tenant}): the tenant's directory
 * holds one entry per secret, laid out as a mounted Kubernetes Secret. A secret without a field is
 * a file (its content is the value) or a directory with exactly one file; with a field, the file
 * <name>/<field>. Nothing is followed out of the tenant's directory (no symbolic links at all).
 */
import { lstat, open, readdir } from "node:fs/promises";
import { constants } from "node:fs";
import path from "node:path";
import { errors } from "../../core/errors.js";
import { MAX_SECRET_BYTES, type SecretRef } from "../../core/secrets.js";

const describe = (ref: SecretRef) => `secret "${ref.name}"${ref.field ? ` field "${ref.field}"` : ""} of store "${ref.store}"`;

async function readValue(file: string, ref: SecretRef): Promise<string> {
  // O_NOFOLLOW: a link planted as the last part is refused, not read.
  const fh = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!fh) throw errors.secretUnavailable(ref.at, `${describe(ref)} is not there for this tenant`);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw errors.secretUnavailable(ref.at, `${describe(ref)} is not a file`);
    if (st.size > MAX_SECRET_BYTES)
      throw errors.secretUnavailable(ref.at, `${describe(ref)} is over ${MAX_SECRET_BYTES} bytes, too large for an environment variable`);
    return (await fh.readFile()).toString("utf8");
  } finally {
    await fh.close();
  }
}

/** The value of one secret in a tenant's directory `dir`. */
export async function readDirSecret(dir: string, ref: SecretRef): Promise<string> {
  // Names were checked in the API (no "/", no leading ".", no ".."); the tenant directory itself must not be a link.
  const base = await lstat(dir).catch(() => undefined);
  if (!base?.isDirectory())
    throw errors.secretUnavailable(ref.at, `${describe(ref)} is not there for this tenant (the store holds nothing for it)`);
  const entry = path.join(dir, ref.name);
  const st = await lstat(entry).catch(() => undefined);
  if (!st || st.isSymbolicLink()) throw errors.secretUnavailable(ref.at, `${describe(ref)} is not there for this tenant`);
  if (ref.field) {
    if (!st.isDirectory())
      throw errors.secretUnavailable(ref.at, `${describe(ref)}: the secret has no fields (it is a single value; leave field empty)`);
    return readValue(path.join(entry, ref.field), ref);
  }
  if (st.isFile()) return readValue(entry, ref);
  if (!st.isDirectory()) throw errors.secretUnavailable(ref.at, `${describe(ref)} is not a file`);
  const keys = (await readdir(entry)).filter((k) => !k.startsWith("."));
  if (keys.length !== 1)
    throw errors.secretUnavailable(
      ref.at,
      `${describe(ref)} has ${keys.length} fields (${keys.slice(0, 8).join(", ")}): name one in field`,
    );
  return readValue(path.join(entry, keys[0] as string), ref);
}
