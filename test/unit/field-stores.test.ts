/**
 * Honoured fields of the template, volume and snapshot calls whose effect no other test shows,
 * through the real gRPC server over an in-memory runtime with a template store, registered
 * volumes and a snapshot directory. api/field-policy.ts names these tests.
 */
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadApi, PROTO_DIR } from "../../api/proto.js";
import { createDirSnapshotStore } from "../../controller/snapshot-store.js";
import { TemplateConflict, type TemplateRecord, type TemplateStore } from "../../core/templates.js";
import type { RegisteredVolume } from "../../core/volumes.js";
import { fakeRuntime } from "./fake-runtime.js";
import { startTestServer, unaryCall, type UnaryClient } from "./test-server.js";

type Client = UnaryClient;

const templates = new Map<string, TemplateRecord>();
const store: TemplateStore = {
  list: async (tenant) => [...templates.values()].filter((t) => t.tenant === tenant),
  get: async (tenant, id) => {
    const t = templates.get(id);
    return t?.tenant === tenant ? t : undefined;
  },
  put: async (t, expected) => {
    if ((templates.get(t.id)?.revision ?? 0) !== expected) throw new TemplateConflict("conflict");
    templates.set(t.id, structuredClone(t));
  },
};
const volume = (id: string, ready = true): RegisteredVolume => ({
  id,
  tenant: "alpha",
  readOnly: false,
  accessModes: ["ReadWriteMany"],
  ready,
  reason: ready ? "" : "claim is Pending",
  source: { hostPath: `/srv/${id}` },
  createdAtMs: 1,
});
const VOLUMES = [volume("vol-a"), volume("vol-b"), volume("vol-err", false)];

const rt = fakeRuntime();
Object.assign(rt, { templates: store, volumes: { list: async (tenant: string) => VOLUMES.filter((v) => v.tenant === tenant) } });
let server: Awaited<ReturnType<typeof startTestServer>>;
const clients: Record<"sandboxes" | "templates" | "volumes", Client> = {} as never;
const call = <T = Record<string, unknown>>(c: Client, method: string, req: object): Promise<T> => unaryCall<T>(c, method, req);

beforeAll(async () => {
  const snapshots = {
    store: await createDirSnapshotStore(await mkdtemp(path.join(os.tmpdir(), "hangar-fields-"))),
    maxBytes: 1 << 20,
    maxPerTenant: 50,
  };
  server = await startTestServer(rt, { controller: { maxSandboxes: 50, snapshots } });
  const { v1 } = loadApi(PROTO_DIR);
  const at = `127.0.0.1:${server.port}`;
  clients.sandboxes = new v1.SandboxService(at, grpc.credentials.createInsecure()) as unknown as Client;
  clients.templates = new v1.SandboxTemplateService(at, grpc.credentials.createInsecure()) as unknown as Client;
  clients.volumes = new v1.VolumeService(at, grpc.credentials.createInsecure()) as unknown as Client;
});
afterAll(async () => {
  for (const c of Object.values(clients)) c.close();
  await server.api.shutdown(1000);
  await server.controller.close();
});

// google.protobuf.Struct as protobufjs names its fields (camelCase, whatever keepCase says).
const attachments = {
  fields: { dataset: { stringValue: "swe-bench", kind: "stringValue" }, seed: { numberValue: 7, kind: "numberValue" } },
};
const newTemplate = (name: string, extra: object = {}) =>
  call<{ sandbox_template_id: string; attachments?: unknown }>(clients.templates, "CreateSandboxTemplate", {
    sandbox_template: { display_name: name, spec: { containers: [{ name: "main", image: "python:3.11" }] }, ...extra },
  });

describe("templates", () => {
  it("templates: attachments come back as sent; ListSandboxTemplates pages by page_size and page_token", async () => {
    const made = [await newTemplate("one", { attachments }), await newTemplate("two"), await newTemplate("three")];
    expect(made[0]?.attachments).toEqual(attachments);
    expect(
      (await call(clients.templates, "GetSandboxTemplate", { sandbox_template_id: made[0]?.sandbox_template_id })).attachments,
    ).toEqual(attachments);
    const seen: string[] = [];
    let token = "";
    let pages = 0;
    do {
      const res = await call<{ sandbox_templates?: { sandbox_template_id: string }[]; next_page_token: string }>(
        clients.templates,
        "ListSandboxTemplates",
        { page_size: 2, page_token: token },
      );
      expect((res.sandbox_templates ?? []).length).toBeLessThanOrEqual(2);
      seen.push(...(res.sandbox_templates ?? []).map((t) => t.sandbox_template_id));
      token = res.next_page_token;
      pages++;
    } while (token);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(seen.sort()).toEqual([...templates.keys()].sort());
  });

  it("a run of a template: display_name names the sandbox, a retried request_id is the same sandbox", async () => {
    const t = await newTemplate("py-env");
    const run = (extra: object) =>
      call<{ sandbox_id: string; display_name: string }>(clients.sandboxes, "CreateSandboxFromTemplate", {
        template_id: t.sandbox_template_id,
        ...extra,
      });
    const a = await run({ display_name: "episode 1", request_id: "run-1" });
    expect(a.display_name).toBe("episode 1");
    expect((await run({ display_name: "episode 1", request_id: "run-1" })).sandbox_id).toBe(a.sandbox_id);
    const b = await run({ request_id: "run-2" });
    expect(b.sandbox_id).not.toBe(a.sandbox_id);
    expect(b.display_name).toBe("py-env");
  });
});

