/**
 * The exec agent's direct link (ADR 0022) against the real hangar-agent binary, run here as a
 * local child process: the exec channel is its stdin/stdout, the direct link a TLS connection on
 * 127.0.0.1. What must hold: commands run over the link with the same semantics; only the agent
 * that was asked holds the certificate Hangar trusts; only the token opens the link.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type AgentChannel, createAgentChannel } from "../../runtime/kubernetes/exec/agent-channel.js";
import { dialDirectLink, openDirectLink } from "../../runtime/kubernetes/exec/agent-direct.js";
import { AgentMissing, agentBinary, createAgentLinks } from "../../runtime/kubernetes/exec/agent-link.js";
import * as k8s from "@kubernetes/client-node";

const AGENT = ".build/hangar-agent";
const children: ChildProcess[] = [];
const links: AgentChannel[] = [];

async function control(): Promise<AgentChannel> {
  if (!existsSync(AGENT)) throw new Error(`${AGENT} is missing: run make setup`);
  const child = spawn(AGENT, [], { stdio: ["pipe", "pipe", "inherit"] });
  children.push(child);
  const ch = createAgentChannel({ send: (b) => child.stdin?.write(b), close: () => child.stdin?.end() });
  child.stdout?.on("data", (b: Buffer) => ch.receive(b));
  child.on("exit", () => ch.end("agent exited"));
  await ch.ready;
  return ch;
}

/** A free range of `n` loopback ports (best effort: asked of the kernel, then released). */
async function freePorts(n: number): Promise<{ first: number; count: number }> {
  for (;;) {
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    const first = (s.address() as net.AddressInfo).port;
    await new Promise((r) => s.close(r));
    if (first + n <= 65535) return { first, count: n };
  }
}

async function run(ch: AgentChannel, argv: string[]) {
  const p = ch.exec(argv, {});
  p.closeStdin();
  let out = "";
  for await (const c of p.output()) out += c.data.toString();
  return { out, exitCode: (await p.exited).exitCode };
}

