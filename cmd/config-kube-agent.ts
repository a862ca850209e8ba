/**
 * The Kubernetes runtime's exec agent (ADR 0022, 0023): whether commands run through hangar-agent
 * (HANGAR_KUBE_EXEC_AGENT, its binary HANGAR_KUBE_AGENT_BINARY), the ports of its direct link, and
 * its path in the netinit image.
 */
import path from "node:path";
import { ConfigError, executable, type Env } from "./config-env.js";

/**
 * HANGAR_KUBE_AGENT_DIRECT_PORTS: the ports the exec agent's direct link (ADR 0022) may listen on,
 * `first-last` (one per Hangar process that talks to the pod: keep at least the replica count), or
 * `off` (commands stay on the exec channel through the apiserver).
 */
export const DEFAULT_DIRECT_PORTS = "47960-47975";

/** HANGAR_KUBE_AGENT_IMAGE_PATH: hangar-agent's absolute path in the netinit image (ADR 0023), or off. */
export function parseAgentImagePath(text: string): string | undefined {
  if (text === "off") return undefined;
  if (!path.posix.isAbsolute(text) || /[\s"'$`\\]/.test(text))
    throw new ConfigError(
      `HANGAR_KUBE_AGENT_IMAGE_PATH=${text}: expected the absolute path of hangar-agent in HANGAR_KUBE_NETINIT_IMAGE (Hangar's image: /app/.build/hangar-agent), or off (install it through exec stdin)`,
    );
  return text;
}

export function parseDirectPorts(text: string): { first: number; count: number } | undefined {
  const t = text.trim();
  if (t === "off") return undefined;
  const m = /^(\d{1,5})-(\d{1,5})$/.exec(t);
  const first = Number(m?.[1]);
  const last = Number(m?.[2]);
  if (!m || first < 1024 || last > 65535 || last < first || last - first >= 256) {
    throw new ConfigError(
      `HANGAR_KUBE_AGENT_DIRECT_PORTS=${text}: expected first-last (1024-65535, at most 256 ports, e.g. 47960-47975) or off`,
    );
  }
  return { first, count: last - first + 1 };
}

/** The agent's binary is checked where the Kubernetes runtime is chosen and the agent is on. */
export function readKubeAgent(env: Env, at: { kubernetes: boolean; installDir: string }) {
  const execAgent = env.bool("HANGAR_KUBE_EXEC_AGENT", false);
  const agentBinary = env.str("HANGAR_KUBE_AGENT_BINARY", path.join(at.installDir, ".build/hangar-agent"));
  if (at.kubernetes && execAgent && !executable(agentBinary))
    throw new ConfigError(
      `HANGAR_KUBE_AGENT_BINARY=${agentBinary}: not found; build it with 'make setup' (HANGAR_KUBE_EXEC_AGENT=true needs it)`,
    );
  return {
    execAgentBinary: execAgent ? agentBinary : undefined,
    agentDirectPorts: parseDirectPorts(env.str("HANGAR_KUBE_AGENT_DIRECT_PORTS", DEFAULT_DIRECT_PORTS)),
    agentImagePath: parseAgentImagePath(env.str("HANGAR_KUBE_AGENT_IMAGE_PATH", "/app/.build/hangar-agent")),
  };
}
