/**
 * Honoured request fields whose effect no other test shows, each through the real gRPC server
 * (or the pure function that turns it into a pod or a sandbox's launch): api/field-policy.ts names
 * these tests, and test/unit/field-policy.test.ts fails when an honoured field names none.
 */
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunnerInfo } from "../../core/types.js";
import { loadApi, PROTO_DIR } from "../../api/proto.js";
import { buildPod } from "../../runtime/kubernetes/pod/spec.js";
import { bubblewrapLauncher } from "../../runtime/local/launcher.js";
import type { LogOptions } from "../../runtime/types.js";
import { fakeRuntime } from "./fake-runtime.js";
import { spec } from "./fixtures.js";
import { authMetadata, startTestServer, unaryCall, type UnaryClient } from "./test-server.js";

type Client = UnaryClient;

const runner = (over: Partial<RunnerInfo>): RunnerInfo => ({
  runnerId: "r-a",
  runnerGroupId: "g-a",
  organizationId: "org",
  architectures: ["amd64"],
  healthy: true,
  connectedAtMs: 0,
  maxCpuMillicores: 2000,
  maxMemoryBytes: 2 ** 30,
  availableCpuMillicores: 2000,
  availableMemoryBytes: 2 ** 30,
  runningSandboxes: 0,
  runtimeClasses: [],
  ...over,
});
const RUNNERS = [
  runner({}),
  runner({
    runnerId: "r-b",
    runnerGroupId: "g-b",
    architectures: ["arm64"],
    gpus: { perNodeMax: 8, available: 8, types: ["NVIDIA-H100-80GB-HBM3"] } as never,
    serviceDomain: "ns.svc.cluster.local",
  }),
  runner({ runnerId: "r-c", organizationId: "other-org", healthy: false }),
];

const rt = fakeRuntime();
const logCalls: LogOptions[] = [];
Object.assign(rt, {
  runners: () => RUNNERS,
  async *logs(_id: string, o: LogOptions) {
    logCalls.push(o);
    yield { data: Buffer.from("log line\n"), end: 9 };
  },
});
let server: Awaited<ReturnType<typeof startTestServer>>;
let sandboxes: Client;
let discovery: Client;
const call = <T = Record<string, unknown>>(c: Client, method: string, req: object): Promise<T> => unaryCall<T>(c, method, req);
const create = (over: object = {}, extra: object = {}) =>
  call<{ sandbox_id: string }>(sandboxes, "CreateSandbox", {
    sandbox: { spec: { containers: [{ name: "main", image: "python:3.11" }], ...over } },
    ...extra,
  });

beforeAll(async () => {
  server = await startTestServer(rt, { controller: { maxSandboxes: 50 } });
  const { v1 } = loadApi(PROTO_DIR);
  const at = `127.0.0.1:${server.port}`;
  sandboxes = new v1.SandboxService(at, grpc.credentials.createInsecure()) as unknown as Client;
  discovery = new v1.DiscoveryService(at, grpc.credentials.createInsecure()) as unknown as Client;
});
afterAll(async () => {
  sandboxes.close();
  discovery.close();
  await server.api.shutdown(1000);
  await server.controller.close();
});

const ids = (res: { runners?: { runner_id: string }[] }) => (res.runners ?? []).map((r) => r.runner_id).sort();

