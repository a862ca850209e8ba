/**
 * The local runtime's template store: one JSON file per template under
 * <data dir>/templates/<tenant>/, written atomically (temporary file + rename), so templates
 * survive a Hangar restart. One process owns the data dir, so a lock in memory orders writers.
 */
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { TemplateConflict, type TemplateRecord, type TemplateStore } from "../../core/templates.js";

const SAFE = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export function createFileTemplateStore(dataDir: string): TemplateStore {
  const dirOf = (tenant: string) => {
    if (!SAFE.test(tenant)) throw new Error(`tenant "${tenant}" cannot name a directory`);
    return path.join(dataDir, "templates", tenant);
  };
  const fileOf = (tenant: string, id: string) => (/^[A-Za-z0-9-]{1,64}$/.test(id) ? path.join(dirOf(tenant), `${id}.json`) : undefined);
  let chain: Promise<unknown> = Promise.resolve();
  const locked = <T>(f: () => Promise<T>): Promise<T> => {
    const run = chain.then(f, f);
    chain = run.catch(() => undefined);
    return run;
  };
  async function get(tenant: string, id: string): Promise<TemplateRecord | undefined> {
    const f = fileOf(tenant, id);
    if (!f) return undefined;
    const text = await readFile(f, "utf8").catch(() => undefined);
    return text === undefined ? undefined : (JSON.parse(text) as TemplateRecord);
  }
  return {
    get,
    async list(tenant) {
      const dir = dirOf(tenant);
      const names = await readdir(dir).catch(() => [] as string[]);
      const out: TemplateRecord[] = [];
      for (const n of names.filter((x) => x.endsWith(".json"))) {
        const t = await get(tenant, n.slice(0, -5));
        if (t) out.push(t);
      }
      return out;
    },
    put: (t, expected) =>
      locked(async () => {
        const f = fileOf(t.tenant, t.id);
        if (!f) throw new Error(`template id ${t.id} cannot name a file`);
        const cur = await get(t.tenant, t.id);
        if ((cur?.revision ?? 0) !== expected)
          throw new TemplateConflict(`template ${t.id} is at revision ${cur?.revision ?? 0}, not ${expected}`);
        await mkdir(path.dirname(f), { recursive: true, mode: 0o700 });
        const tmp = `${f}.tmp-${process.pid}`;
        await writeFile(tmp, JSON.stringify(t), { mode: 0o600 });
        await rename(tmp, f);
      }),
  };
}
