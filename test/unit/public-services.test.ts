import { describe, expect, it } from "vitest";
import { toDomainSpec } from "../../api/spec.js";
import { toProtoSandbox } from "../../api/sandbox-view.js";
import { parsePublicGateway, parsePublicTls } from "../../cmd/config-kube-public.js";
import { chooseRunner } from "../../controller/placement.js";
import { parsePublicTlsAddress, parsePublicUrl, publicRoute, tlsAddress } from "../../core/public-url.js";
import type { RunnerInfo, SandboxRecord } from "../../core/types.js";
import {
  buildHttpRoute,
  buildTlsRoute,
  routeVerdict,
  type HttpRoute,
  type PublicGateway,
  type PublicTlsGateway,
} from "../../runtime/kubernetes/routes/public.js";
import { spec } from "./fixtures.js";
import { subject } from "./subjects.js";
import { wireText } from "../../api/wire-fields.js";

const ID = "0f6c1f9e-2b1d-4c3a-9e7f-0123456789ab";

describe("HANGAR_PUBLIC_URL", () => {
  const table: [string, string, { url: string; hostname?: string; pathPrefix: string }][] = [
    [
      "host routing",
      "https://*.sbx.example.com",
      { url: `https://${ID}-8080.sbx.example.com/`, hostname: `${ID}-8080.sbx.example.com`, pathPrefix: "/" },
    ],
    [
      "host routing on a port",
      "http://*.Sbx.Example.com:8443",
      { url: `http://${ID}-8080.sbx.example.com:8443/`, hostname: `${ID}-8080.sbx.example.com`, pathPrefix: "/" },
    ],
    ["path routing", "http://127.0.0.1:18080", { url: `http://127.0.0.1:18080/${ID}/8080/`, pathPrefix: `/${ID}/8080` }],
    [
      "path routing under a prefix",
      "https://gw.example.com/sandboxes/",
      { url: `https://gw.example.com/sandboxes/${ID}/8080/`, pathPrefix: `/sandboxes/${ID}/8080` },
    ],
  ];
  for (const [what, text, want] of table) {
    it(`${what}: ${text}`, () => expect(publicRoute(parsePublicUrl(text), ID, 8080)).toEqual(want));
  }
  const bad: [string, RegExp][] = [
    ["ftp://gw.example.com", /expected http\(s\)/],
    ["http://*.10.0.0.1", /not an address/],
    ["https://*.sbx.example.com/x", /takes no path/],
    ["http://gw_example.com", /not a DNS name/],
    ["http://gw.example.com:0", /not a port/],
    ["http://gw.example.com/a b", /segments of letters/],
    ["http://999.1.1.1", /not a DNS name or an IPv4 address/],
  ];
  for (const [text, re] of bad) it(`refuses ${text}`, () => expect(() => parsePublicUrl(text)).toThrow(re));

  it("goes with HANGAR_PUBLIC_GATEWAY, <namespace>/<name>[/<listener>]", () => {
    expect(parsePublicGateway("", "")).toBeUndefined();
    expect(parsePublicGateway("gw/public/web", "http://127.0.0.1:18080")).toMatchObject({
      namespace: "gw",
      name: "public",
      sectionName: "web",
    });
    expect(() => parsePublicGateway("gw/public", "")).toThrow(/HANGAR_PUBLIC_URL is not set/);
    expect(() => parsePublicGateway("", "http://x")).toThrow(/HANGAR_PUBLIC_GATEWAY is not set/);
    expect(() => parsePublicGateway("public", "http://x")).toThrow(/expected <namespace>\/<gateway name>/);
    expect(() => parsePublicGateway("gw/Public", "http://x")).toThrow(/expected <namespace>/);
    expect(() => parsePublicGateway("gw/public", "http://*.10.0.0.1")).toThrow(
      /HANGAR_PUBLIC_URL=http:\/\/\*\.10\.0\.0\.1: host routing needs a DNS domain/,
    );
  });
});

