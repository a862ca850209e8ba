// Egress grants end to end in pure functions: CIDR parsing (core/cidr.ts), NetworkOptions.egress ->
// grants (api/egress-rules.ts), what a runner refuses (controller/placement.ts), the policy the
// init container loads (runtime/kubernetes/egress-policy.ts) and the pod it goes into.
import { describe, expect, it } from "vitest";
import { chooseRunner, unreachableGrant } from "../../controller/placement.js";
import { contains, formatCidr, parseCidr } from "../../core/cidr.js";
import { effectiveGrants } from "../../core/egress.js";
import { HangarError } from "../../core/errors.js";
import type { EgressGrant, RunnerInfo, SandboxSpec } from "../../core/types.js";
import { toDomainSpec } from "../../api/spec.js";
import { DEFAULT_EGRESS_CONFIG, DEFAULT_PRIVATE_CIDRS, MAX_NODE_ADDRESSES, netinitPolicy } from "../../runtime/kubernetes/egress/policy.js";
import { AGENT_VOLUME, buildPod, NETINIT_CONTAINER } from "../../runtime/kubernetes/pod/spec.js";
import { observePod } from "../../runtime/kubernetes/pod/state.js";
import { runnerInfo, spec } from "./fixtures.js";
import { subject } from "./subjects.js";

/** netinit's policy for a spec under a deployment default: admission decides the grants (record.effectiveEgress), netinitPolicy takes them. */
const netinitPolicyOf = (
  spec: Pick<SandboxSpec, "denyEgress" | "egress" | "services" | "denyIngress">,
  defaultDenyEgress: boolean,
  ...rest: Parameters<typeof netinitPolicy> extends [unknown, unknown, ...infer R] ? R : never
) => netinitPolicy(spec, effectiveGrants(spec, defaultDenyEgress), ...rest);

describe("CIDRs", () => {
  const cases: [string, string | undefined][] = [
    ["10.1.2.3/8", "10.0.0.0/8"],
    ["10.1.2.3", "10.1.2.3/32"],
    ["0.0.0.0/0", "0.0.0.0/0"],
    ["fd00::1/8", "fd00::/8"],
    ["2001:db8::ffff:1/128", "2001:db8::ffff:1/128"],
    ["::ffff:10.0.0.1/128", "::ffff:a00:1/128"],
    ["::/0", "::/0"],
    ["10.0.0.0/33", undefined],
    ["fd00::/129", undefined],
    ["10.0.0/8", undefined],
    ["example.com/32", undefined],
    ["", undefined],
  ];
  for (const [text, want] of cases)
    it(`${JSON.stringify(text)} -> ${want}`, () => {
      const c = parseCidr(text);
      expect(c ? formatCidr(c) : undefined).toBe(want);
    });
  it("containment is by family and prefix", () => {
    const p = (s: string) => parseCidr(s) ?? expect.fail(s);
    expect(contains(p("10.0.0.0/8"), p("10.9.0.0/16"))).toBe(true);
    expect(contains(p("10.9.0.0/16"), p("10.0.0.0/8"))).toBe(false);
    expect(contains(p("10.0.0.0/8"), p("11.0.0.0/16"))).toBe(false);
    expect(contains(p("0.0.0.0/0"), p("fd00::/8"))).toBe(false);
    expect(contains(p("fc00::/7"), p("fd12:3456::1"))).toBe(true);
  });
});

const create = (network: object) =>
  toDomainSpec({ containers: [{ image: "python:3.11" }], network } as never, { maxLifetimeSeconds: 86400 });
const violations = (network: object): string[] => {
  try {
    create(network);
  } catch (e) {
    if (e instanceof HangarError) return e.violations.map((v) => `${v.field}: ${v.description}`);
    throw e;
  }
  return [];
};

