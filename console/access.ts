/**
 * Who may do what in the console: a pure decision of the viewer and the sandbox's tenant. A
 * tenant reads and acts on its own sandboxes only; an operator (HANGAR_CONSOLE_OPERATORS) reads
 * every tenant's and acts on others' only where HANGAR_CONSOLE_OPERATOR_WRITE allows it.
 */
export interface Viewer {
  tenant: string;
  operator: boolean;
  /** HANGAR_CONSOLE_OPERATOR_WRITE: operators may also stop and exec into other tenants' sandboxes. */
  operatorWrite: boolean;
}

export type Act = "read" | "write";

/** "ok", "hidden" (answered as not found: another tenant's sandbox does not exist for this viewer) or "read-only". */
export function access(v: Viewer, owner: string, act: Act): "ok" | "hidden" | "read-only" {
  if (owner === v.tenant) return "ok";
  if (!v.operator) return "hidden";
  return act === "read" || v.operatorWrite ? "ok" : "read-only";
}

/**
 * Which tenants' sandboxes a listing covers: a tenant's own (asking for another tenant is refused),
 * an operator's choice or all of them (undefined).
 */
export function listScope(v: Viewer, asked: string | undefined): { tenant: string | undefined } | { refused: string } {
  if (v.operator) return { tenant: asked || undefined };
  if (asked && asked !== v.tenant) return { refused: `tenant ${v.tenant} may list only its own sandboxes, not tenant ${asked}'s` };
  return { tenant: v.tenant };
}
