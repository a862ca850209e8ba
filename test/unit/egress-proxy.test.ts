// Hostname egress grants: the names accepted, the CONNECT decisions, the resolved-address check
// (pure), and the proxy itself over real sockets on loopback.
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { hostGranted, normaliseHostname } from "../../core/hostname.js";
import { addressAllowed, decide, ownAddresses, parseConnect, startEgressProxy } from "../../runtime/kubernetes/egress/proxy.js";
import { egressProxy } from "../../cmd/config-kube-egress.js";
import { judgedAddresses } from "../../core/cidr.js";
import { DEFAULT_EGRESS_CONFIG, DEFAULT_PRIVATE_CIDRS, netinitPolicy, neverRanges } from "../../runtime/kubernetes/egress/policy.js";
import { firstHost } from "../../runtime/kubernetes/nodes/view.js";
import type { SandboxSpec } from "../../core/types.js";
import { effectiveGrants } from "../../core/egress.js";

/** netinit's policy for a spec under a deployment default: admission decides the grants (record.effectiveEgress), netinitPolicy takes them. */
const netinitPolicyOf = (
  spec: Pick<SandboxSpec, "denyEgress" | "egress" | "services" | "denyIngress">,
  defaultDenyEgress: boolean,
  ...rest: Parameters<typeof netinitPolicy> extends [unknown, unknown, ...infer R] ? R : never
) => netinitPolicy(spec, effectiveGrants(spec, defaultDenyEgress), ...rest);

describe("hostnames", () => {
  const names: [string, string | undefined][] = [
    ["PyPI.org", "pypi.org"],
    ["files.pythonhosted.org.", "files.pythonhosted.org"],
    ["*.pypi.org", "*.pypi.org"],
    ["pypi", undefined],
    ["*.org", undefined],
    ["a.*.org", undefined],
    ["-bad.org", undefined],
    ["1.2.3.4", undefined],
    ["", undefined],
    ["x".repeat(64) + ".org", undefined],
  ];
  for (const [text, want] of names) it(`${JSON.stringify(text)} -> ${want}`, () => expect(normaliseHostname(text)).toBe(want));
  const grants = ["pypi.org", "*.pythonhosted.org"];
  const cases: [string, boolean][] = [
    ["pypi.org", true],
    ["PYPI.ORG.", true],
    ["evil-pypi.org", false],
    ["sub.pypi.org", false],
    ["files.pythonhosted.org", true],
    ["a.b.pythonhosted.org", true],
    ["pythonhosted.org", false],
    ["xpythonhosted.org", false],
  ];
  for (const [host, want] of cases) it(`${host} granted: ${want}`, () => expect(hostGranted(host, grants)).toBe(want));
});

describe("CONNECT decisions", () => {
  it("parses only CONNECT host:port", () => {
    expect(parseConnect("CONNECT pypi.org:443 HTTP/1.1\r\nHost: pypi.org\r\n\r\n")).toEqual({ host: "pypi.org", port: 443 });
    expect(parseConnect("CONNECT [2001:db8::1]:443 HTTP/1.1\r\n\r\n")).toEqual({ host: "2001:db8::1", port: 443 });
    expect(parseConnect("GET http://pypi.org/ HTTP/1.1\r\n\r\n")).toBeUndefined();
  });
  const g = ["pypi.org"];
  const cases: [string, Parameters<typeof decide>[0], string[] | undefined, number | true][] = [
    ["a granted name on 443", { host: "pypi.org", port: 443 }, g, true],
    ["an unknown caller", { host: "pypi.org", port: 443 }, undefined, 403],
    ["another port", { host: "pypi.org", port: 80 }, g, 403],
    ["a name not granted", { host: "github.com", port: 443 }, g, 403],
    ["an address", { host: "198.18.0.2", port: 443 }, g, 403],
    ["not a CONNECT", undefined, g, 405],
  ];
  for (const [name, target, grants, want] of cases)
    it(name, () => {
      const v = decide(target, grants);
      expect(v.ok ? true : v.status).toBe(want);
    });
  it("resolved addresses: never the never ranges, private only where grantable", () => {
    const p = { never: ["169.254.0.0/16", "192.0.2.2/32"], private: ["10.0.0.0/8"], grantable: ["10.50.0.0/16"] };
    expect(addressAllowed("198.18.0.2", p)).toBe(true);
    expect(addressAllowed("169.254.169.254", p)).toBe(false);
    expect(addressAllowed("192.0.2.2", p)).toBe(false);
    expect(addressAllowed("10.1.2.3", p)).toBe(false);
    expect(addressAllowed("10.50.0.9", p)).toBe(true);
  });
});

