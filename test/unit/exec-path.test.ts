/** Which way a command takes into a sandbox pod (runtime/kubernetes/exec/path.ts), with in-memory agent links. */
import * as k8s from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import type { AgentChannel } from "../../runtime/kubernetes/exec/agent-channel.js";
import { createExecPath } from "../../runtime/kubernetes/exec/path.js";
import type { ExecProcess } from "../../runtime/types.js";

const proc = (): ExecProcess => ({
  write: async () => undefined,
  closeStdin() {},
  resize() {},
  output: async function* () {},
  exited: Promise.resolve({ exitCode: 0 }),
  kill: async () => undefined,
});

/** Agent links whose channel opens `openMs` after the first open() (as a new pod's does), recording what exec asked. */
function links(openMs: number) {
  const seen: string[] = [];
  let open = false;
  const ch = { exec: () => proc() } as unknown as AgentChannel;
  const agents = {
    open: async () => {
      seen.push("open");
      await new Promise((r) => setTimeout(r, openMs));
      open = true;
      return true;
    },
    channelFor: () => (open ? ch : undefined),
    isDirect: () => true,
    drop() {},
    close() {},
  };
  return { seen, agents, isOpen: () => open };
}

describe("the exec path", () => {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "c", server: "https://127.0.0.1:1", skipTLSVerify: true }],
    users: [{ name: "u" }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  const target = { id: "s", pod: "sbx-s", shell: true, exited: false };

  it("a bulk command waits for the pod's agent to open and goes over its direct link, not through the apiserver", async () => {
    const l = links(30);
    const path = createExecPath({ kubeConfig: kc, namespace: "ns", agents: l.agents as never });
    await path.exec(target, { argv: ["tar", "-xf", "-"], bulk: true });
    expect(l.seen).toEqual(["open"]);
    expect(path.stats()).toEqual({ direct: 1, agent: 0, plain: 0 });
  });

  it("other commands do not wait: with no channel yet they take plain exec (here the unreachable apiserver)", async () => {
    const l = links(30);
    const path = createExecPath({ kubeConfig: kc, namespace: "ns", agents: l.agents as never });
    await expect(path.exec(target, { argv: ["true"] })).rejects.toThrow();
    expect(l.seen).toEqual([]);
    expect(path.stats().direct).toBe(0);
  });

  it("a bulk TTY command or an image without a shell does not wait for an agent it cannot use", async () => {
    const l = links(30);
    const path = createExecPath({ kubeConfig: kc, namespace: "ns", agents: l.agents as never });
    await expect(path.exec({ ...target, shell: false }, { argv: ["tar", "-xf", "-"], bulk: true })).rejects.toThrow();
    await expect(path.exec(target, { argv: ["sh"], bulk: true, tty: { cols: 80, rows: 24 } })).rejects.toThrow();
    expect(l.seen).toEqual([]);
  });

  it("an image without a shell whose pod runs the agent (netinit's copy, started directly): its commands ride the agent, killable there (ADR 0032)", async () => {
    const l = links(0);
    await l.agents.open();
    const path = createExecPath({ kubeConfig: kc, namespace: "ns", agents: l.agents as never });
    await path.exec({ ...target, shell: false }, { argv: ["/app/server"] });
    expect(path.stats()).toEqual({ direct: 1, agent: 0, plain: 0 });
  });
});
