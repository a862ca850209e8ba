import { mkdtempSync, writeFileSync, chmodSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { createAuthenticator, OPEN_TENANT, parseKeysFile } from "../../api/auth.js";
import { ConfigError, loadConfig } from "../../cmd/config.js";
import { parseKubeRunners, parseTolerations } from "../../cmd/config-kube-nodes.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-cfg-"));
const fakeTool = path.join(dir, "tool");
writeFileSync(fakeTool, "#!/bin/sh\n");
chmodSync(fakeTool, 0o755);
const base = {
  HANGAR_LOCAL_BWRAP: fakeTool,
  HANGAR_LOCAL_PTY_HELPER: fakeTool,
  HANGAR_LOCAL_GUARD: fakeTool,
  HANGAR_LOCAL_SECCOMP_BPF: fakeTool,
  HANGAR_DATA_DIR: dir,
};

describe("loadConfig", () => {
  it("has documented defaults and is frozen", () => {
    const c = loadConfig(base, [], dir);
    expect(c.listen).toEqual({ host: "127.0.0.1", port: 50051, text: "127.0.0.1:50051" });
    expect(c.runtime).toBe("local");
    expect(c.retentionSeconds).toBe(3600);
    expect(c.mallocTrimSeconds).toBe(0);
    expect(loadConfig({ ...base, HANGAR_MALLOC_TRIM_SECONDS: "30" }, [], dir).mallocTrimSeconds).toBe(30);
    expect(Object.isFrozen(c)).toBe(true);
  });
  it("flags override the environment", () => {
    expect(loadConfig({ ...base, HANGAR_LISTEN: "127.0.0.1:1" }, ["--listen=127.0.0.1:0"], dir).listen.port).toBe(0);
  });
  const bad: [string, Record<string, string>, RegExp][] = [
    ["bad listen", { HANGAR_LISTEN: "nope" }, /HANGAR_LISTEN/],
    ["port out of range", { HANGAR_LISTEN: "127.0.0.1:70000" }, /HANGAR_LISTEN/],
    ["open mode on a public address", { HANGAR_LISTEN: "0.0.0.0:50051" }, /HANGAR_ALLOW_OPEN_NON_LOOPBACK/],
    ["unknown runtime", { HANGAR_RUNTIME: "docker" }, /HANGAR_RUNTIME/],
    [
      "slot uids inside the sandbox id range",
      { HANGAR_LOCAL_ID_RANGE_START: "300000", HANGAR_LOCAL_SLOT_UID_BASE: "310000" },
      /HANGAR_LOCAL_SLOT_UID_BASE=310000: the slot uids .* overlap/,
    ],
    ["an image dir that is not one", { HANGAR_LOCAL_IMAGE_DIRS: "/nonexistent/images" }, /HANGAR_LOCAL_IMAGE_DIRS: \/nonexistent\/images/],
    ["no seccomp filter", { HANGAR_LOCAL_SECCOMP_BPF: "/nonexistent/seccomp.bpf" }, /HANGAR_LOCAL_SECCOMP_BPF=.*make setup/],
    ["negative retention", { HANGAR_RETENTION_SECONDS: "-1" }, /HANGAR_RETENTION_SECONDS/],
    ["not a number", { HANGAR_MAX_SANDBOXES: "many" }, /HANGAR_MAX_SANDBOXES/],
    ["a negative trim interval", { HANGAR_MALLOC_TRIM_SECONDS: "-5" }, /HANGAR_MALLOC_TRIM_SECONDS/],
    ["bad bool", { HANGAR_DEFAULT_DENY_EGRESS: "perhaps" }, /HANGAR_DEFAULT_DENY_EGRESS/],
    ["unknown setting", { HANGAR_LISTEN_ADDR: "x" }, /HANGAR_LISTEN_ADDR: unknown setting/],
    [
      "a public Gateway on the local runtime",
      { HANGAR_PUBLIC_GATEWAY: "gw/public", HANGAR_PUBLIC_URL: "http://127.0.0.1:18080" },
      /PUBLIC services need the Kubernetes runtime/,
    ],
    ["a public Gateway without its URL", { HANGAR_PUBLIC_GATEWAY: "gw/public" }, /HANGAR_PUBLIC_URL is not set/],
    [
      "a TLS passthrough listener on the local runtime",
      { HANGAR_PUBLIC_TLS_GATEWAY: "gw/public/tls", HANGAR_PUBLIC_TLS_ADDRESS: "*.tls.example.com" },
      /TLS passthrough endpoints need the Kubernetes runtime/,
    ],
    ["missing keys file", { HANGAR_API_KEYS_FILE: "/nonexistent/keys" }, /HANGAR_API_KEYS_FILE/],
    ["no bubblewrap", { HANGAR_LOCAL_BWRAP: "/nonexistent/bwrap" }, /bubblewrap is not installed.*HANGAR_LOCAL_UNSAFE_NO_ISOLATION/],
    ["bad image map", { HANGAR_LOCAL_IMAGES: "python:3.11=relative" }, /HANGAR_LOCAL_IMAGES/],
    [
      "the exec agent without its binary",
      {
        HANGAR_RUNTIME: "kubernetes",
        KUBECONFIG: fakeTool,
        HANGAR_KUBE_NETINIT_IMAGE: "hangar:1",
        HANGAR_KUBE_EXEC_AGENT: "true",
        HANGAR_KUBE_AGENT_BINARY: "/nonexistent/agent",
      },
      /HANGAR_KUBE_AGENT_BINARY=.*make setup/,
    ],
    [
      "Kubernetes without the netinit image",
      { HANGAR_RUNTIME: "kubernetes", KUBECONFIG: fakeTool },
      /HANGAR_KUBE_NETINIT_IMAGE is not set.*HANGAR_KUBE_EGRESS_ENFORCEMENT=networkpolicy/,
    ],
    ["an unknown user-namespace mode", { HANGAR_KUBE_USER_NAMESPACES: "maybe" }, /HANGAR_KUBE_USER_NAMESPACES=maybe: expected auto/],
    [
      "an unknown egress enforcement",
      { HANGAR_KUBE_EGRESS_ENFORCEMENT: "cilium" },
      /HANGAR_KUBE_EGRESS_ENFORCEMENT=cilium: expected netinit/,
    ],
    [
      "a grantable range that is not a CIDR",
      { HANGAR_KUBE_EGRESS_GRANTABLE_CIDRS: "10.1.0.0/16,10.2.0.0/33" },
      /HANGAR_KUBE_EGRESS_GRANTABLE_CIDRS: "10.2.0.0\/33" is not/,
    ],
    [
      "a GPU device that is not a device",
      { HANGAR_LOCAL_GPU_DEVICES: "/etc/hostname" },
      /HANGAR_LOCAL_GPU_DEVICES: \/etc\/hostname is not an absolute path to a character device/,
    ],
    [
      "a GPU device listed twice",
      { HANGAR_LOCAL_GPU_DEVICES: "/dev/null,/dev/null" },
      /HANGAR_LOCAL_GPU_DEVICES: a device is listed twice/,
    ],
    [
      "a GPU type without GPUs",
      { HANGAR_LOCAL_GPU_TYPE: "H100" },
      /HANGAR_LOCAL_GPU_TYPE \/ HANGAR_LOCAL_GPU_MEMORY_GB describe the GPUs of HANGAR_LOCAL_GPU_DEVICES, which lists none/,
    ],
    [
      "GPUs without isolation",
      { HANGAR_LOCAL_GPU_DEVICES: "/dev/null", HANGAR_LOCAL_UNSAFE_NO_ISOLATION: "true" },
      /GPU sandboxes need isolation/,
    ],
    ["a deny range that is not a CIDR", { HANGAR_KUBE_EGRESS_DENY_CIDRS: "node-range" }, /HANGAR_KUBE_EGRESS_DENY_CIDRS: "node-range"/],
    [
      "a template pool without shared templates",
      { HANGAR_KUBE_WARM_POOLS: "python:3.11=2,template:agent-env=4" },
      /HANGAR_KUBE_WARM_POOLS: template:agent-env names a shared template, and HANGAR_SHARED_TEMPLATES_FILE is not set/,
    ],
  ];
  for (const [name, env, msg] of bad) {
    it(`refuses ${name}, naming the setting`, () => {
      expect(() => loadConfig({ ...base, ...env }, [], dir)).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, ...env }, [], dir)).toThrow(msg);
    });
  }
  it("local GPUs: the listed devices, the shared nodes that exist, the model", () => {
    expect(
      loadConfig(
        {
          ...base,
          HANGAR_LOCAL_GPU_DEVICES: "/dev/null, /dev/zero",
          HANGAR_LOCAL_GPU_SHARED_DEVICES: "/dev/full,/dev/nonexistent-ctl",
          HANGAR_LOCAL_GPU_TYPE: "H100",
          HANGAR_LOCAL_GPU_MEMORY_GB: "80",
        },
        [],
        dir,
      ).local.gpus,
    ).toEqual({ devices: ["/dev/null", "/dev/zero"], shared: ["/dev/full"], type: "H100", memoryGb: 80 });
    expect(loadConfig(base, [], dir).local.gpus).toBeUndefined();
  });
  it("allows open mode off loopback only when told to", () => {
    expect(loadConfig({ ...base, HANGAR_LISTEN: "0.0.0.0:1", HANGAR_ALLOW_OPEN_NON_LOOPBACK: "true" }, [], dir).listen.host).toBe(
      "0.0.0.0",
    );
  });
  it("Kubernetes egress: netinit from the named image by default, private ranges defaulted, lists parsed", () => {
    const k = loadConfig(
      {
        ...base,
        HANGAR_RUNTIME: "kubernetes",
        KUBECONFIG: fakeTool,
        HANGAR_KUBE_NETINIT_IMAGE: "hangar:1",
        HANGAR_KUBE_EGRESS_GRANTABLE_CIDRS: "10.1.0.0/16, fd00:1::/64",
      },
      [],
      dir,
    ).kube.egress;
    expect(k).toMatchObject({
      enforcement: "netinit",
      netinitImage: "hangar:1",
      netinitPath: "/app/.build/hangar-netinit",
      grantableCidrs: ["10.1.0.0/16", "fd00:1::/64"],
      denyCidrs: [],
    });
    expect(k.privateCidrs).toContain("10.0.0.0/8");
    const np = loadConfig(
      { ...base, HANGAR_RUNTIME: "kubernetes", KUBECONFIG: fakeTool, HANGAR_KUBE_EGRESS_ENFORCEMENT: "networkpolicy" },
      [],
      dir,
    ).kube.egress;
    expect(np.enforcement).toBe("networkpolicy");
  });
  it("PUBLIC services: the Kubernetes runtime reads the Gateway and its URL once", () => {
    const kube = { ...base, HANGAR_RUNTIME: "kubernetes", KUBECONFIG: fakeTool, HANGAR_KUBE_NETINIT_IMAGE: "hangar:1" };
    expect(loadConfig(kube, [], dir).kube.publicGateway).toBeUndefined();
    expect(
      loadConfig({ ...kube, HANGAR_PUBLIC_GATEWAY: "gw/public/web", HANGAR_PUBLIC_URL: "https://*.sbx.example.com" }, [], dir).kube
        .publicGateway,
    ).toEqual({
      namespace: "gw",
      name: "public",
      sectionName: "web",
      url: { scheme: "https", host: "sbx.example.com", port: "", wildcard: true, prefix: "" },
    });
    expect(loadConfig(kube, [], dir).kube.publicTls).toBeUndefined();
    expect(
      loadConfig({ ...kube, HANGAR_PUBLIC_TLS_GATEWAY: "gw/public/tls", HANGAR_PUBLIC_TLS_ADDRESS: "*.tls.example.com" }, [], dir).kube
        .publicTls,
    ).toEqual({ namespace: "gw", name: "public", sectionName: "tls", address: { domain: "tls.example.com", port: 443 } });
  });
  it("the exec agent is off unless asked for, and then names its binary", () => {
    const k = { ...base, HANGAR_RUNTIME: "kubernetes", KUBECONFIG: fakeTool, HANGAR_KUBE_NETINIT_IMAGE: "hangar:1" };
    expect(loadConfig(k, [], dir).kube.execAgentBinary).toBeUndefined();
    expect(loadConfig({ ...k, HANGAR_KUBE_EXEC_AGENT: "true", HANGAR_KUBE_AGENT_BINARY: fakeTool }, [], dir).kube.execAgentBinary).toBe(
      fakeTool,
    );
  });
  it("the agent's direct link listens on 47960-47975 unless told other ports or off; a bad range names the setting", () => {
    const k = { ...base, HANGAR_RUNTIME: "kubernetes", KUBECONFIG: fakeTool, HANGAR_KUBE_NETINIT_IMAGE: "hangar:1" };
    expect(loadConfig(k, [], dir).kube.agentDirectPorts).toEqual({ first: 47960, count: 16 });
    expect(loadConfig({ ...k, HANGAR_KUBE_AGENT_DIRECT_PORTS: "50000-50001" }, [], dir).kube.agentDirectPorts).toEqual({
      first: 50000,
      count: 2,
    });
    expect(loadConfig({ ...k, HANGAR_KUBE_AGENT_DIRECT_PORTS: "off" }, [], dir).kube.agentDirectPorts).toBeUndefined();
    for (const bad of ["80-90", "5000", "6000-5000", "40000-40300", "a-b", "60000-70000"]) {
      expect(() => loadConfig({ ...k, HANGAR_KUBE_AGENT_DIRECT_PORTS: bad }, [], dir), bad).toThrow(
        /HANGAR_KUBE_AGENT_DIRECT_PORTS=.*first-last/,
      );
    }
  });
  it("the exec agent comes from /app/.build/hangar-agent in the netinit image unless told another path or off; a bad path names the setting", () => {
    const k = { ...base, HANGAR_RUNTIME: "kubernetes", KUBECONFIG: fakeTool, HANGAR_KUBE_NETINIT_IMAGE: "hangar:1" };
    expect(loadConfig(k, [], dir).kube.agentImagePath).toBe("/app/.build/hangar-agent");
    expect(loadConfig({ ...k, HANGAR_KUBE_AGENT_IMAGE_PATH: "/opt/hangar/agent" }, [], dir).kube.agentImagePath).toBe("/opt/hangar/agent");
    expect(loadConfig({ ...k, HANGAR_KUBE_AGENT_IMAGE_PATH: "off" }, [], dir).kube.agentImagePath).toBeUndefined();
    for (const bad of ["agent", "./agent", "/a b", '/a"b', "/a$b"]) {
      expect(() => loadConfig({ ...k, HANGAR_KUBE_AGENT_IMAGE_PATH: bad }, [], dir), bad).toThrow(
        /HANGAR_KUBE_AGENT_IMAGE_PATH=.*absolute path/,
      );
    }
  });
  it("runs without bubblewrap only with the explicit unsafe flag", () => {
    expect(
      loadConfig({ ...base, HANGAR_LOCAL_BWRAP: "/nonexistent", HANGAR_LOCAL_UNSAFE_NO_ISOLATION: "true" }, [], dir).local.unsafe,
    ).toBe(true);
  });
});

