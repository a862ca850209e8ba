/**
 * Concurrent-command slots: a command (an exec, a file read or write) holds one of its sandbox's
 * slots (maxExecsPerSandbox), one of Hangar's (maxExecs) and one of its tenant's exec_streams.
 */
import { errors } from "../core/errors.js";
import { running, type SandboxTable } from "./sandbox-table.js";
import type { TenantGuard } from "./tenant-guard.js";

export interface ExecLimits {
  maxExecsPerSandbox: number;
  maxExecs: number;
}

export type ExecSlots = ReturnType<typeof createExecSlots>;

export function createExecSlots(t: SandboxTable, tenants: TenantGuard | undefined, limits: ExecLimits) {
  const counts = new Map<string, number>();
  let total = 0;
  /** Takes one of the sandbox's and Hangar's concurrent-command slots; the returned release is idempotent. */
  function take(tenant: string, id: string): () => void {
    running(t, tenant, id);
    const n = counts.get(id) ?? 0;
    if (n >= limits.maxExecsPerSandbox)
      throw errors.tooManyExecs(`sandbox ${id} already runs ${n} commands (limit ${limits.maxExecsPerSandbox})`, 500);
    if (total >= limits.maxExecs) throw errors.tooManyExecs(`Hangar already runs ${total} commands (limit ${limits.maxExecs})`, 500);
    const tenantSlot = tenants?.acquire(tenant, "exec_streams");
    counts.set(id, n + 1);
    total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      tenantSlot?.();
      total--;
      const c = (counts.get(id) ?? 1) - 1;
      if (c <= 0) counts.delete(id);
      else counts.set(id, c);
    };
  }
  return { take };
}