describe("PUBLIC services", () => {
  const create = (services: unknown) =>
    toDomainSpec({ containers: [{ image: "python:3.11" }], services } as never, { maxLifetimeSeconds: 60 });
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
  const gw: PublicGateway = { namespace: "gw", name: "public", url: parsePublicUrl("http://127.0.0.1:18080") };

  it("are TCP ports marked public", () => {
    expect(
      create([
        { port: 8080, name: "http", visibility: "VISIBILITY_PUBLIC" },
        { port: 9090, visibility: "VISIBILITY_PUBLIC" },
      ]).services,
    ).toEqual([
      { port: 8080, name: "http", protocol: "TCP", public: true },
      { port: 9090, protocol: "TCP", public: true },
    ]);
  });
  it("placement needs a runner with a Gateway, and names the field where none has one", () => {
    const s = { runnerIds: [], requests: {}, limits: {}, services: [{ port: 80, protocol: "TCP" as const, public: true as const }] };
    expect(chooseRunner(s, [runner])).toMatchObject({
      field: subject("spec.services[0].public", "sandbox.spec.services[0].visibility"),
      refused: expect.stringMatching(/PUBLIC services need a Gateway, and none is configured .*; PRIVATE services are offered$/),
    });
    const local = { ...runner, serviceDomain: undefined };
    expect(chooseRunner(s, [local])).toMatchObject({
      field: subject("spec.services[0].public", "sandbox.spec.services[0].visibility"),
      refused: expect.stringMatching(/\(HANGAR_PUBLIC_GATEWAY, HANGAR_PUBLIC_URL\)$/),
    });
    expect(chooseRunner(s, [runner, { ...runner, runnerId: "p", publicUrl: gw.url }])).toMatchObject({ runner: { runnerId: "p" } });
  });
  it("Get reports PUBLIC and the public URL while the sandbox serves", () => {
    const url = publicRoute(gw.url, "abc", 8080).url;
    const rec: SandboxRecord = {
      id: "abc",
      tenant: "t",
      spec: { ...spec(), services: [{ port: 8080, name: "http", protocol: "TCP", public: true }] },
      echo: { containers: [{}], services: [{ port: 8080, name: "http", visibility: "VISIBILITY_PUBLIC" }] },
      state: "RUNNING",
      stateReason: "",
      createdAtMs: 0,
      runnerId: "r",
      runnerGroupId: "g",
      effectiveLifetimeSeconds: 60,
      imageNote: "",
      serviceUrls: { "8080/TCP": url },
    };
    expect(toProtoSandbox(rec).status?.services).toEqual([
      { port: 8080, name: "http", protocol: undefined, visibility: "VISIBILITY_PUBLIC", url: "http://127.0.0.1:18080/abc/8080/" },
    ]);
  });

  const pod = { metadata: { name: `sbx-${ID}`, uid: "u-1" } };
  it("path routing: one HTTPRoute per port on the operator's Gateway, stripping the prefix, to the sandbox's Service, owned by the pod", () => {
    const route = buildHttpRoute(ID, "ns", { port: 8080, protocol: "TCP", public: true }, pod, { ...gw, sectionName: "web" });
    expect(route.metadata).toMatchObject({
      name: `sbx-${ID}-8080`,
      namespace: "ns",
      labels: { "hangar.dev/sandbox-id": ID },
      ownerReferences: [{ kind: "Pod", name: `sbx-${ID}`, uid: "u-1" }],
    });
    expect(route.spec).toEqual({
      parentRefs: [{ group: "gateway.networking.k8s.io", kind: "Gateway", namespace: "gw", name: "public", sectionName: "web" }],
      rules: [
        {
          matches: [{ path: { type: "PathPrefix", value: `/${ID}/8080` } }],
          filters: [{ type: "URLRewrite", urlRewrite: { path: { type: "ReplacePrefixMatch", replacePrefixMatch: "/" } } }],
          backendRefs: [{ name: `sbx-${ID}`, port: 8080 }],
        },
      ],
    });
  });
  it("host routing: the port's own host name, the path untouched", () => {
    const route = buildHttpRoute(ID, "ns", { port: 8080, protocol: "TCP", public: true }, pod, {
      ...gw,
      url: parsePublicUrl("https://*.sbx.example.com"),
    });
    expect(route.spec).toEqual({
      parentRefs: [{ group: "gateway.networking.k8s.io", kind: "Gateway", namespace: "gw", name: "public" }],
      hostnames: [`${ID}-8080.sbx.example.com`],
      rules: [{ matches: [{ path: { type: "PathPrefix", value: "/" } }], backendRefs: [{ name: `sbx-${ID}`, port: 8080 }] }],
    });
  });

  const withStatus = (
    conditions: { type: string; status: string; reason?: string; message?: string }[],
    parent = { name: "public", namespace: "gw" },
  ): HttpRoute => ({
    ...buildHttpRoute(ID, "ns", { port: 8080, protocol: "TCP", public: true }, pod, gw),
    status: { parents: [{ parentRef: parent, conditions }] },
  });
  const verdicts: [string, HttpRoute, ReturnType<typeof routeVerdict>][] = [
    [
      "no status yet",
      buildHttpRoute(ID, "ns", { port: 8080, protocol: "TCP", public: true }, pod, gw),
      { waiting: "the Gateway has not yet looked at it" },
    ],
    [
      "accepted with its backend resolved",
      withStatus([
        { type: "Accepted", status: "True" },
        { type: "ResolvedRefs", status: "True" },
      ]),
      "accepted",
    ],
    [
      "accepted, backend not yet resolved",
      withStatus([
        { type: "Accepted", status: "True" },
        { type: "ResolvedRefs", status: "Unknown" },
      ]),
      { waiting: "the Gateway has not yet accepted it" },
    ],
    [
      "refused by the listener",
      withStatus([{ type: "Accepted", status: "False", reason: "NotAllowedByListeners", message: "namespace not allowed" }]),
      { refused: "Accepted=False (NotAllowedByListeners): namespace not allowed" },
    ],
    // Seen on the test cluster: the Gateway looked before the Service's EndpointSlice existed.
    [
      "a backend not found yet (waited out)",
      withStatus([
        { type: "Accepted", status: "True" },
        { type: "ResolvedRefs", status: "False", reason: "BackendNotFound", message: "endpointslices not found" },
      ]),
      { waiting: "ResolvedRefs=False (BackendNotFound): endpointslices not found" },
    ],
    [
      "another Gateway's acceptance",
      withStatus(
        [
          { type: "Accepted", status: "True" },
          { type: "ResolvedRefs", status: "True" },
        ],
        { name: "other", namespace: "gw" },
      ),
      { waiting: "the Gateway has not yet looked at it" },
    ],
  ];
  for (const [what, route, want] of verdicts) it(`the Gateway's verdict: ${what}`, () => expect(routeVerdict(route, gw)).toEqual(want));
});