describe("IPv6 forms of IPv4 addresses", () => {
  const v4 = (a: string) =>
    judgedAddresses(a)
      .filter((c) => c.family === 4)
      .map((c) => [24n, 16n, 8n, 0n].map((b) => String((c.net >> b) & 255n)).join("."));
  const forms: [string, string, string[]][] = [
    ["IPv4-mapped", "::ffff:10.96.0.1", ["10.96.0.1"]],
    ["IPv4-mapped, hex", "::ffff:a9fe:a9fe", ["169.254.169.254"]],
    ["IPv4-translated (SIIT)", "::ffff:0:7f00:1", ["127.0.0.1"]],
    ["IPv4-compatible", "::10.96.0.1", ["10.96.0.1"]],
    ["NAT64 well-known", "64:ff9b::a9fe:a9fe", ["169.254.169.254"]],
    ["NAT64 local-use", "64:ff9b:1:2::a60:1", ["10.96.0.1"]],
    ["6to4", "2002:a9fe:a9fe::1", ["169.254.169.254"]],
    ["Teredo (server, inverted client)", "2001:0:a60:1:0:0:f5ff:fffe", ["10.96.0.1", "10.0.0.1"]],
    ["plain IPv6", "2606:4700::1111", []],
    ["loopback ::1 is not IPv4-compatible", "::1", []],
  ];
  for (const [name, addr, want] of forms) it(`${name}: ${addr} -> ${want.join(", ") || "none"}`, () => expect(v4(addr)).toEqual(want));
  it("not an address: nothing to judge (refused)", () => expect(judgedAddresses("pypi.org")).toEqual([]));
});

describe("the proxy reaches only what a pod may", () => {
  const nodes = ["192.0.2.10", "203.0.113.7"];
  const defaults = {
    never: neverRanges(DEFAULT_EGRESS_CONFIG, [...nodes, "10.244.0.1/32"], ["10.96.0.1"]),
    private: DEFAULT_PRIVATE_CIDRS,
    grantable: [],
  };
  // The operator made all of 10/8 grantable: only the never list stands between a tenant and the apiserver.
  const open10 = { ...defaults, grantable: ["10.0.0.0/8"] };
  const refused: [string, string][] = [
    ["the apiserver Service", "10.96.0.1"],
    ["the Service, mapped", "::ffff:10.96.0.1"],
    ["the Service, NAT64", "64:ff9b::a60:1"],
    ["metadata", "169.254.169.254"],
    ["metadata, mapped", "::ffff:169.254.169.254"],
    ["metadata, 6to4", "2002:a9fe:a9fe::"],
    ["metadata, Teredo client", "2001:0:4136:e378:8000:63bf:5601:5601"],
    ["loopback, mapped", "::ffff:127.0.0.1"],
    ["loopback, compatible", "::127.0.0.1"],
    ["a node", "192.0.2.10"],
    ["a node, mapped", "::ffff:192.0.2.10"],
    ["a node, translated", "::ffff:0:203.0.113.7"],
    ["a pod gateway", "10.244.0.1"],
    ["IPv6 loopback", "::1"],
    ["link-local", "fe80::1"],
    ["not an address", "example.org"],
  ];
  for (const [name, addr] of refused)
    it(`refuses ${name} (${addr}), even with 10/8 grantable`, () => {
      expect(addressAllowed(addr, defaults)).toBe(false);
      expect(addressAllowed(addr, open10)).toBe(false);
    });
  it("allows a public address, and a granted private one", () => {
    expect(addressAllowed("198.51.100.20", defaults)).toBe(true);
    expect(addressAllowed("2606:4700::1111", defaults)).toBe(true);
    expect(addressAllowed("10.1.2.3", defaults)).toBe(false);
    expect(addressAllowed("10.1.2.3", open10)).toBe(true);
  });
  it("a never list without the IPv6 forms still judges the IPv4 inside", () => {
    const bare = { never: ["169.254.0.0/16", "127.0.0.0/8"], private: ["10.0.0.0/8"], grantable: [] };
    for (const a of ["::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe", "2002:a9fe:a9fe::1", "::ffff:10.96.0.1", "::127.0.0.1"])
      expect(addressAllowed(a, bare), a).toBe(false);
    expect(addressAllowed("::ffff:198.51.100.20", bare)).toBe(true);
  });
  it("holds everything netinit's never list holds, from the same source", () => {
    const pod = netinitPolicyOf({ egress: [{ to: "any", ports: [] }] } as never, true, DEFAULT_EGRESS_CONFIG, nodes);
    expect(defaults.never).toEqual(expect.arrayContaining(pod.never));
    for (const r of ["::ffff:0:0/96", "64:ff9b::/96", "2002::/16", "2001::/32", "10.96.0.1/32", "10.244.0.1/32"])
      expect(defaults.never).toContain(r);
  });
  it("never 0.0.0.0 (the host itself), whatever the operator opened", () => {
    expect(addressAllowed("0.0.0.0", { ...defaults, grantable: ["0.0.0.0/0"] })).toBe(false);
    expect(addressAllowed("::ffff:0.0.0.0", { ...defaults, grantable: ["0.0.0.0/0"] })).toBe(false);
  });
  it("Hangar's own addresses and every node, past the cap that applies inside pods", () => {
    const many = Array.from({ length: 200 }, (_, i) => `10.1.${i}.1`);
    const p = {
      never: neverRanges(DEFAULT_EGRESS_CONFIG, [], [...many, ...ownAddresses()]),
      private: DEFAULT_PRIVATE_CIDRS,
      grantable: ["10.0.0.0/8"],
    };
    expect(addressAllowed("10.1.199.1", p)).toBe(false);
    expect(addressAllowed("10.2.0.1", p)).toBe(true);
    for (const own of ownAddresses()) expect(addressAllowed(own, { ...p, grantable: ["0.0.0.0/0", "::/0"] }), own).toBe(false);
  });
  it("a node's pod range gives its gateway", () => {
    expect(firstHost("10.244.1.0/24")).toBe("10.244.1.1/32");
    expect(firstHost("fd00:10:244::/64")).toBe("fd00:10:244::1/128");
    expect(firstHost("10.0.0.7/32")).toBeUndefined();
  });
});