describe("discovery", () => {
  it("ListAvailableRunners: each filter keeps only the runners that match it", async () => {
    const list = (req: object) =>
      call<{ runners: { runner_id: string; resources: unknown }[]; next_page_token: string }>(discovery, "ListAvailableRunners", req);
    expect(ids(await list({}))).toEqual(["r-a", "r-b", "r-c"]);
    expect(ids(await list({ runner_group_id: "g-b" }))).toEqual(["r-b"]);
    expect(ids(await list({ architecture: "arm64" }))).toEqual(["r-b"]);
    expect(ids(await list({ gpu_type: "H100" }))).toEqual(["r-b"]);
    expect(ids(await list({ gpu_type: "A100" }))).toEqual([]);
    expect(ids(await list({ healthy_only: true }))).toEqual(["r-a", "r-b"]);
    expect(ids(await list({ service_visibility: "VISIBILITY_PRIVATE" }))).toEqual(["r-b"]);
    expect(ids(await list({ service_visibility: "VISIBILITY_PUBLIC" }))).toEqual([]);
    // Every runner fits one page, whatever page_size asks.
    const paged = await list({ page_size: 1 });
    expect([ids(paged), paged.next_page_token]).toEqual([["r-a", "r-b", "r-c"], ""]);
    // BASIC leaves resources out; FULL carries them.
    expect((await list({ view: "RUNNER_VIEW_BASIC" })).runners.map((r) => r.resources ?? null)).toEqual([null, null, null]);
    expect((await list({ view: "RUNNER_VIEW_FULL" })).runners.filter((r) => r.resources).length).toBe(3);
  });

  it("GetAvailableRunner: another organization's runner is NOT_FOUND; the view is always FULL", async () => {
    const get = (req: object) => call<{ runner_id: string; resources: unknown }>(discovery, "GetAvailableRunner", req);
    expect((await get({ runner_id: "r-c", organization_id: "other-org" })).runner_id).toBe("r-c");
    await expect(get({ runner_id: "r-c", organization_id: "org" })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    for (const view of ["RUNNER_VIEW_BASIC", "RUNNER_VIEW_FULL", "RUNNER_VIEW_UNSPECIFIED"])
      expect((await get({ runner_id: "r-a", view })).resources).toMatchObject({ available_cpu_millicores: "2000" });
  });
});

describe("sandboxes", () => {
  it("ListSandboxes: runner_ids keep the sandboxes on those runners", async () => {
    const tag = "by-runner";
    const a = await create({ tags: [tag], runner_ids: ["r-a"] });
    const b = await create({ tags: [tag], runner_ids: ["r-b"] });
    const list = async (runner_ids: string[]) =>
      (await call<{ sandboxes: { sandbox_id: string }[] }>(sandboxes, "ListSandboxes", { tags: [tag], runner_ids })).sandboxes
        .map((s) => s.sandbox_id)
        .sort();
    expect(await list(["r-a"])).toEqual([a.sandbox_id]);
    expect(await list(["r-b"])).toEqual([b.sandbox_id]);
    expect(await list(["r-a", "r-b"])).toEqual([a.sandbox_id, b.sandbox_id].sort());
    expect(await list([])).toEqual([a.sandbox_id, b.sandbox_id].sort());
  });

  it("PurgeSandboxes: purge_all stops every sandbox of the caller; a retry stops nothing twice", async () => {
    await expect(call(sandboxes, "PurgeSandboxes", {})).rejects.toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
      details: expect.stringContaining("purge_all"),
    });
    const made = [await create({ tags: ["p1"] }), await create({ tags: ["p2"] })];
    const live = () => made.filter((s) => server.controller.get("alpha", s.sandbox_id).state === "RUNNING").length;
    expect(live()).toBe(2);
    const first = await call<{ purge_count: number }>(sandboxes, "PurgeSandboxes", { purge_all: true, request_id: "purge-1" });
    expect(first.purge_count).toBeGreaterThanOrEqual(2);
    expect(
      made.every(
        (s) =>
          server.controller.get("alpha", s.sandbox_id).stop !== undefined ||
          server.controller.get("alpha", s.sandbox_id).state !== "RUNNING",
      ),
    ).toBe(true);
    // request_id is not read: the retry finds nothing left to stop.
    expect((await call<{ purge_count: number }>(sandboxes, "PurgeSandboxes", { purge_all: true, request_id: "purge-1" })).purge_count).toBe(
      0,
    );
  });

  it("annotations reach the pod and are echoed by Get", async () => {
    const sb = await create({ annotations: { "team.example/owner": "ml" } });
    const got = await call<{ spec: { annotations: Record<string, string> } }>(sandboxes, "GetSandbox", { sandbox_id: sb.sandbox_id });
    expect(got.spec.annotations).toEqual({ "team.example/owner": "ml" });
    expect(server.controller.get("alpha", sb.sandbox_id).spec.annotations).toEqual({ "team.example/owner": "ml" });
    const pod = buildPod("0f0e0d0c-0b0a-4000-8000-000000000001", spec({ annotations: { "team.example/owner": "ml" } }), {
      namespace: "ns",
      egress: false,
    });
    expect(pod.metadata?.annotations?.["team.example/owner"]).toBe("ml");
  });

  it("working_dir is the pod's workingDir and the local sandbox's --chdir", async () => {
    const sb = await create({ containers: [{ name: "main", image: "python:3.11", working_dir: "/work/repo" }] });
    const domain = server.controller.get("alpha", sb.sandbox_id).spec;
    expect(domain.workingDir).toBe("/work/repo");
    expect(
      buildPod("0f0e0d0c-0b0a-4000-8000-000000000001", domain, { namespace: "ns", egress: false }).spec?.containers[0]?.workingDir,
    ).toBe("/work/repo");
    const launcher = bubblewrapLauncher(
      { bwrap: "/usr/bin/bwrap", setpriv: "/usr/bin/setpriv", nsenter: "/usr/bin/nsenter" },
      "/usr/bin/bwrap",
    );
    const paths = { root: "/d/root", rootWritable: true, tmp: "/d/tmp", home: "/d/home", empty: "/d/empty", files: [], volumes: [] };
    const argv = (s: typeof domain) =>
      launcher.mainArgv({
        paths,
        spec: s,
        hostname: "h",
        uid: 0,
        maskPaths: [],
        env: {},
        guard: "/d/guard",
        procMasks: { files: [], dirs: [] },
        slot: 300_007,
      });
    const chdir = (a: string[]) => a[a.indexOf("--chdir") + 1];
    expect(chdir(argv(domain))).toBe("/work/repo");
    expect(chdir(argv({ ...domain, workingDir: undefined }))).not.toBe("/work/repo");
  });

  it("resources (the flat field) are the requests and the limits both, when resource_requirements is absent", async () => {
    const flat = await create({ containers: [{ name: "main", image: "python:3.11", resources: { cpu: "250m", memory: "256Mi" } }] });
    expect(server.controller.get("alpha", flat.sandbox_id).spec).toMatchObject({
      requests: { cpu: "250m", memory: "256Mi" },
      limits: { cpu: "250m", memory: "256Mi" },
    });
    const both = await create({
      containers: [
        {
          name: "main",
          image: "python:3.11",
          resources: { cpu: "250m" },
          resource_requirements: { requests: { cpu: "100m" }, limits: { cpu: "2" } },
        },
      ],
    });
    expect(server.controller.get("alpha", both.sandbox_id).spec).toMatchObject({ requests: { cpu: "100m" }, limits: { cpu: "2" } });
  });

  it("Exec and StreamExec: env reaches the command", async () => {
    const sb = await create();
    await call(sandboxes, "Exec", { sandbox_id: sb.sandbox_id, command: ["echo", "unary"], env: { STAGE: "unary" } });
    expect(rt.execs.at(-1)).toMatchObject({ argv: ["echo", "unary"], env: { STAGE: "unary" } });
    const s = (sandboxes as unknown as { StreamExec(m: grpc.Metadata): grpc.ClientDuplexStream<object, { exit?: unknown }> }).StreamExec(
      authMetadata(),
    );
    const done = new Promise<void>((resolve, reject) => {
      s.on("data", (m) => m.exit && resolve());
      s.on("error", reject);
    });
    s.write({ init: { sandbox_id: sb.sandbox_id, command: ["echo", "stream"], env: { STAGE: "stream" } } });
    s.end();
    await done;
    expect(rt.execs.at(-1)).toMatchObject({ argv: ["echo", "stream"], env: { STAGE: "stream" } });
  });

  it("StreamLogs: since_time is the instant the runtime's lines must follow", async () => {
    const sb = await create();
    const read = (req: object) =>
      new Promise<void>((resolve, reject) => {
        const s = (sandboxes as unknown as { StreamLogs(r: object, m: grpc.Metadata): grpc.ClientReadableStream<object> }).StreamLogs(
          { sandbox_id: sb.sandbox_id, ...req },
          authMetadata(),
        );
        s.on("data", () => undefined);
        s.on("end", resolve);
        s.on("error", reject);
      });
    await read({ since_time: { seconds: 1_700_000_000, nanos: 250_000_000 } });
    expect(logCalls.at(-1)?.sinceMs).toBe(1_700_000_000_250);
    await read({});
    expect(logCalls.at(-1)?.sinceMs).toBeUndefined();
  });
});