describe("keys file and authentication", () => {
  const good = "# tenants\n\nalpha:0123456789abcdef0123\n  beta : fedcba9876543210fedc  \n";
  it("parses comments, blank lines and spaces", () => {
    expect(parseKeysFile(good, "k")).toEqual([
      { tenant: "alpha", key: "0123456789abcdef0123" },
      { tenant: "beta", key: "fedcba9876543210fedc" },
    ]);
  });
  const bad: [string, string, RegExp][] = [
    ["no colon", "alpha\n", /k:1: expected "tenant:key"/],
    ["short key", "alpha:short\n", /k:1: key must be at least 16/],
    ["bad tenant", "# c\nAl Pha:0123456789abcdef0\n", /k:2: tenant/],
    ["repeated key", "a:0123456789abcdef0\nb:0123456789abcdef0\n", /k:2: key repeats/],
    ["empty", "# nothing\n", /no keys/],
  ];
  for (const [name, text, msg] of bad) it(`rejects ${name}, naming the line`, () => expect(() => parseKeysFile(text, "k")).toThrow(msg));

  const auth = createAuthenticator(parseKeysFile(good, "k"));
  const md = (pairs: Record<string, string>) => {
    const m = new grpc.Metadata();
    for (const [k, v] of Object.entries(pairs)) m.set(k, v);
    return m;
  };
  it("maps keys to tenants", () => {
    expect(auth(md({ authorization: "Bearer 0123456789abcdef0123" }))).toBe("alpha");
    expect(auth(md({ authorization: "bearer fedcba9876543210fedc" }))).toBe("beta");
    expect(auth(md({ "x-api-key": "fedcba9876543210fedc" }))).toBe("beta");
  });
  it("rejects missing and wrong keys as UNAUTHENTICATED", () => {
    expect(() => auth(md({}))).toThrow(expect.objectContaining({ code: "UNAUTHENTICATED" }));
    expect(() => auth(md({ authorization: "Bearer wrong-key-000000000" }))).toThrow(expect.objectContaining({ code: "UNAUTHENTICATED" }));
  });
  it("open mode makes every caller the local tenant", () => expect(createAuthenticator(undefined)(md({}))).toBe(OPEN_TENANT));
});

