import { describe, expect, it } from "vitest";
import { toDomainSpec } from "../../api/spec.js";
import { toProtoSandbox } from "../../api/sandbox-view.js";
import { chooseRunner } from "../../controller/placement.js";
import type { RunnerInfo, SandboxRecord, SandboxSpec } from "../../core/types.js";
import { DEFAULT_EGRESS_CONFIG, netinitPolicy } from "../../runtime/kubernetes/egress/policy.js";
import { buildService, buildServicePolicy } from "../../runtime/kubernetes/routes/services.js";
import { spec } from "./fixtures.js";
import { effectiveGrants } from "../../core/egress.js";
import { subject } from "./subjects.js";

/** netinit's policy for a spec under a deployment default: admission decides the grants (record.effectiveEgress), netinitPolicy takes them. */
const netinitPolicyOf = (
  spec: Pick<SandboxSpec, "denyEgress" | "egress" | "services" | "denyIngress">,
  defaultDenyEgress: boolean,
  ...rest: Parameters<typeof netinitPolicy> extends [unknown, unknown, ...infer R] ? R : never
) => netinitPolicy(spec, effectiveGrants(spec, defaultDenyEgress), ...rest);

const create = (services: unknown) =>
  toDomainSpec({ containers: [{ image: "python:3.11" }], services } as never, { maxLifetimeSeconds: 60 });

