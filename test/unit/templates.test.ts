import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyOverrides } from "../../api/template-view.js";
import { createTemplates } from "../../controller/templates.js";
import { TemplateConflict, type TemplateRecord, type TemplateStore } from "../../core/templates.js";
import { createFileTemplateStore } from "../../runtime/local/template-files.js";

function memoryStore(): TemplateStore & { map: Map<string, TemplateRecord> } {
  const map = new Map<string, TemplateRecord>();
  return {
    map,
    list: async (tenant) => [...map.values()].filter((t) => t.tenant === tenant),
    get: async (tenant, id) => {
      const t = map.get(id);
      return t?.tenant === tenant ? t : undefined;
    },
    put: async (t, expected) => {
      if ((map.get(t.id)?.revision ?? 0) !== expected) throw new TemplateConflict("conflict");
      map.set(t.id, structuredClone(t));
    },
  };
}

describe("templates", () => {
  it("are scoped to their tenant: another tenant cannot get, list, update, delete or guess them", async () => {
    const tpl = createTemplates(memoryStore());
    const t = await tpl.create("alpha", { displayName: "env", spec: { tags: ["a"] } }, "");
    expect((await tpl.get("alpha", t.id)).displayName).toBe("env");
    for (const op of [() => tpl.get("beta", t.id), () => tpl.update("beta", t.id, { displayName: "x" }), () => tpl.remove("beta", t.id)])
      await expect(op()).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await tpl.list("beta", true)).toEqual([]);
  });
  it("a retried request_id returns the same template; the same request_id of another tenant is another template", async () => {
    const tpl = createTemplates(memoryStore());
    const a = await tpl.create("alpha", { displayName: "one", spec: {} }, "req-1");
    const again = await tpl.create("alpha", { displayName: "two", spec: {} }, "req-1");
    expect(again).toEqual(a);
    const b = await tpl.create("beta", { displayName: "one", spec: {} }, "req-1");
    expect(b.id).not.toBe(a.id);
  });
  it("updates bump the revision and are checked against it; a concurrent writer never loses silently", async () => {
    const store = memoryStore();
    const tpl = createTemplates(store);
    const t = await tpl.create("alpha", { displayName: "v1", spec: {} }, "");
    const real = store.put.bind(store);
    let raced = false;
    store.put = async (x, expected) => {
      if (!raced) {
        raced = true; // another replica writes first
        await real({ ...x, displayName: "other", revision: expected + 1 }, expected);
      }
      return real(x, store.map.get(x.id)?.revision === expected ? expected : -1);
    };
    const u = await tpl.update("alpha", t.id, { displayName: "v2" });
    expect(u.revision).toBe(3);
    expect(u.displayName).toBe("v2");
  });
  it("deleted templates are kept for show_deleted and can no longer be read, run or changed", async () => {
    const tpl = createTemplates(memoryStore());
    const t = await tpl.create("alpha", { displayName: "env", spec: {} }, "");
    await tpl.remove("alpha", t.id);
    await expect(tpl.get("alpha", t.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await tpl.get("alpha", t.id, true)).deletedAtMs).toBeGreaterThan(0);
    expect(await tpl.list("alpha", false)).toEqual([]);
    expect(await tpl.list("alpha", true)).toHaveLength(1);
    await expect(tpl.update("alpha", t.id, { displayName: "x" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
  it("without a store (a runtime that keeps none), every call is UNIMPLEMENTED", async () => {
    await expect(createTemplates(undefined).list("a", false)).rejects.toMatchObject({ code: "UNIMPLEMENTED" });
  });
});

describe("the local file store", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
  it("survives a restart (a new store on the same data dir) and checks revisions", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-tpl-"));
    dirs.push(dir);
    const t: TemplateRecord = {
      id: "0f0e0d0c-0b0a-4000-8000-000000000001",
      tenant: "alpha",
      displayName: "env",
      spec: { tags: ["x"] },
      revision: 1,
      createdAtMs: 1,
      updatedAtMs: 1,
    };
    await createFileTemplateStore(dir).put(t, 0);
    const again = createFileTemplateStore(dir);
    expect(await again.get("alpha", t.id)).toEqual(t);
    expect(await again.get("beta", t.id)).toBeUndefined();
    await expect(again.put({ ...t, revision: 2 }, 0)).rejects.toBeInstanceOf(TemplateConflict);
    await again.put({ ...t, revision: 2 }, 1);
    expect((await again.list("alpha")).map((x) => x.revision)).toEqual([2]);
    expect(await again.get("alpha", "../../etc/passwd")).toBeUndefined();
  });
});

describe("overrides", () => {
  const rows: [string, object, object, object][] = [
    ["nothing set: the template", { tags: ["t"], max_lifetime_seconds: 60 }, {}, { tags: ["t"], max_lifetime_seconds: 60 }],
    [
      "a set field replaces the template's whole",
      { tags: ["t"], annotations: { a: "1" } },
      { tags: ["o"], annotations: { b: "2" } },
      { tags: ["o"], annotations: { b: "2" } },
    ],
    [
      "the container list is replaced, never patched",
      { containers: [{ name: "main", image: "a", args: ["x"] }] },
      { containers: [{ name: "main", image: "b" }] },
      { containers: [{ name: "main", image: "b" }] },
    ],
    [
      "zeros and empties are not set",
      { max_lifetime_seconds: 60, runner_ids: ["r"] },
      { max_lifetime_seconds: 0, runner_ids: [], runtime_class: "" },
      { max_lifetime_seconds: 60, runner_ids: ["r"] },
    ],
  ];
  for (const [what, t, o, want] of rows) it(what, () => expect(applyOverrides(t as never, o as never)).toEqual(want));
});