describe("TLS passthrough endpoints", () => {
  const create = (services: unknown) =>
    toDomainSpec({ containers: [{ image: "python:3.11" }], services } as never, { maxLifetimeSeconds: 60 });
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
  const tls: PublicTlsGateway = {
    namespace: "gw",
    name: "public",
    sectionName: "tls",
    address: parsePublicTlsAddress("*.localhost:18443"),
  };

  it("HANGAR_PUBLIC_TLS_ADDRESS: SNI names under a wildcard domain, port 443 unless given", () => {
    expect(parsePublicTlsAddress("*.TLS.example.com")).toEqual({ domain: "tls.example.com", port: 443 });
    expect(tlsAddress(parsePublicTlsAddress("*.localhost:18443"), ID, 8443)).toEqual({
      hostname: `${ID}-8443.localhost`,
      address: `${ID}-8443.localhost:18443`,
    });
    for (const [text, re] of [
      ["tls.example.com", /expected \*\.domain/],
      ["*.10.0.0.1", /not a DNS domain/],
      ["*.tls.example.com:0", /not a port/],
      ["*.a_b.com", /not a DNS domain/],
      ["https://*.x.com", /expected/],
    ] as const) {
      expect(() => parsePublicTlsAddress(text), text).toThrow(re);
    }
  });
  it("HANGAR_PUBLIC_TLS_GATEWAY and HANGAR_PUBLIC_TLS_ADDRESS go together", () => {
    expect(parsePublicTls("", "")).toBeUndefined();
    expect(parsePublicTls("gw/public/tls", "*.localhost:18443")).toEqual({
      namespace: "gw",
      name: "public",
      sectionName: "tls",
      address: { domain: "localhost", port: 18443 },
    });
    expect(() => parsePublicTls("gw/public", "")).toThrow(/HANGAR_PUBLIC_TLS_ADDRESS is not set/);
    expect(() => parsePublicTls("", "*.x.com")).toThrow(/HANGAR_PUBLIC_TLS_GATEWAY is not set/);
    expect(() => parsePublicTls("gw", "*.x.com")).toThrow(/expected <namespace>\/<gateway name>/);
    expect(() => parsePublicTls("gw/public", "x.com")).toThrow(/HANGAR_PUBLIC_TLS_ADDRESS=x.com: expected/);
  });
  it("are PUBLIC TCP ports marked tls", () => {
    expect(
      create([{ port: 8443, name: "tls", visibility: "VISIBILITY_PUBLIC", endpoint: { kind: "ENDPOINT_KIND_TLS_PASSTHROUGH" } }]).services,
    ).toEqual([{ port: 8443, name: "tls", protocol: "TCP", public: true, tls: true }]);
  });
  it("placement needs a runner with a TLS listener, and refuses with the SDK's reason where none has one", () => {
    const s = {
      runnerIds: [],
      requests: {},
      limits: {},
      services: [{ port: 8443, protocol: "TCP" as const, public: true as const, tls: true as const }],
    };
    const httpOnly = { ...runner, publicUrl: parsePublicUrl("http://127.0.0.1:18080") };
    const tlsRefused = chooseRunner(s, [httpOnly]);
    expect(tlsRefused).toMatchObject({
      reason: "CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED",
      field: subject("spec.services[0].endpoint.kind", "sandbox.spec.services[0].endpoint.kind"),
    });
    // The text names the subject; on the wire it reads as it always has.
    expect("refused" in tlsRefused && wireText(tlsRefused.refused, [tlsRefused.field ?? ""])).toMatch(
      /HANGAR_PUBLIC_TLS_GATEWAY, HANGAR_PUBLIC_TLS_ADDRESS; field sandbox\.spec\.services\[0\]\.endpoint\.kind/,
    );
    expect(chooseRunner(s, [{ ...runner, serviceDomain: undefined, publicTls: tls.address }])).toHaveProperty("reason");
    expect(chooseRunner(s, [httpOnly, { ...runner, runnerId: "t", publicTls: tls.address }])).toMatchObject({ runner: { runnerId: "t" } });
    // An HTTP port beside it still needs the HTTP Gateway.
    const both = { ...s, services: [...s.services, { port: 8080, protocol: "TCP" as const, public: true as const }] };
    expect(chooseRunner(both, [{ ...runner, publicTls: tls.address }])).toMatchObject({
      field: subject("spec.services[1].public", "sandbox.spec.services[1].visibility"),
    });
    expect(chooseRunner(both, [{ ...httpOnly, publicTls: tls.address }])).toHaveProperty("runner");
  });
  it("Get reports the port's address as a TLS passthrough endpoint, not a URL, and none once it ends", () => {
    const rec = (state: SandboxRecord["state"]): SandboxRecord => ({
      id: ID,
      tenant: "t",
      spec: { ...spec(), services: [{ port: 8443, name: "tls", protocol: "TCP", public: true, tls: true }] },
      echo: {
        containers: [{}],
        services: [{ port: 8443, name: "tls", visibility: "VISIBILITY_PUBLIC", endpoint: { kind: "ENDPOINT_KIND_TLS_PASSTHROUGH" } }],
      },
      state,
      stateReason: "",
      createdAtMs: 0,
      runnerId: "r",
      runnerGroupId: "g",
      effectiveLifetimeSeconds: 60,
      imageNote: "",
      serviceUrls: { "8443/TCP": tlsAddress(tls.address, ID, 8443).address },
    });
    expect(toProtoSandbox(rec("CREATING")).status?.services).toEqual([
      {
        port: 8443,
        name: "tls",
        protocol: undefined,
        visibility: "VISIBILITY_PUBLIC",
        endpoint: { kind: "ENDPOINT_KIND_TLS_PASSTHROUGH", address: `${ID}-8443.localhost:18443` },
      },
    ]);
    expect(toProtoSandbox(rec("COMPLETED")).status?.services).toEqual([
      {
        port: 8443,
        name: "tls",
        protocol: undefined,
        visibility: "VISIBILITY_PUBLIC",
        endpoint: { kind: "ENDPOINT_KIND_TLS_PASSTHROUGH" },
      },
    ]);
  });
  it("a TLSRoute per port: the port's SNI name only, to that port of the sandbox's Service, owned by the pod", () => {
    const pod = { metadata: { name: `sbx-${ID}`, uid: "u-1" } };
    const route = buildTlsRoute(ID, "ns", { port: 8443, protocol: "TCP", public: true, tls: true }, pod, tls);
    expect(route.kind).toBe("TLSRoute");
    expect(route.metadata).toMatchObject({
      name: `sbx-${ID}-8443`,
      namespace: "ns",
      labels: { "hangar.dev/sandbox-id": ID },
      ownerReferences: [{ kind: "Pod", name: `sbx-${ID}`, uid: "u-1" }],
    });
    expect(route.spec).toEqual({
      parentRefs: [{ group: "gateway.networking.k8s.io", kind: "Gateway", namespace: "gw", name: "public", sectionName: "tls" }],
      hostnames: [`${ID}-8443.localhost`],
      rules: [{ backendRefs: [{ name: `sbx-${ID}`, port: 8443 }] }],
    });
  });
});
