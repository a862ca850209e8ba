import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkForwarded, listenShareTokenCheck } from "../../api/share-token-check.js";
import { toProtoSandbox } from "../../api/sandbox-view.js";
import { toDomainSpec } from "../../api/spec.js";
import { loadConfig } from "../../cmd/config.js";
import { chooseRunner } from "../../controller/placement.js";
import { parsePublicUrl, publicRoute, publicTarget } from "../../core/public-url.js";
import { shareToken, shareTokenMatches } from "../../core/share-token.js";
import type { RunnerInfo, SandboxRecord } from "../../core/types.js";
import { buildHttpRoute, type PublicGateway } from "../../runtime/kubernetes/routes/public.js";
import { spec } from "./fixtures.js";
import { subject } from "./subjects.js";

const ID = "0f6c1f9e-2b1d-4c3a-9e7f-0123456789ab";
const OTHER = "7a0d3c2e-1111-4c3a-9e7f-0123456789ab";
const KEY = Buffer.alloc(32, 7);
const HOST = parsePublicUrl("https://*.sbx.example.com");
const PATH = parsePublicUrl("https://gw.example.com/sandboxes");

describe("share tokens", () => {
  it("are a 256-bit HMAC of the sandbox id: the same for one id and key, different for another id or key", () => {
    expect(shareToken(KEY, ID)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(shareToken(KEY, ID)).toBe(shareToken(KEY, ID));
    expect(shareToken(KEY, OTHER)).not.toBe(shareToken(KEY, ID));
    expect(shareToken(Buffer.alloc(32, 8), ID)).not.toBe(shareToken(KEY, ID));
  });
  it("match only the sandbox's own token", () => {
    const t = shareToken(KEY, ID);
    expect(shareTokenMatches(KEY, ID, t)).toBe(true);
    for (const bad of [undefined, "", t.slice(1), `${t}x`, shareToken(KEY, OTHER), t.toUpperCase()])
      expect(shareTokenMatches(KEY, ID, bad)).toBe(false);
  });
});

describe("publicTarget: which sandbox port a forwarded request is for (publicRoute's inverse)", () => {
  it("round-trips publicRoute for host and path routing", () => {
    for (const base of [HOST, PATH]) {
      const u = new URL(publicRoute(base, ID, 8000).url);
      expect(publicTarget(base, u.host, `${u.pathname}x/y?q=1`)).toEqual({ id: ID, port: 8000 });
    }
  });
  const none: [string, typeof HOST, string, string][] = [
    ["another domain", HOST, `${ID}-8000.evil.example.com`, "/"],
    ["the bare domain", HOST, "sbx.example.com", "/"],
    ["a deeper name", HOST, `a.${ID}-8000.sbx.example.com`, "/"],
    ["no port", HOST, `${ID}.sbx.example.com`, "/"],
    ["port 0", HOST, `${ID}-0.sbx.example.com`, "/"],
    ["outside the prefix", PATH, "gw.example.com", `/other/${ID}/8000/`],
    ["no port on the path", PATH, "gw.example.com", `/sandboxes/${ID}`],
  ];
  for (const [what, base, host, uri] of none) it(`nothing for ${what}`, () => expect(publicTarget(base, host, uri)).toBeUndefined());
});

describe("the check the Gateway calls", () => {
  const host = `${ID}-8000.sbx.example.com`;
  const token = shareToken(KEY, ID);
  const table: [string, { host?: string; uri?: string; token?: string }, 200 | 401][] = [
    ["the header", { host, uri: "/", token }, 200],
    ["the query parameter", { host, uri: `/a?x=1&share_token=${token}` }, 200],
    ["no token", { host, uri: "/" }, 401],
    ["another sandbox's token", { host, uri: "/", token: shareToken(KEY, OTHER) }, 401],
    ["another sandbox's token in the query", { host, uri: `/?share_token=${shareToken(KEY, OTHER)}` }, 401],
    ["a wrong header beside a right query", { host, uri: `/?share_token=${token}`, token: "nope" }, 401],
    ["the right token for a host Hangar never made", { host: `${ID}-8000.evil.example.com`, uri: "/", token }, 401],
    ["no forwarded host", { uri: "/", token }, 401],
  ];
  for (const [what, h, want] of table) it(`${what}: ${want}`, () => expect(checkForwarded(KEY, HOST, h)).toBe(want));

  let server: Awaited<ReturnType<typeof listenShareTokenCheck>>;
  beforeAll(async () => {
    server = await listenShareTokenCheck(KEY, HOST, "127.0.0.1", 0);
  });
  afterAll(() => server.close());
  const get = (p: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: (server.address() as AddressInfo).port, path: p, headers }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });
  it("over HTTP: 200 with the token, 401 saying what is needed without it, 404 elsewhere", async () => {
    expect((await get("/share-token", { "x-forwarded-host": host, "x-forwarded-uri": "/", "x-sandbox-share-token": token })).status).toBe(
      200,
    );
    const denied = await get("/share-token", { "x-forwarded-host": host, "x-forwarded-uri": "/" });
    expect(denied).toMatchObject({ status: 401, body: expect.stringMatching(/X-Sandbox-Share-Token/) });
    expect((await get("/metrics", {})).status).toBe(404);
  });
});

