/**
 * Template operations over the runtime's store (core/templates.ts): tenant scoping, idempotent
 * create by request_id, revision-checked updates, soft delete. Pure decisions live in the store's
 * callers here; the API layer validates specs and converts to proto.
 */
import { createHash, randomUUID } from "node:crypto";
import { errors, HangarError } from "../core/errors.js";
import { MAX_TEMPLATES, TemplateConflict, type TemplateRecord, type TemplateStore } from "../core/templates.js";

export interface TemplateInput {
  displayName: string;
  spec: unknown;
  attachments?: unknown;
}

const notFound = (id: string) =>
  new HangarError({ code: "NOT_FOUND", message: `sandbox template ${id.replace(/[\u0000-\u001f\u007f]/g, "?").slice(0, 128)} not found` });
const idFor = (tenant: string, requestId: string) => {
  const h = createHash("sha256").update(`template\u0000${tenant}\u0000${requestId}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** A shared template (the operator's, every tenant's to run) is read-only through the API. */
const sharedIsReadOnly = (id: string) =>
  new HangarError({
    code: "FAILED_PRECONDITION",
    message: `sandbox template ${id} is shared by the operator (HANGAR_SHARED_TEMPLATES_FILE): it cannot be changed or deleted through the API; create your own from it`,
  });

/** A new template of the tenant; a retried create (same request_id) answers with the first one. */
async function createTemplate(
  s: TemplateStore,
  now: () => number,
  tenant: string,
  input: TemplateInput,
  requestId: string,
): Promise<TemplateRecord> {
  const id = requestId ? idFor(tenant, requestId) : randomUUID();
  if (requestId) {
    const existing = await s.get(tenant, id);
    if (existing && existing.tenant === tenant) return existing;
  }
  const live = (await s.list(tenant)).filter((t) => t.deletedAtMs === undefined).length;
  if (live >= MAX_TEMPLATES) throw errors.capacityExhausted(`a tenant keeps at most ${MAX_TEMPLATES} templates; delete some`, 0);
  const t: TemplateRecord = {
    id,
    tenant,
    ...input,
    revision: 1,
    createdAtMs: now(),
    updatedAtMs: now(),
    ...(requestId ? { requestId } : {}),
  };
  try {
    await s.put(t, 0);
  } catch (e) {
    if (e instanceof TemplateConflict && requestId) {
      const won = await s.get(tenant, id);
      if (won) return won;
    }
    throw e;
  }
  return t;
}

/** shared: the operator's templates (tenant ""), run by every tenant, read-only; a tenant's own id never collides (those are UUIDs). */
export function createTemplates(store: TemplateStore | undefined, now: () => number = Date.now, shared: TemplateRecord[] = []) {
  const need = (): TemplateStore => {
    if (!store) throw errors.notImplemented("templates on this runtime");
    return store;
  };
  async function own(tenant: string, id: string, showDeleted = false): Promise<TemplateRecord> {
    if (shared.some((t) => t.id === id)) throw sharedIsReadOnly(id);
    const t = await need().get(tenant, id);
    if (!t || t.tenant !== tenant || (t.deletedAtMs !== undefined && !showDeleted)) throw notFound(id);
    return t;
  }
  async function find(tenant: string, id: string, showDeleted = false): Promise<TemplateRecord> {
    const s = shared.find((t) => t.id === id);
    if (s) return s;
    return own(tenant, id, showDeleted);
  }
  return {
    enabled: () => !!store,
    get: find,
    async list(tenant: string, showDeleted: boolean): Promise<TemplateRecord[]> {
      const all = (await need().list(tenant)).filter((t) => t.tenant === tenant && (showDeleted || t.deletedAtMs === undefined));
      return [...shared, ...all.sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id))];
    },
    async create(tenant: string, input: TemplateInput, requestId: string): Promise<TemplateRecord> {
      return createTemplate(need(), now, tenant, input, requestId); // async: a missing store rejects, as before
    },
    /** Applies `change` (fields already chosen by the update mask) to the current revision. */
    async update(tenant: string, id: string, change: Partial<TemplateInput>): Promise<TemplateRecord> {
      const s = need();
      for (let attempt = 0; attempt < 5; attempt++) {
        const cur = await own(tenant, id);
        const next: TemplateRecord = { ...cur, ...change, revision: cur.revision + 1, updatedAtMs: now() };
        try {
          await s.put(next, cur.revision);
          return next;
        } catch (e) {
          if (!(e instanceof TemplateConflict)) throw e;
        }
      }
      throw errors.unavailable(`sandbox template ${id} kept changing under this update; try again`);
    },
    async remove(tenant: string, id: string): Promise<void> {
      const s = need();
      for (let attempt = 0; attempt < 5; attempt++) {
        const cur = await own(tenant, id);
        try {
          await s.put({ ...cur, deletedAtMs: now(), revision: cur.revision + 1, updatedAtMs: now() }, cur.revision);
          return;
        } catch (e) {
          if (!(e instanceof TemplateConflict)) throw e;
        }
      }
      throw errors.unavailable(`sandbox template ${id} kept changing; try again`);
    },
  };
}

export type Templates = ReturnType<typeof createTemplates>;
