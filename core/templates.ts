/**
 * Sandbox templates (SandboxTemplateService): a named, partial sandbox spec a tenant runs many
 * sandboxes from. Stored durably by the runtime (Kubernetes: a ConfigMap each in the sandbox
 * namespace; local: a file each under the data dir), scoped to their tenant, versioned by a
 * revision that every update checks (two writers cannot both win).
 */
/** A shared template's id (operator-defined, and named by `template:<id>` warm pools): a DNS label of at most 64 characters. */
export const SHARED_TEMPLATE_ID = /^[a-z0-9]([-a-z0-9]{0,62}[a-z0-9])?$/;

export interface TemplateRecord {
  id: string;
  tenant: string;
  displayName: string;
  /** The PartialSandboxSpec as the API read it (proto JSON): echoed, merged with overrides at run. */
  spec: unknown;
  /** SandboxTemplate.attachments (a google.protobuf.Struct), kept as sent. */
  attachments?: unknown;
  revision: number;
  createdAtMs: number;
  updatedAtMs: number;
  /** Deleted templates are kept (Get/List with show_deleted) and can no longer be run or changed. */
  deletedAtMs?: number;
  requestId?: string;
}

export interface TemplateStore {
  /** Every template of the tenant, deleted ones included. */
  list(tenant: string): Promise<TemplateRecord[]>;
  get(tenant: string, id: string): Promise<TemplateRecord | undefined>;
  /**
   * Stores t if the stored revision is `expected` (0: none stored yet); else throws the
   * `TemplateConflict` below. Never writes a template of one tenant where another's is.
   */
  put(t: TemplateRecord, expected: number): Promise<void>;
}

export class TemplateConflict extends Error {}

/** Templates per tenant, at most. */
export const MAX_TEMPLATES = 1000;