describe("HTTPS endpoints: spec, placement, route, view", () => {
  const create = (services: unknown) =>
    toDomainSpec({ containers: [{ image: "python:3.11" }], services } as never, { maxLifetimeSeconds: 60 });
  const https = (auth: string) => [
    { port: 8000, name: "http", visibility: "VISIBILITY_PUBLIC", endpoint: { kind: "ENDPOINT_KIND_HTTPS", auth } },
  ];
  it("an HTTPS endpoint is a PUBLIC port marked https, and share-token when asked", () => {
    expect(create(https("ENDPOINT_AUTH_OPEN")).services).toEqual([
      { port: 8000, name: "http", protocol: "TCP", public: true, https: true },
    ]);
    expect(create(https("ENDPOINT_AUTH_SHARE_TOKEN")).services).toEqual([
      { port: 8000, name: "http", protocol: "TCP", public: true, https: true, shareToken: true },
    ]);
  });
  const runner: RunnerInfo = {
    runnerId: "r",
    runnerGroupId: "g",
    organizationId: "o",
    architectures: [],
    healthy: true,
    connectedAtMs: 0,
    maxCpuMillicores: 1,
    maxMemoryBytes: 1,
    availableCpuMillicores: 1,
    availableMemoryBytes: 1,
    runningSandboxes: 0,
    runtimeClasses: [],
    serviceDomain: "ns.svc.cluster.local",
  };
  const place = (auth: string, r: RunnerInfo) =>
    chooseRunner({ runnerIds: [], requests: {}, limits: {}, services: create(https(auth)).services }, [r]);
  it("placement: share-token needs the check (the SDK's reason, checked first), HTTPS needs an https:// URL", () => {
    expect(place("ENDPOINT_AUTH_SHARE_TOKEN", runner)).toMatchObject({
      reason: "CWSANDBOX_HTTPS_SHARE_TOKEN_NOT_SUPPORTED",
      refused: expect.stringMatching(/HANGAR_PUBLIC_AUTH_FILTER.*services\[0\]\.endpoint\.auth/),
    });
    expect(place("ENDPOINT_AUTH_SHARE_TOKEN", { ...runner, publicUrl: parsePublicUrl("http://127.0.0.1:18080") })).toMatchObject({
      reason: "CWSANDBOX_HTTPS_SHARE_TOKEN_NOT_SUPPORTED",
    });
    expect(place("ENDPOINT_AUTH_OPEN", { ...runner, publicUrl: parsePublicUrl("http://127.0.0.1:18080") })).toMatchObject({
      field: subject("spec.services[0].endpoint.kind", "sandbox.spec.services[0].endpoint.kind"),
      refused: expect.stringMatching(/HANGAR_PUBLIC_URL is http/),
    });
    expect(place("ENDPOINT_AUTH_OPEN", runner)).toMatchObject({
      field: subject("spec.services[0].endpoint.kind", "sandbox.spec.services[0].endpoint.kind"),
    });
    expect(place("ENDPOINT_AUTH_OPEN", { ...runner, publicUrl: HOST })).toHaveProperty("runner");
    expect(place("ENDPOINT_AUTH_SHARE_TOKEN", { ...runner, publicUrl: HOST, publicShareTokens: true })).toHaveProperty("runner");
  });
  const pod = { metadata: { name: `sbx-${ID}`, uid: "u-1" } };
  const gw: PublicGateway = {
    namespace: "gw",
    name: "public",
    url: HOST,
    authFilter: { group: "traefik.io", kind: "Middleware", name: "hangar-share-token" },
  };
  it("a share-token port's route names the operator's filter; an open one's does not", () => {
    const token = buildHttpRoute(ID, "ns", { port: 8000, protocol: "TCP", public: true, https: true, shareToken: true }, pod, gw);
    expect(token.spec.rules).toEqual([
      {
        matches: [{ path: { type: "PathPrefix", value: "/" } }],
        filters: [{ type: "ExtensionRef", extensionRef: { group: "traefik.io", kind: "Middleware", name: "hangar-share-token" } }],
        backendRefs: [{ name: `sbx-${ID}`, port: 8000 }],
      },
    ]);
    expect(buildHttpRoute(ID, "ns", { port: 8000, protocol: "TCP", public: true, https: true }, pod, gw).spec.rules).toEqual([
      { matches: [{ path: { type: "PathPrefix", value: "/" } }], backendRefs: [{ name: `sbx-${ID}`, port: 8000 }] },
    ]);
    // Path routing keeps its rewrite after the filter.
    const p = buildHttpRoute(ID, "ns", { port: 8000, protocol: "TCP", public: true, https: true, shareToken: true }, pod, {
      ...gw,
      url: PATH,
    });
    expect((p.spec.rules as { filters: { type: string }[] }[])[0]?.filters.map((f) => f.type)).toEqual(["ExtensionRef", "URLRewrite"]);
    expect(() =>
      buildHttpRoute(ID, "ns", { port: 8000, protocol: "TCP", public: true, https: true, shareToken: true }, pod, {
        ...gw,
        authFilter: undefined,
      } as never),
    ).toThrow(/HANGAR_PUBLIC_AUTH_FILTER/);
  });
  it("Get shows the endpoint (kind, auth, URL) while the sandbox serves, never the token", () => {
    const rec = (state: SandboxRecord["state"]): SandboxRecord => ({
      id: ID,
      tenant: "t",
      spec: { ...spec(), services: [{ port: 8000, name: "http", protocol: "TCP", public: true, https: true, shareToken: true }] },
      echo: { containers: [{}], services: https("ENDPOINT_AUTH_SHARE_TOKEN") },
      state,
      stateReason: "",
      createdAtMs: 0,
      runnerId: "r",
      runnerGroupId: "g",
      effectiveLifetimeSeconds: 60,
      imageNote: "",
      serviceUrls: { "8000/TCP": `https://${ID}-8000.sbx.example.com/` },
    });
    const url = `https://${ID}-8000.sbx.example.com/`;
    expect(toProtoSandbox(rec("RUNNING")).status?.services?.[0]).toEqual({
      port: 8000,
      name: "http",
      protocol: undefined,
      visibility: "VISIBILITY_PUBLIC",
      url,
      endpoint: { kind: "ENDPOINT_KIND_HTTPS", auth: "ENDPOINT_AUTH_SHARE_TOKEN", url },
    });
    expect(toProtoSandbox(rec("COMPLETED")).status?.services?.[0]).toEqual({
      port: 8000,
      name: "http",
      protocol: undefined,
      visibility: "VISIBILITY_PUBLIC",
      endpoint: { kind: "ENDPOINT_KIND_HTTPS", auth: "ENDPOINT_AUTH_SHARE_TOKEN" },
    });
    expect(toProtoSandbox(rec("RUNNING"))).not.toHaveProperty("endpoint_share_token");
  });
});