describe("volumes", () => {
  it("volumes: Get and Validate read one of the caller's", async () => {
    const got = await call<{ volume_id: string; status: { state: string } }>(clients.volumes, "GetVolume", { volume_id: "vol-a" });
    expect([got.volume_id, got.status.state]).toEqual(["vol-a", "VOLUME_STATE_READY"]);
    const err = await call<{ volume_id: string; status: { state: string; state_reason: string } }>(clients.volumes, "ValidateVolume", {
      volume_id: "vol-err",
    });
    expect([err.volume_id, err.status.state, err.status.state_reason]).toEqual(["vol-err", "VOLUME_STATE_ERROR", "claim is Pending"]);
    for (const m of ["GetVolume", "ValidateVolume"])
      await expect(call(clients.volumes, m, { volume_id: "vol-nope" })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
  });

  it("volumes: ListVolumes filters by states and runner_ids, and pages", async () => {
    const list = async (req: object) => {
      const res = await call<{ volumes?: { volume_id: string }[]; next_page_token: string }>(clients.volumes, "ListVolumes", req);
      return { ids: (res.volumes ?? []).map((v) => v.volume_id), next: res.next_page_token };
    };
    expect((await list({})).ids).toEqual(["vol-a", "vol-b", "vol-err"]);
    expect((await list({ states: ["VOLUME_STATE_READY"] })).ids).toEqual(["vol-a", "vol-b"]);
    expect((await list({ states: ["VOLUME_STATE_ERROR"] })).ids).toEqual(["vol-err"]);
    expect((await list({ runner_ids: ["fake-1"] })).ids).toEqual(["vol-a", "vol-b", "vol-err"]);
    expect((await list({ runner_ids: ["another-runner"] })).ids).toEqual([]);
    const first = await list({ page_size: 2 });
    expect(first.ids).toEqual(["vol-a", "vol-b"]);
    expect(await list({ page_size: 2, page_token: first.next })).toEqual({ ids: ["vol-err"], next: "" });
  });
});

describe("snapshots", () => {
  const running = async () => {
    const sb = await call<{ sandbox_id: string }>(clients.sandboxes, "CreateSandbox", {
      sandbox: {
        spec: {
          containers: [
            {
              name: "main",
              image: "python:3.11",
              volume_mounts: [
                { volume: "a", mount_path: "/a" },
                { volume: "b", mount_path: "/b" },
              ],
            },
          ],
          volumes: [
            { name: "a", scratch: {} },
            { name: "b", scratch: {} },
          ],
        },
      },
    });
    for (let i = 0; i < 100 && server.controller.get("alpha", sb.sandbox_id).state !== "RUNNING"; i++)
      await new Promise((r) => setTimeout(r, 10));
    return sb.sandbox_id;
  };
  type Snap = { file_system_snapshot_id: string; source_volume_name: string; source_sandbox_id: string };
  const snap = (sandbox_id: string, extra: object) => call<Snap>(clients.sandboxes, "CreateFileSystemSnapshot", { sandbox_id, ...extra });

  it("snapshots: a retried request_id is the same snapshot; scratch_volume_name picks the volume", async () => {
    const id = await running();
    const a = await snap(id, { request_id: "snap-1", scratch_volume_name: "b" });
    expect(a.source_volume_name).toBe("b");
    expect((await snap(id, { request_id: "snap-1", scratch_volume_name: "b" })).file_system_snapshot_id).toBe(a.file_system_snapshot_id);
    const other = await snap(id, { request_id: "snap-2", scratch_volume_name: "a" });
    expect([other.source_volume_name, other.file_system_snapshot_id === a.file_system_snapshot_id]).toEqual(["a", false]);
    await expect(snap(id, { request_id: "snap-3" })).rejects.toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
      details: expect.stringContaining("scratch_volume_name"),
    });
  });

  it("snapshots: ListFileSystemSnapshots pages and filters by source sandbox", async () => {
    const [one, two] = [await running(), await running()];
    const mine = [await snap(one, { scratch_volume_name: "a" }), await snap(one, { scratch_volume_name: "b" })].map(
      (s) => s.file_system_snapshot_id,
    );
    await snap(two, { scratch_volume_name: "a" });
    type Page = { file_system_snapshots?: Snap[]; next_page_token: string };
    const bySource = await call<Page>(clients.sandboxes, "ListFileSystemSnapshots", { source_sandbox_id: one });
    expect((bySource.file_system_snapshots ?? []).map((s) => s.file_system_snapshot_id).sort()).toEqual(mine.sort());
    const all: string[] = [];
    let token = "";
    do {
      const res = await call<Page>(clients.sandboxes, "ListFileSystemSnapshots", { page_size: 2, page_token: token });
      expect((res.file_system_snapshots ?? []).length).toBeLessThanOrEqual(2);
      all.push(...(res.file_system_snapshots ?? []).map((s) => s.file_system_snapshot_id));
      token = res.next_page_token;
    } while (token);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all).toEqual(expect.arrayContaining(mine));
  });

  it("snapshots: allow_missing answers OK for an unknown id", async () => {
    const unknown = "00000000-0000-4000-8000-00000000beef";
    await expect(call(clients.sandboxes, "DeleteFileSystemSnapshot", { file_system_snapshot_id: unknown })).rejects.toMatchObject({
      code: grpc.status.NOT_FOUND,
    });
    expect(
      await call(clients.sandboxes, "DeleteFileSystemSnapshot", { file_system_snapshot_id: unknown, allow_missing: true }),
    ).toBeDefined();
  });
});