describe("PRIVATE services", () => {
  it("become ports; an unset visibility or protocol is PRIVATE over TCP", () => {
    expect(
      create([
        { port: 8080, name: "http", visibility: "VISIBILITY_PRIVATE" },
        { port: 53, protocol: "SERVICE_PROTOCOL_UDP" },
      ]).services,
    ).toEqual([
      { port: 8080, name: "http", protocol: "TCP" },
      { port: 53, protocol: "UDP" },
    ]);
  });
  const bad: [string, unknown, RegExp, string][] = [
    [
      "PUBLIC beside PRIVATE",
      [{ port: 80, visibility: "VISIBILITY_PUBLIC" }, { port: 81 }],
      /PUBLIC and PRIVATE services on one sandbox \(field sandbox\.spec\.services\[0\]\.visibility\)/,
      "UNIMPLEMENTED",
    ],
    [
      "PUBLIC over UDP",
      [{ port: 80, visibility: "VISIBILITY_PUBLIC", protocol: "SERVICE_PROTOCOL_UDP" }],
      /services\[0\]\.protocol: a PUBLIC service is HTTP over TCP, not UDP/,
      "INVALID_ARGUMENT",
    ],
    [
      "an HTTPS endpoint without auth",
      [{ port: 80, visibility: "VISIBILITY_PUBLIC", endpoint: { kind: "ENDPOINT_KIND_HTTPS" } }],
      /services\[0\]\.endpoint\.auth: required for an HTTPS endpoint/,
      "INVALID_ARGUMENT",
    ],
    [
      "an endpoint of no kind",
      [{ port: 80, visibility: "VISIBILITY_PUBLIC", endpoint: { auth: "ENDPOINT_AUTH_OPEN" } }],
      /services\[0\]\.endpoint\.kind: an endpoint is ENDPOINT_KIND_HTTPS or ENDPOINT_KIND_TLS_PASSTHROUGH/,
      "INVALID_ARGUMENT",
    ],
    [
      "an HTTPS endpoint on a PRIVATE port",
      [{ port: 80, endpoint: { kind: "ENDPOINT_KIND_HTTPS", auth: "ENDPOINT_AUTH_SHARE_TOKEN" } }],
      /services\[0\]\.visibility: an HTTPS endpoint is PUBLIC/,
      "INVALID_ARGUMENT",
    ],
    [
      "an HTTPS request timeout out of range",
      [
        {
          port: 80,
          visibility: "VISIBILITY_PUBLIC",
          endpoint: { kind: "ENDPOINT_KIND_HTTPS", auth: "ENDPOINT_AUTH_OPEN", request_timeout_seconds: 5 },
        },
      ],
      /services\[0\]\.endpoint\.request_timeout_seconds: 0 \(the Gateway's own\) or 15 to 900/,
      "INVALID_ARGUMENT",
    ],
    [
      "an HTTPS request timeout (not honoured)",
      [
        {
          port: 80,
          visibility: "VISIBILITY_PUBLIC",
          endpoint: { kind: "ENDPOINT_KIND_HTTPS", auth: "ENDPOINT_AUTH_OPEN", request_timeout_seconds: 60 },
        },
      ],
      /per-endpoint request timeouts \(field sandbox\.spec\.services\[0\]\.endpoint\.request_timeout_seconds\)/,
      "UNIMPLEMENTED",
    ],
    [
      "an HTTPS endpoint over UDP",
      [
        {
          port: 80,
          visibility: "VISIBILITY_PUBLIC",
          protocol: "SERVICE_PROTOCOL_UDP",
          endpoint: { kind: "ENDPOINT_KIND_HTTPS", auth: "ENDPOINT_AUTH_OPEN" },
        },
      ],
      /services\[0\]\.protocol: a PUBLIC service is HTTP over TCP, not UDP/,
      "INVALID_ARGUMENT",
    ],
    ["CUSTOM", [{ port: 80, visibility: "VISIBILITY_CUSTOM" }], /services\[0\]\.visibility/, "UNIMPLEMENTED"],
    [
      "TLS passthrough on a PRIVATE port",
      [{ port: 443, endpoint: { kind: "ENDPOINT_KIND_TLS_PASSTHROUGH" } }],
      /services\[0\]\.visibility: a TLS passthrough endpoint is PUBLIC/,
      "INVALID_ARGUMENT",
    ],
    [
      "TLS passthrough with auth",
      [{ port: 443, visibility: "VISIBILITY_PUBLIC", endpoint: { kind: "ENDPOINT_KIND_TLS_PASSTHROUGH", auth: "ENDPOINT_AUTH_OPEN" } }],
      /services\[0\]\.endpoint\.auth: a TLS passthrough endpoint takes no auth/,
      "INVALID_ARGUMENT",
    ],
    [
      "TLS passthrough with a request timeout",
      [{ port: 443, visibility: "VISIBILITY_PUBLIC", endpoint: { kind: "ENDPOINT_KIND_TLS_PASSTHROUGH", request_timeout_seconds: 30 } }],
      /services\[0\]\.endpoint\.request_timeout_seconds/,
      "INVALID_ARGUMENT",
    ],
    [
      "TLS passthrough over UDP",
      [
        {
          port: 443,
          visibility: "VISIBILITY_PUBLIC",
          protocol: "SERVICE_PROTOCOL_UDP",
          endpoint: { kind: "ENDPOINT_KIND_TLS_PASSTHROUGH" },
        },
      ],
      /services\[0\]\.protocol: a PUBLIC service is TLS over TCP, not UDP/,
      "INVALID_ARGUMENT",
    ],
    ["port 0", [{ port: 0 }], /services\[0\]\.port: must be a port from 1 to 65535/, "INVALID_ARGUMENT"],
    ["a port twice", [{ port: 80 }, { port: 80 }], /services\[1\]\.port: port 80\/TCP is named twice/, "INVALID_ARGUMENT"],
    ["a bad name", [{ port: 80, name: "Web_UI" }], /services\[0\]\.name/, "INVALID_ARGUMENT"],
    ["too many", Array.from({ length: 17 }, (_, i) => ({ port: 1000 + i })), /at most 16 services/, "INVALID_ARGUMENT"],
  ];
  for (const [what, services, re, code] of bad) {
    it(`refuses ${what}, naming the field`, () => {
      let err: unknown;
      try {
        create(services);
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ code, message: expect.stringMatching(re) });
    });
  }
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
  };
  it("placement needs a runner that makes Services (not the local runtime)", () => {
    const s = { runnerIds: [], requests: {}, limits: {}, services: [{ port: 80, protocol: "TCP" as const }] };
    expect(chooseRunner(s, [runner])).toMatchObject({ field: subject("spec.services", "sandbox.spec.services") });
    expect(chooseRunner(s, [{ ...runner, serviceDomain: "ns.svc.cluster.local" }])).toHaveProperty("runner");
  });
  it("Get shows each port's address while the sandbox can serve, and none once it ends", () => {
    const rec = (state: SandboxRecord["state"]): SandboxRecord => ({
      id: "abc",
      tenant: "t",
      spec: { ...spec(), services: [{ port: 8080, name: "http", protocol: "TCP" }] },
      echo: { containers: [{}], services: [{ port: 8080, name: "http", visibility: "VISIBILITY_UNSPECIFIED" }] },
      state,
      stateReason: "",
      createdAtMs: 0,
      runnerId: "r",
      runnerGroupId: "g",
      effectiveLifetimeSeconds: 60,
      imageNote: "",
      serviceUrls: { "8080/TCP": "sbx-abc.ns.svc.cluster.local:8080" },
    });
    expect(toProtoSandbox(rec("RUNNING")).status?.services).toEqual([
      { port: 8080, name: "http", protocol: undefined, visibility: "VISIBILITY_PRIVATE", url: "sbx-abc.ns.svc.cluster.local:8080" },
    ]);
    expect(toProtoSandbox(rec("COMPLETED")).status?.services?.[0]).not.toHaveProperty("url");
  });
  it("a Service and a NetworkPolicy for exactly those ports, owned by the pod; the sandbox's own rules accept only them inbound", () => {
    const pod = { metadata: { name: "sbx-abc", uid: "u-1" } };
    const ports = [
      { port: 8080, name: "http", protocol: "TCP" as const },
      { port: 53, protocol: "UDP" as const },
    ];
    const svc = buildService("abc", "ns", ports, pod);
    expect(svc.metadata).toMatchObject({ name: "sbx-abc", ownerReferences: [{ kind: "Pod", name: "sbx-abc", uid: "u-1" }] });
    expect(svc.spec).toEqual({
      type: "ClusterIP",
      selector: { "hangar.dev/sandbox-id": "abc" },
      ports: [
        { name: "http", port: 8080, targetPort: 8080, protocol: "TCP" },
        { name: "udp-53", port: 53, targetPort: 53, protocol: "UDP" },
      ],
    });
    expect(buildServicePolicy("abc", "ns", ports, pod).spec?.ingress).toEqual([
      {
        ports: [
          { port: 8080, protocol: "TCP" },
          { port: 53, protocol: "UDP" },
        ],
      },
    ]);
    expect(netinitPolicyOf({ ...spec(), services: ports }, true, DEFAULT_EGRESS_CONFIG, []).inbound).toEqual([
      { protocol: "tcp", port: 8080 },
      { protocol: "udp", port: 53 },
    ]);
    expect(netinitPolicyOf(spec(), true, DEFAULT_EGRESS_CONFIG, [])).not.toHaveProperty("inbound");
    // The exec agent's direct link (ADR 0022): its port range, TCP only, beside the services.
    expect(
      netinitPolicyOf({ ...spec(), services: ports }, true, DEFAULT_EGRESS_CONFIG, [], undefined, { first: 47960, count: 16 }).inbound,
    ).toEqual([
      { protocol: "tcp", port: 8080 },
      { protocol: "udp", port: 53 },
      { protocol: "tcp", port: 47960, endPort: 47975 },
    ]);
    expect(netinitPolicyOf(spec(), true, DEFAULT_EGRESS_CONFIG, [], undefined, { first: 50000, count: 1 }).inbound).toEqual([
      { protocol: "tcp", port: 50000 },
    ]);
  });
});