describe("configuration", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-st-"));
  const tool = path.join(dir, "tool");
  writeFileSync(tool, "");
  const key = path.join(dir, "key");
  writeFileSync(key, Buffer.alloc(32, 1));
  const kube = {
    HANGAR_DATA_DIR: dir,
    HANGAR_RUNTIME: "kubernetes",
    KUBECONFIG: tool,
    HANGAR_KUBE_NETINIT_IMAGE: "hangar:1",
    HANGAR_PUBLIC_GATEWAY: "gw/public/websecure",
    HANGAR_PUBLIC_URL: "https://*.sbx.example.com",
  };
  const all = {
    HANGAR_PUBLIC_AUTH_FILTER: "traefik.io/Middleware/hangar-share-token",
    HANGAR_SHARE_TOKEN_KEY_FILE: key,
    HANGAR_SHARE_TOKEN_CHECK_LISTEN: "0.0.0.0:9465",
  };
  it("reads the three settings together", () => {
    expect(loadConfig(kube, [], dir).kube.shareTokens).toBeUndefined();
    expect(loadConfig({ ...kube, ...all }, [], dir).kube.shareTokens).toEqual({
      authFilter: { group: "traefik.io", kind: "Middleware", name: "hangar-share-token" },
      keyFile: key,
      listen: { host: "0.0.0.0", port: 9465, text: "0.0.0.0:9465" },
    });
  });
  const bad: [string, Record<string, string>, RegExp][] = [
    [
      "one without the others",
      { ...kube, HANGAR_PUBLIC_AUTH_FILTER: all.HANGAR_PUBLIC_AUTH_FILTER },
      /go together.*HANGAR_SHARE_TOKEN_KEY_FILE, HANGAR_SHARE_TOKEN_CHECK_LISTEN not set/,
    ],
    [
      "a filter that is not group/Kind/name",
      { ...kube, ...all, HANGAR_PUBLIC_AUTH_FILTER: "Middleware/x" },
      /HANGAR_PUBLIC_AUTH_FILTER=Middleware\/x: expected <API group>\/<Kind>\/<name>/,
    ],
    [
      "a missing key file",
      { ...kube, ...all, HANGAR_SHARE_TOKEN_KEY_FILE: "/nonexistent/key" },
      /HANGAR_SHARE_TOKEN_KEY_FILE=\/nonexistent\/key: no such file/,
    ],
    [
      "a bad listen address",
      { ...kube, ...all, HANGAR_SHARE_TOKEN_CHECK_LISTEN: "9465" },
      /HANGAR_SHARE_TOKEN_CHECK_LISTEN=9465: expected host:port/,
    ],
    [
      "an http:// public URL",
      { ...kube, ...all, HANGAR_PUBLIC_URL: "http://127.0.0.1:18080" },
      /share-token endpoints are HTTPS endpoints, and HANGAR_PUBLIC_URL is not https/,
    ],
    ["path routing", { ...kube, ...all, HANGAR_PUBLIC_URL: "https://gw.example.com/sandboxes" }, /share-token endpoints need host routing/],
    [
      "no Gateway",
      { ...kube, ...all, HANGAR_PUBLIC_GATEWAY: "", HANGAR_PUBLIC_URL: "" },
      /HANGAR_PUBLIC_GATEWAY \/ HANGAR_PUBLIC_URL are not set/,
    ],
  ];
  for (const [what, env, re] of bad) it(`refuses ${what}, naming the setting`, () => expect(() => loadConfig(env, [], dir)).toThrow(re));
});