describe("NetworkOptions.egress -> grants", () => {
  it("ranges with exceptions, any, and port ranges become grants", () => {
    const s = create({
      egress: [
        { destination: "cidr", cidr: { cidr: "198.18.0.0/15", except: ["198.18.9.0/24"] } },
        { destination: "any", any: true, ports: [{ port: 443 }, { protocol: "udp", port: 5000, end_port: 5010 }] },
      ],
    });
    expect(s.egress).toEqual<EgressGrant[]>([
      { to: { cidr: "198.18.0.0/15", except: ["198.18.9.0/24"] }, ports: [] },
      {
        to: "any",
        ports: [
          { protocol: "TCP", port: 443 },
          { protocol: "UDP", port: 5000, endPort: 5010 },
        ],
      },
    ]);
  });
  it("hostnames, exact or a wildcard, become hostname grants", () => {
    expect(
      create({
        egress: [
          { destination: "https_hostname", https_hostname: "PyPI.org" },
          { destination: "https_hostname", https_hostname: "*.pythonhosted.org", ports: [{ port: 443 }] },
        ],
      }).egress,
    ).toEqual([
      { to: { hostname: "pypi.org" }, ports: [] },
      { to: { hostname: "*.pythonhosted.org" }, ports: [] },
    ]);
  });
  it("no rules: no grants (deny_egress alone decides)", () => {
    expect(create({ deny_egress: false }).egress).toBeUndefined();
  });
  const bad: [string, object, RegExp][] = [
    [
      "a hostname that is none",
      { egress: [{ destination: "https_hostname", https_hostname: "pypi" }] },
      /egress\[0\]\.https_hostname: "pypi" is not a hostname or a "\*\." wildcard of one \(dns_name in the SDK\)/,
    ],
    [
      "a hostname on another port",
      { egress: [{ destination: "https_hostname", https_hostname: "pypi.org", ports: [{ port: 80 }] }] },
      /egress\[0\]\.ports: hostname grants are for HTTPS: TCP 443 only/,
    ],
    [
      "a tenant",
      { egress: [{ destination: "tenant", tenant: "TENANT_SCOPE_SAME_USER" }] },
      /egress\[0\]\.tenant: .*no inbound connections/,
    ],
    ["a selector", { egress: [{ destination: "selector", selector: { pod_labels: { a: "b" } } }] }, /egress\[0\]\.selector: /],
    ["no destination", { egress: [{}] }, /egress\[0\]: names no destination/],
    [
      "not a CIDR",
      { egress: [{ destination: "cidr", cidr: { cidr: "10.0.0.0/40" } }] },
      /egress\[0\]\.cidr\.cidr: "10\.0\.0\.0\/40" is not an IPv4 or IPv6 CIDR/,
    ],
    [
      "an exception outside its range",
      { egress: [{ destination: "cidr", cidr: { cidr: "10.1.0.0/16", except: ["10.2.0.0/24"] } }] },
      /egress\[0\]\.cidr\.except\[0\]: "10\.2\.0\.0\/24" must be a CIDR inside 10\.1\.0\.0\/16/,
    ],
    ["port 0", { egress: [{ destination: "any", any: true, ports: [{ port: 0 }] }] }, /ports\[0\]\.port: must be between 1 and 65535/],
    [
      "an end before the start",
      { egress: [{ destination: "any", any: true, ports: [{ port: 90, end_port: 80 }] }] },
      /ports\[0\]\.end_port: must be between port \(90\) and 65535/,
    ],
    [
      "ICMP",
      { egress: [{ destination: "any", any: true, ports: [{ protocol: "ICMP", port: 1 }] }] },
      /ports\[0\]\.protocol: must be TCP, UDP or SCTP/,
    ],
    [
      "deny_egress with rules",
      { deny_egress: true, egress: [{ destination: "any", any: true }] },
      /network\.deny_egress: cannot be combined with egress rules/,
    ],
    [
      "too many rules",
      { egress: Array.from({ length: 33 }, () => ({ destination: "any", any: true })) },
      /network\.egress: at most 32 egress rules/,
    ],
  ];
  for (const [name, network, want] of bad)
    it(`refuses ${name}, naming the field`, () => expect(violations(network).join("\n")).toMatch(want));
});

