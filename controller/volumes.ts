/**
 * Registered volumes at create: each `volume_id` a sandbox names is looked up among its tenant's
 * (another tenant's id reads as unknown), must be ready, and may be written only as its
 * registration and access modes allow beside the sandboxes already writing to it. The lookup is
 * async; the writer check (`claimWriters`) is synchronous so that it runs with the record's insert,
 * and two creates on one replica never both become the one writer.
 */
import { errors } from "../core/errors.js";
import type { SandboxRecord, SandboxSpec } from "../core/types.js";
import { writerConflict, type RegisteredVolume, type VolumeRegistry, type VolumeUse } from "../core/volumes.js";
import { isTerminal } from "../core/types.js";

/** The spec with each registered mount's source filled in for `tenant`, and the volumes it uses. */
export async function resolveVolumes(
  tenant: string,
  spec: SandboxSpec,
  registry: VolumeRegistry | undefined,
): Promise<{ spec: SandboxSpec; used: RegisteredVolume[] }> {
  const mounts = spec.volumes.filter((m) => m.registered);
  if (!mounts.length) return { spec, used: [] };
  const first = mounts[0]?.registered?.at ?? "sandbox.spec.volumes";
  if (!registry) throw errors.volumesByOperator(`${first}: this runtime has no registered volumes`);
  const mine = await registry.list(tenant);
  const used: RegisteredVolume[] = [];
  const volumes = spec.volumes.map((m) => {
    if (!m.registered) return m;
    const v = mine.find((x) => x.id === m.registered?.id);
    if (!v) throw errors.volumeNotFound(m.registered.id, m.registered.at);
    if (!v.ready) throw errors.volumeNotReady(v.id, m.registered.at, v.reason);
    if (!used.includes(v)) used.push(v);
    return { ...m, registered: { ...m.registered, source: v.source } };
  });
  return { spec: { ...spec, volumes }, used };
}

/** Which registered volumes a live sandbox uses, and whether it writes to them. */
export function volumeUses(r: Pick<SandboxRecord, "id" | "state" | "spec">): VolumeUse[] {
  if (isTerminal(r.state)) return [];
  const out: VolumeUse[] = [];
  for (const m of r.spec.volumes) {
    if (!m.registered) continue;
    const prev = out.find((u) => u.volumeId === m.registered?.id);
    if (prev) prev.writes ||= !m.readOnly;
    else out.push({ sandboxId: r.id, volumeId: m.registered.id, writes: !m.readOnly });
  }
  return out;
}

/** Throws when the spec's writes conflict with the live sandboxes' (a registered read-only volume, a second writer). */
export function claimWriters(spec: SandboxSpec, used: RegisteredVolume[], live: VolumeUse[]): void {
  for (const v of used) {
    const mounts = spec.volumes.filter((m) => m.registered?.id === v.id);
    const writer = mounts.find((m) => !m.readOnly);
    const why = writerConflict(v, !!writer, live);
    if (why) throw errors.volumeInUse(writer?.registered?.at ?? mounts[0]?.registered?.at ?? "sandbox.spec.volumes", why);
  }
}