describe("HANGAR_KUBE_RUNNERS", () => {
  it("defaults to one runner on any node", () =>
    expect(parseKubeRunners("", "r0", "g")).toEqual([{ runnerId: "r0", runnerGroupId: "g", nodeSelector: {} }]));
  it("maps runner ids to node selectors", () => {
    expect(parseKubeRunners("a100:nvidia.com/gpu.product=A100&pool=gpu, cpu", "r0", "g")).toEqual([
      { runnerId: "a100", runnerGroupId: "g", nodeSelector: { "nvidia.com/gpu.product": "A100", pool: "gpu" } },
      { runnerId: "cpu", runnerGroupId: "g", nodeSelector: {} },
    ]);
  });
  for (const bad of ["Bad_Id", "a:novalue", "a,a"])
    it(`refuses ${bad}`, () => expect(() => parseKubeRunners(bad, "r0", "g")).toThrow(/HANGAR_KUBE_RUNNERS/));
  it("is parsed once, by loadConfig, with the runner id and group it defaults to", () => {
    const c = loadConfig({ ...base, HANGAR_RUNNER_ID: "r9", HANGAR_RUNNER_GROUP_ID: "g9", HANGAR_KUBE_RUNNERS: "gpu:pool=gpu" }, [], dir);
    expect(c.kube.runners).toEqual([{ runnerId: "gpu", runnerGroupId: "g9", nodeSelector: { pool: "gpu" } }]);
    expect(loadConfig({ ...base, HANGAR_RUNNER_ID: "r9" }, [], dir).kube.runners).toEqual([
      { runnerId: "r9", runnerGroupId: "local", nodeSelector: {} },
    ]);
    expect(() => loadConfig({ ...base, HANGAR_KUBE_RUNNERS: "a,a" }, [], dir)).toThrow(/HANGAR_KUBE_RUNNERS: runner a appears twice/);
  });
});

describe("HANGAR_KUBE_TOLERATIONS", () => {
  it("is empty by default", () => expect(parseTolerations("")).toEqual([]));
  it("takes a JSON list of tolerations", () => {
    const t = [
      { key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" },
      { key: "pool", operator: "Equal", value: "gpu", effect: "NoExecute", tolerationSeconds: 30 },
    ];
    expect(parseTolerations(JSON.stringify(t))).toEqual(t);
  });
  const bad: [string, RegExp][] = [
    ["{", /not JSON/],
    ['{"key":"a"}', /a JSON list/],
    ["[1]", /\[0\]: expected an object/],
    ['[{"kye":"a"}]', /unknown field "kye"/],
    ['[{"operator":"Maybe"}]', /operator: Exists or Equal/],
    ['[{"operator":"Exists","value":"x"}]', /takes no value/],
    ['[{"effect":"NoRun"}]', /effect/],
    ['[{"tolerationSeconds":1.5}]', /integer/],
  ];
  for (const [text, msg] of bad) it(`refuses ${text}`, () => expect(() => parseTolerations(text)).toThrow(msg));
});