afterEach(() => {
  for (const l of links.splice(0)) l.close();
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

describe("the exec agent's direct link", () => {
  it("runs commands with their output, stdin and exit codes, beside the exec channel", async () => {
    const ctl = await control();
    const d = await openDirectLink(ctl, { host: "127.0.0.1", ports: await freePorts(4), timeoutMs: 5000 });
    links.push(d);
    expect(await run(d, ["/bin/sh", "-c", "echo via-direct; exit 5"])).toEqual({ out: "via-direct\n", exitCode: 5 });
    const cat = d.exec(["cat"], {});
    const writing = cat.write(Buffer.alloc(3 << 20, 0x61)).then(() => cat.closeStdin());
    let n = 0;
    for await (const c of cat.output()) n += c.data.length;
    await writing;
    expect(n).toBe(3 << 20);
    expect(await run(ctl, ["/bin/sh", "-c", "echo via-exec"])).toEqual({ out: "via-exec\n", exitCode: 0 });
  });

  it("closes when the exec channel ends (the agent exits), failing what ran on it", async () => {
    const ctl = await control();
    const d = await openDirectLink(ctl, { host: "127.0.0.1", ports: await freePorts(2), timeoutMs: 5000 });
    const p = d.exec(["sleep", "30"], {});
    ctl.close();
    await expect(p.exited).rejects.toThrow(/closed/);
    expect(d.closed).toBe(true);
  });

  it("refuses an agent whose certificate is not the one Hangar was given (an impostor on the port)", async () => {
    const asked = await control();
    const impostor = await control();
    const tokenA = Buffer.alloc(32, 1);
    const a = await asked.listen(tokenA, ...(Object.values(await freePorts(2)) as [number, number]));
    const b = await impostor.listen(tokenA, ...(Object.values(await freePorts(2)) as [number, number]));
    // Hangar knows A's certificate; the connection lands on B, which even knows the token.
    await expect(dialDirectLink({ host: "127.0.0.1", port: b.port, cert: a.cert, token: tokenA, timeoutMs: 3000 })).rejects.toThrow(
      /certificate|signature|self.signed|verify/i,
    );
    const ok = await dialDirectLink({ host: "127.0.0.1", port: a.port, cert: a.cert, token: tokenA, timeoutMs: 3000 });
    links.push(ok);
    expect((await run(ok, ["true"])).exitCode).toBe(0);
  });

  it("runs nothing for a connection without the token", async () => {
    const ctl = await control();
    const token = Buffer.alloc(32, 7);
    const { port, cert } = await ctl.listen(token, ...(Object.values(await freePorts(2)) as [number, number]));
    await expect(dialDirectLink({ host: "127.0.0.1", port, cert, token: Buffer.alloc(32, 8), timeoutMs: 2000 })).rejects.toThrow(
      /closed|hello/,
    );
    // A plain TCP client (no TLS) gets nothing either; then the right token works.
    const raw = net.connect(port, "127.0.0.1");
    raw.write(token);
    const got = await new Promise<number>((r) => {
      let n = 0;
      raw.on("data", (b: Buffer) => (n += b.length));
      raw.on("close", () => r(n));
      raw.on("error", () => undefined);
    });
    expect(got).toBeLessThan(64); // at most a TLS alert, never a hello frame
    const ok = await dialDirectLink({ host: "127.0.0.1", port, cert, token, timeoutMs: 3000 });
    links.push(ok);
    expect(await run(ok, ["/bin/sh", "-c", "echo ok"])).toEqual({ out: "ok\n", exitCode: 0 });
  });

  it("reports the agent's refusal (a bad token length) and answers one listen request per agent", async () => {
    const ctl = await control();
    const ports = await freePorts(2);
    await expect(ctl.listen(Buffer.alloc(5), ports.first, ports.count)).rejects.toThrow(/token/);
    await ctl.listen(Buffer.alloc(32, 2), ports.first, ports.count);
    await expect(ctl.listen(Buffer.alloc(32, 2), ports.first, ports.count)).rejects.toThrow(/already listening/);
  });

  it("counts agent starts by how the agent got into the pod: found, installed through exec, unusable", async () => {
    const installed = new Set<string>();
    const agents = createAgentLinks({
      kc: new k8s.KubeConfig(),
      namespace: "ns",
      binary: agentBinary(Buffer.from("unused")),
      log: { warn() {} },
      // "copy" has the image's copy; "bare" gets one installed; "broken" cannot install one.
      run: async (pod) => (pod === "broken" ? 1 : (installed.add(pod), 0)),
      connect: async (pod) => {
        if (pod !== "copy" && !installed.has(pod)) throw new AgentMissing();
        return control();
      },
    });
    try {
      expect(await agents.open("copy")).toBe(true);
      expect(await agents.open("bare")).toBe(true);
      expect(await agents.open("broken")).toBe(false);
      expect(await agents.open("copy")).toBe(true); // already open: not another start
      expect(agents.stats()).toEqual({ found: 1, installed: 1, unusable: 1 });
    } finally {
      agents.close();
    }
  });

  it("an image without a shell: netinit's copy is started directly, never installed (no shell to install with); no copy: unusable", async () => {
    const asked: string[] = [];
    const agents = createAgentLinks({
      kc: new k8s.KubeConfig(),
      namespace: "ns",
      binary: agentBinary(Buffer.from("unused")),
      log: { warn() {} },
      run: async (pod) => (asked.push(`install ${pod}`), 0),
      // "copy" has netinit's copy of the agent; "nocopy" has none.
      connect: async (pod, shell) => {
        asked.push(`start ${pod} ${shell ? "sh" : "direct"}`);
        if (pod !== "copy") throw new AgentMissing();
        return control();
      },
    });
    try {
      expect(await agents.open("copy", false)).toBe(true);
      expect(agents.channelFor("copy")).toBeDefined();
      expect(await agents.open("nocopy", false)).toBe(false);
      expect(await agents.open("nocopy", false)).toBe(false); // unusable: not asked again
      expect(asked).toEqual(["start copy direct", "start nocopy direct"]);
      expect(agents.stats()).toEqual({ found: 1, installed: 0, unusable: 1 });
    } finally {
      agents.close();
    }
  });

  it("a link that closes while the exec channel lives is dialled again; commands use the exec channel meanwhile", async () => {
    const ports = await freePorts(2);
    let ctl: AgentChannel | undefined;
    const agents = createAgentLinks({
      kc: new k8s.KubeConfig(),
      namespace: "ns",
      binary: agentBinary(Buffer.from("unused")),
      log: { warn() {} },
      run: () => Promise.reject(new Error("nothing is installed in this test")),
      connect: async () => (ctl = await control()),
      direct: { ports, podIp: () => "127.0.0.1" },
    });
    try {
      expect(await agents.open("p")).toBe(true);
      const first = agents.channelFor("p");
      expect(first && agents.isDirect(first)).toBe(true);
      first?.close();
      // At once: the exec channel, which still works.
      const meanwhile = agents.channelFor("p");
      expect(meanwhile).toBe(ctl);
      expect(await run(meanwhile as AgentChannel, ["/bin/sh", "-c", "echo via-exec"])).toEqual({ out: "via-exec\n", exitCode: 0 });
      // Within the reopen interval and a dial, a new direct link to the same agent.
      let again: AgentChannel | undefined;
      for (let i = 0; i < 100 && !(again && agents.isDirect(again)); i++) {
        await new Promise((r) => setTimeout(r, 50));
        again = agents.channelFor("p");
      }
      expect(again && agents.isDirect(again)).toBe(true);
      expect(again).not.toBe(first);
      expect(await run(again as AgentChannel, ["/bin/sh", "-c", "echo via-direct-again; exit 3"])).toEqual({
        out: "via-direct-again\n",
        exitCode: 3,
      });
    } finally {
      agents.close();
    }
  });
});