describe("runtime_class_selection", () => {
  const create = (sel: string, rc = "", mapped: Record<string, string> = { CPU_DEFAULT: "", CPU_NESTED_VIRT: "gvisor" }) =>
    toDomainSpec({ containers: [{ image: "python:3.11" }], runtime_class_selection: sel, runtime_class: rc } as never, {
      maxLifetimeSeconds: 60,
      runtimeClassSelection: mapped,
    });
  it("a mapped category is the RuntimeClass it maps to, or the node's default", () => {
    expect(create("RUNTIME_CLASS_CPU_NESTED_VIRT").runtimeClass).toBe("gvisor");
    expect(create("RUNTIME_CLASS_CPU_DEFAULT").runtimeClass).toBeUndefined();
    expect(create("RUNTIME_CLASS_UNSPECIFIED", "kata").runtimeClass).toBe("kata");
  });
  it("an unmapped category, or both fields, is refused naming the field", () => {
    expect(() => create("RUNTIME_CLASS_GPU_DEFAULT")).toThrow(
      /runtime_class_selection: GPU_DEFAULT is not mapped on this Hangar \(mapped: CPU_DEFAULT, CPU_NESTED_VIRT/,
    );
    expect(() => create("RUNTIME_CLASS_CPU_DEFAULT", "", {})).toThrow(/mapped: none/);
    expect(() => create("RUNTIME_CLASS_CPU_NESTED_VIRT", "kata")).toThrow(
      /runtime_class_selection: set runtime_class or runtime_class_selection, not both/,
    );
  });
});

describe("deny_ingress", () => {
  const make = (deny: boolean | undefined, services: unknown[]) =>
    toDomainSpec({ containers: [{ image: "python:3.11" }], services, network: { deny_ingress: deny } } as never, {
      maxLifetimeSeconds: 60,
    });
  const cfg = { ...DEFAULT_EGRESS_CONFIG, enforcement: "netinit" as const };
  it("true: no inbound port but Hangar's own exec link", () => {
    const p = netinitPolicyOf(make(true, []), true, cfg, [], undefined, { first: 7000, count: 2 });
    expect(p.inbound).toEqual([{ protocol: "tcp", port: 7000, endPort: 7001 }]);
  });
  it("false or unset: inbound on the services' ports only", () => {
    for (const deny of [false, undefined]) {
      expect(netinitPolicyOf(make(deny, [{ port: 8080 }]), true, cfg, []).inbound).toEqual([{ protocol: "tcp", port: 8080 }]);
      expect(netinitPolicyOf(make(deny, []), true, cfg, []).inbound).toBeUndefined();
    }
  });
  it("true beside services is refused naming the field", () => {
    expect(() => make(true, [{ port: 8080 }])).toThrow(
      /network\.deny_ingress: true refuses every inbound connection, but this sandbox declares services/,
    );
  });
  it("a spec's denyIngress is what netinit reads (the stored field is not inert)", () => {
    const withServices = { ...make(undefined, [{ port: 8080 }]), denyIngress: true };
    expect(netinitPolicyOf(withServices, true, cfg, []).inbound).toBeUndefined();
  });
});