describe("the egress proxy over loopback", () => {
  const quiet = { warn: () => undefined, info: () => undefined };
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of closers) await c();
  });

  async function connectVia(port: number, line: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, "127.0.0.1", () => s.write(line));
      let got = "";
      s.on("data", (b) => {
        got += b.toString();
        if (got.includes("\r\n\r\n") && got.startsWith("HTTP/1.1 200")) {
          s.write("ping");
          if (got.endsWith("pong")) s.end();
        }
      });
      s.on("end", () => resolve(got));
      s.on("close", () => resolve(got));
      s.on("error", reject);
    });
  }

  it("tunnels a granted name to the address it pins, refuses the rest with a reason", async () => {
    const upstream = net.createServer((c) =>
      c.on("data", (b) => {
        if (b.toString() === "ping") c.end("pong");
      }),
    );
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", () => r()));
    closers.push(() => new Promise((r) => upstream.close(() => r())));
    const up = (upstream.address() as net.AddressInfo).port;
    const proxy = await startEgressProxy({
      listen: { host: "127.0.0.1", port: 0 },
      policy: () => ({ never: ["169.254.0.0/16"], private: ["10.0.0.0/8"], grantable: [] }),
      grantsOf: (ip) => (ip === "127.0.0.1" ? ["allowed.test", "inside.test"] : undefined),
      pinned: { "allowed.test": "127.0.0.1", "inside.test": "10.1.2.3" },
      upstreamPort: up,
      log: quiet,
    });
    closers.push(proxy.close);
    const ok = await connectVia(proxy.port, "CONNECT allowed.test:443 HTTP/1.1\r\n\r\n");
    expect(ok).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\npong$/);
    expect(await connectVia(proxy.port, "CONNECT denied.test:443 HTTP/1.1\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 403 .*denied\.test is not granted/s,
    );
    expect(await connectVia(proxy.port, "CONNECT inside.test:443 HTTP/1.1\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 403 .*resolves only to addresses sandboxes never reach/s,
    );
    expect(await connectVia(proxy.port, "GET http://allowed.test/ HTTP/1.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 405 /);
  });
  it("waits for grants read fresh (a pool pod's), and refuses when the read fails", async () => {
    const upstream = net.createServer((c) => c.end("pong"));
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", () => r()));
    closers.push(() => new Promise((r) => upstream.close(() => r())));
    let fail = false;
    const proxy = await startEgressProxy({
      listen: { host: "127.0.0.1", port: 0 },
      policy: () => ({ never: [], private: [], grantable: [] }),
      grantsOf: () => new Promise((res, rej) => setTimeout(() => (fail ? rej(new Error("apiserver down")) : res(["fresh.test"])), 50)),
      pinned: { "fresh.test": "127.0.0.1" },
      upstreamPort: (upstream.address() as net.AddressInfo).port,
      log: quiet,
    });
    closers.push(proxy.close);
    expect(await connectVia(proxy.port, "CONNECT fresh.test:443 HTTP/1.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 200 /);
    fail = true;
    expect(await connectVia(proxy.port, "CONNECT fresh.test:443 HTTP/1.1\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 403 .*not a sandbox with hostname grants/s,
    );
  });
});

describe("proxy settings", () => {
  it("off by default; an address sandboxes can dial; pins parsed", () => {
    expect(egressProxy("", "", "")).toBeUndefined();
    expect(egressProxy("0.0.0.0:3128", "10.96.0.50:3128", "allowed.test=198.18.0.2")).toEqual({
      listen: { host: "0.0.0.0", port: 3128 },
      address: "10.96.0.50:3128",
      pinned: { "allowed.test": "198.18.0.2" },
    });
    expect(egressProxy("10.88.7.1:0", "", "")?.address).toBe("10.88.7.1:0");
    expect(() => egressProxy("0.0.0.0:3128", "", "")).toThrow(
      /HANGAR_KUBE_EGRESS_PROXY_ADDRESS=0\.0\.0\.0:3128: expected the ip:port sandboxes dial/,
    );
    expect(() => egressProxy("", "10.0.0.1:3128", "")).toThrow(/need HANGAR_KUBE_EGRESS_PROXY_LISTEN/);
    expect(() => egressProxy("127.0.0.1:1", "", "x")).toThrow(/"x": expected name=ip/);
  });
});