describe("CreateSandboxFromFile", () => {
  const contents = Buffer.from('services:\n  main:\n    image: python:3.11\n    entrypoint: ["sleep", "60"]\n');
  const fromFile = (over: object) =>
    call<{ sandbox_id: string; display_name: string }>(sandboxes, "CreateSandboxFromFile", {
      type: "SANDBOX_FILE_TYPE_COMPOSE",
      contents,
      primary_service: "main",
      ...over,
    });

  it("CreateSandboxFromFile: lifetime, tags, annotations, network, runners and display name are the sandbox's", async () => {
    const sb = await fromFile({
      max_lifetime_seconds: 90,
      tags: ["from-file"],
      annotations: { "team.example/owner": "ml" },
      network: { deny_egress: false },
      runner_ids: ["r-b"],
      display_name: "compose run",
    });
    expect(sb.display_name).toBe("compose run");
    const r = server.controller.get("alpha", sb.sandbox_id);
    expect(r).toMatchObject({
      runnerId: "r-b",
      effectiveLifetimeSeconds: 90,
      spec: { maxLifetimeSeconds: 90, tags: ["from-file"], annotations: { "team.example/owner": "ml" }, denyEgress: false },
    });
    const listed = await call<{ sandboxes: { sandbox_id: string }[] }>(sandboxes, "ListSandboxes", { tags: ["from-file"] });
    expect(listed.sandboxes.map((s) => s.sandbox_id)).toEqual([sb.sandbox_id]);
    const other = await fromFile({ network: { deny_egress: true }, runner_ids: ["r-a"] });
    expect(server.controller.get("alpha", other.sandbox_id)).toMatchObject({ runnerId: "r-a", spec: { denyEgress: true } });
    await expect(fromFile({ runner_ids: ["no-such-runner"] })).rejects.toMatchObject({ code: grpc.status.FAILED_PRECONDITION });
  });
});
