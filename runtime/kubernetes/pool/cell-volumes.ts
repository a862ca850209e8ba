/**
 * A claim's scratch volumes as the supervisor makes them in the sandbox's cell (ADR 0042,
 * agent/cell_volumes.go): one entry per mount, a sized volume's size in bytes (a tmpfs of exactly
 * that size there; ENOSPC past it), none for an unsized one (a directory of the cell).
 */
import { parseQuantity } from "../../../core/quantity.js";
import type { SandboxSpec } from "../../../core/types.js";

export interface CellVolume {
  name: string;
  path: string;
  bytes?: number;
  readOnly?: boolean;
  subPath?: string;
}

/** The cell's volume list for a spec (pure): only scratch volumes (poolShapeOf lets no other kind through). */
export function cellVolumesOf(spec: Pick<SandboxSpec, "volumes">): CellVolume[] {
  const sizes = new Map<string, number>();
  for (const v of spec.volumes) {
    const bytes = v.size ? parseQuantity(v.size) : undefined;
    if (bytes) sizes.set(v.name, Math.max(bytes, sizes.get(v.name) ?? 0));
  }
  return spec.volumes.map((v) => ({
    name: v.name,
    path: v.mountPath,
    ...(sizes.get(v.name) ? { bytes: Math.ceil(sizes.get(v.name)!) } : {}),
    ...(v.readOnly ? { readOnly: true } : {}),
    ...(v.subPath ? { subPath: v.subPath } : {}),
  }));
}