const runner = (runnerId: string, egress?: RunnerInfo["egress"]): RunnerInfo => runnerInfo({ runnerId, ...(egress ? { egress } : {}) });
const kube = runner("kube", { privateCidrs: DEFAULT_PRIVATE_CIDRS, grantableCidrs: ["10.50.0.0/16"], hostnames: false });
const grant = (cidr: string): EgressGrant => ({ to: { cidr, except: [] }, ports: [] });

describe("where grants can be honoured", () => {
  it("a runtime that enforces no rules refuses them, naming the field", () => {
    const p = chooseRunner({ runnerIds: [], requests: {}, limits: {}, egress: [grant("198.18.0.0/15")] }, [runner("local")]);
    expect(p).toEqual({
      refused: expect.stringMatching(/egress rules are not enforced by local/),
      field: subject("spec.egress", "sandbox.spec.network.egress"),
    });
  });
  it("hostname grants need the egress proxy, naming the rule", () => {
    const p = chooseRunner(
      { runnerIds: [], requests: {}, limits: {}, egress: [grant("198.18.0.0/15"), { to: { hostname: "pypi.org" }, ports: [] }] },
      [kube],
    );
    expect(p).toEqual({
      refused: expect.stringMatching(/hostname egress grants \(dns_name in the SDK\) need Hangar's egress proxy/),
      field: subject("spec.egress[1].hostname", "sandbox.spec.network.egress[1].https_hostname"),
    });
    // Locally too (no egress rules at all): the SDK's own suite skips on a refusal naming dns_name.
    expect(
      chooseRunner({ runnerIds: [], requests: {}, limits: {}, egress: [{ to: { hostname: "pypi.org" }, ports: [] }] }, [runner("local")]),
    ).toMatchObject({
      refused: expect.stringMatching(/dns_name/),
      field: subject("spec.egress[0].hostname", "sandbox.spec.network.egress[0].https_hostname"),
    });
    const withProxy = runner("kube", { ...(kube.egress ?? expect.fail()), hostnames: true });
    expect(
      chooseRunner({ runnerIds: [], requests: {}, limits: {}, egress: [{ to: { hostname: "pypi.org" }, ports: [] }] }, [withProxy]),
    ).toEqual({ runner: withProxy });
  });
  it("a runtime class without network refuses egress of any kind, naming what was asked", () => {
    const g = { ...runner("kube", kube.egress), runtimeClasses: ["gvisor"], gvisorRuntimeClasses: ["gvisor"] };
    expect(chooseRunner({ runnerIds: [], requests: {}, limits: {}, runtimeClass: "gvisor", denyEgress: false }, [g])).toEqual({
      refused: expect.stringMatching(/runtime class "gvisor" runs sandboxes with no network at all/),
      field: subject("spec.denyEgress", "sandbox.spec.network.deny_egress"),
    });
    expect(
      chooseRunner({ runnerIds: [], requests: {}, limits: {}, runtimeClass: "gvisor", egress: [grant("198.18.0.0/15")] }, [g]),
    ).toMatchObject({ field: subject("spec.egress", "sandbox.spec.network.egress") });
    expect(chooseRunner({ runnerIds: [], requests: {}, limits: {}, runtimeClass: "gvisor" }, [g])).toEqual({ runner: g });
  });
  it("a runner that enforces them is chosen over one that does not", () => {
    const p = chooseRunner({ runnerIds: [], requests: {}, limits: {}, egress: [grant("198.18.0.0/15")] }, [runner("local"), kube]);
    expect(p).toEqual({ runner: kube });
  });
  const cases: [string, string | undefined][] = [
    ["198.18.0.0/15", undefined], // public
    ["0.0.0.0/0", undefined], // partly internal: honoured for the rest
    ["10.50.1.0/24", undefined], // opened by the operator
    ["10.0.0.0/8", undefined], // overlaps the opened range
    ["10.1.2.3/32", subject("spec.egress[0].cidr", "sandbox.spec.network.egress[0].cidr")],
    ["192.168.0.0/16", subject("spec.egress[0].cidr", "sandbox.spec.network.egress[0].cidr")],
    ["fd00::1", subject("spec.egress[0].cidr", "sandbox.spec.network.egress[0].cidr")],
  ];
  for (const [cidr, field] of cases)
    it(`a grant of ${cidr}: ${field ? "refused" : "honoured"}`, () => {
      const r = unreachableGrant([grant(cidr)], kube.egress ?? expect.fail());
      expect(r?.field).toBe(field);
      if (r) expect(r.refused).toMatch(/never reach; ranges opened to grants: 10\.50\.0\.0\/16/);
    });
});

describe("the netinit policy", () => {
  const cfg = {
    ...DEFAULT_EGRESS_CONFIG,
    enforcement: "netinit" as const,
    netinitImage: "hangar:1",
    grantableCidrs: ["10.50.0.0/16"],
    denyCidrs: ["192.0.2.0/24"],
  };
  it("default: no grants, no DNS; never holds loopback, metadata, the operator's ranges and the nodes", () => {
    const p = netinitPolicyOf({}, true, cfg, ["192.0.2.2", "fd00::2"]);
    expect(p).toMatchObject({ grants: [], dns: false, discover: true, private: DEFAULT_PRIVATE_CIDRS, grantable: ["10.50.0.0/16"] });
    expect(p.never).toEqual(
      expect.arrayContaining(["127.0.0.0/8", "169.254.0.0/16", "::1/128", "192.0.2.0/24", "192.0.2.2/32", "fd00::2/128"]),
    );
  });
  it("deny_egress=false (or the default allowing it) is any, on both families, with DNS", () => {
    expect(netinitPolicyOf({ denyEgress: false }, true, cfg, []).grants).toEqual([{ cidr: "0.0.0.0/0" }, { cidr: "::/0" }]);
    expect(netinitPolicyOf({}, false, cfg, []).dns).toBe(true);
  });
  it("rules replace any; ports and exceptions carry over", () => {
    const p = netinitPolicyOf(
      { egress: [{ to: { cidr: "198.18.0.0/15", except: ["198.18.9.0/24"] }, ports: [{ protocol: "TCP", port: 80, endPort: 81 }] }] },
      true,
      cfg,
      [],
    );
    expect(p.grants).toEqual([{ cidr: "198.18.0.0/15", except: ["198.18.9.0/24"], ports: [{ protocol: "tcp", port: 80, endPort: 81 }] }]);
  });
  it("hostname grants: the proxy is reachable and nothing else is granted for them", () => {
    const p = netinitPolicyOf({ egress: [{ to: { hostname: "pypi.org" }, ports: [] }] }, true, cfg, [], "10.88.7.1:3128");
    expect(p).toMatchObject({ grants: [], dns: false, proxy: "10.88.7.1:3128" });
    expect(netinitPolicyOf({ egress: [grant("198.18.0.0/15")] }, true, cfg, [], "10.88.7.1:3128").proxy).toBeUndefined();
  });
  it("too many node addresses are left to the operator's ranges (each is a rule on every new connection)", () => {
    const many = Array.from({ length: MAX_NODE_ADDRESSES + 1 }, (_, i) => `192.0.2.${i}`);
    expect(netinitPolicyOf({}, true, cfg, many).never).not.toContain("192.0.2.0/32");
  });
  it("the echo: rules as given, any when allowed, none when denied", () => {
    expect(effectiveGrants({}, true)).toEqual([]);
    expect(effectiveGrants({ denyEgress: false }, true)).toEqual([{ to: "any", ports: [] }]);
    expect(effectiveGrants({ egress: [grant("198.18.0.0/15")] }, true)).toEqual([grant("198.18.0.0/15")]);
  });
});

describe("the sandbox pod with netinit", () => {
  const policy = netinitPolicyOf({}, true, { ...DEFAULT_EGRESS_CONFIG, enforcement: "netinit" }, []);
  const pod = buildPod("0f0e0d0c-0b0a-4000-8000-000000000001", spec({}), {
    namespace: "ns",
    egress: false,
    netinit: { image: "hangar:1", path: "/app/.build/hangar-netinit", policy },
  });
  const init = pod.spec?.initContainers?.[0];
  it("an init container loads the policy with NET_ADMIN alone; the sandbox's container never has NET_ADMIN", () => {
    expect(init).toMatchObject({ name: NETINIT_CONTAINER, image: "hangar:1", command: ["/app/.build/hangar-netinit"] });
    expect(init?.securityContext).toMatchObject({
      privileged: false,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"], add: ["NET_ADMIN"] },
    });
    expect(JSON.parse(init?.env?.find((e) => e.name === "HANGAR_NETINIT_POLICY")?.value ?? "")).toEqual(policy);
    expect(init?.env?.find((e) => e.name === "HANGAR_NODE_IP")?.valueFrom?.fieldRef?.fieldPath).toBe("status.hostIP");
    const main = pod.spec?.containers[0];
    expect(main?.securityContext?.capabilities?.add).not.toContain("NET_ADMIN");
    expect(main?.securityContext?.capabilities?.add).not.toContain("NET_RAW");
  });
  it("hostname grants: the proxy in HTTPS_PROXY (the sandbox's own env wins) and the names in Hangar's annotation, never the caller's", () => {
    const p = buildPod(
      "0f0e0d0c-0b0a-4000-8000-000000000001",
      spec({ env: { https_proxy: "http://mine:1" }, annotations: { "hangar.dev/egress-hosts": '["*.com"]', note: "x" } }),
      { namespace: "ns", egress: false, proxy: { address: "10.88.7.1:3128", hostnames: ["pypi.org"] } },
    );
    expect(p.spec?.containers[0]?.env).toEqual(
      expect.arrayContaining([
        { name: "HTTPS_PROXY", value: "http://10.88.7.1:3128" },
        { name: "https_proxy", value: "http://mine:1" },
      ]),
    );
    expect(p.metadata?.annotations).toMatchObject({ "hangar.dev/egress-hosts": '["pypi.org"]', note: "x" });
    const q = buildPod("0f0e0d0c-0b0a-4000-8000-000000000001", spec({ annotations: { "hangar.dev/egress-hosts": '["*.com"]' } }), {
      namespace: "ns",
      egress: false,
    });
    expect(q.metadata?.annotations?.["hangar.dev/egress-hosts"]).toBeUndefined();
  });
  it("the API refuses annotations under hangar.dev/", () => {
    expect(() =>
      toDomainSpec({ containers: [{ image: "x" }], annotations: { "hangar.dev/egress-hosts": "[]" } } as never, { maxLifetimeSeconds: 60 }),
    ).toThrow(/annotations\["hangar\.dev\/egress-hosts"\]: keys under hangar\.dev\/ are Hangar's own/);
  });
  const reserved = [
    "container.apparmor.security.beta.kubernetes.io/main",
    "seccomp.security.alpha.kubernetes.io/pod",
    "container.seccomp.security.alpha.kubernetes.io/main",
    "kubernetes.io/x",
    "cluster-autoscaler.kubernetes.io/safe-to-evict",
    "node.k8s.io/y",
    "io.kubernetes.cri-o.userns-mode",
    "io.containerd.runc.v2.x",
    "io.katacontainers.config.hypervisor.kernel",
    "run.oci.keep_original_groups",
  ];
  for (const k of reserved)
    it(`the API refuses the cluster's own annotation ${k}`, () => {
      expect(() =>
        toDomainSpec({ containers: [{ image: "x" }], annotations: { [k]: "unconfined" } } as never, { maxLifetimeSeconds: 60 }),
      ).toThrow(/are the cluster's own \(seccomp and AppArmor profiles, runtime settings\): a sandbox cannot set them/);
    });
  it("the API keeps the caller's own annotations", () => {
    expect(
      toDomainSpec(
        { containers: [{ image: "x" }], annotations: { "example.com/team": "rl", note: "x", "kubernetes-io.example/ok": "y" } } as never,
        { maxLifetimeSeconds: 60 },
      ).annotations,
    ).toEqual({ "example.com/team": "rl", note: "x", "kubernetes-io.example/ok": "y" });
  });
  it("with the exec agent from the image (ADR 0023): netinit copies it into an emptyDir the sandbox mounts read-only, and nothing else mounts it", () => {
    const withAgent = buildPod(
      "0f0e0d0c-0b0a-4000-8000-000000000001",
      spec({ volumes: [{ name: "work", mountPath: "/work", readOnly: false }] } as never),
      {
        namespace: "ns",
        egress: false,
        netinit: { image: "hangar:1", path: "/app/.build/hangar-netinit", policy, agent: "/app/.build/hangar-agent" },
      },
    );
    const ini = withAgent.spec?.initContainers?.[0];
    expect(ini?.env).toEqual(
      expect.arrayContaining([
        { name: "HANGAR_NETINIT_AGENT", value: "/app/.build/hangar-agent" },
        { name: "HANGAR_NETINIT_AGENT_DIR", value: "/hangar-agent" },
      ]),
    );
    expect(ini?.volumeMounts).toEqual([{ name: AGENT_VOLUME, mountPath: "/hangar-agent" }]);
    expect(ini?.securityContext).toMatchObject({ readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"], add: ["NET_ADMIN"] } });
    expect(withAgent.spec?.containers[0]?.volumeMounts).toEqual([
      { name: "vol-work", mountPath: "/work" },
      { name: AGENT_VOLUME, mountPath: "/.hangar-agent", readOnly: true },
    ]);
    expect(withAgent.spec?.volumes).toEqual([
      { name: AGENT_VOLUME, emptyDir: { sizeLimit: "32Mi" } },
      { name: "vol-work", emptyDir: {} },
    ]);
    // Without it (no agent, or the agent through exec stdin): no volume, no mount, no copy.
    expect(init?.env?.map((e) => e.name)).toEqual(["HANGAR_NETINIT_POLICY", "HANGAR_NODE_IP"]);
    expect(init?.volumeMounts).toBeUndefined();
    expect(pod.spec?.containers[0]?.volumeMounts).toEqual([]);
    expect(pod.spec?.volumes).toEqual([]);
  });
  it("without netinit there is no init container", () => {
    expect(
      buildPod("0f0e0d0c-0b0a-4000-8000-000000000001", spec({}), { namespace: "ns", egress: false }).spec?.initContainers,
    ).toBeUndefined();
  });
  it("a netinit that failed fails the start with its message; one that cannot be pulled too", () => {
    const failed = {
      metadata: { creationTimestamp: new Date(0) },
      status: {
        phase: "Failed",
        initContainerStatuses: [
          {
            name: NETINIT_CONTAINER,
            state: { terminated: { exitCode: 1, message: "hangar-netinit: loading the ruleset: operation not permitted\n" } },
          },
        ],
      },
    };
    expect(observePod(failed as never, 1000, 60_000)).toEqual({
      t: "start-failed",
      initContainer: NETINIT_CONTAINER,
      reason: "init container hangar-netinit failed (exit 1: hangar-netinit: loading the ruleset: operation not permitted)",
    });
    const pull = {
      metadata: { creationTimestamp: new Date(0) },
      status: {
        phase: "Pending",
        initContainerStatuses: [{ name: NETINIT_CONTAINER, state: { waiting: { reason: "ErrImageNeverPull", message: "no image" } } }],
      },
    };
    expect(observePod(pull as never, 1000, 60_000)).toEqual({
      t: "start-failed",
      initContainer: NETINIT_CONTAINER,
      reason: "init container hangar-netinit: ErrImageNeverPull: no image",
    });
    const running = {
      metadata: { creationTimestamp: new Date(0) },
      status: {
        phase: "Pending",
        initContainerStatuses: [{ name: NETINIT_CONTAINER, state: { running: {} } }],
        containerStatuses: [{ name: "main", state: { waiting: { reason: "PodInitializing" } } }],
      },
    };
    expect(observePod(running as never, 1000, 60_000)).toEqual({ t: "starting", reason: "PodInitializing" });
  });
});
