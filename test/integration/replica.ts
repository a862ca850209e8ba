/** One Hangar process's runtime + controller on the test namespace, as the integration tier builds them. */
import type * as k8s from "@kubernetes/client-node";
import { createController } from "../../controller/controller.js";
import { readFileSync } from "node:fs";
import { agentBinary } from "../../runtime/kubernetes/exec/agent-link.js";
import { DEFAULT_EGRESS_CONFIG } from "../../runtime/kubernetes/egress/policy.js";
import { createKubernetesRuntime } from "../../runtime/kubernetes/kube-runtime.js";
import type { WarmPoolConfig } from "../../runtime/kubernetes/pool/warm-pool.js";
import { NAMESPACE, waitFor } from "./kube.js";

const silent = { info() {}, warn() {}, error() {} };

export function hangarReplica(o: {
  kubeConfig: k8s.KubeConfig;
  retentionMs?: number;
  startupTimeoutMs?: number;
  warmPools?: WarmPoolConfig[];
  execAgent?: boolean;
  agentDirectPorts?: { first: number; count: number };
  maxExecsPerSandbox?: number;
  nodeSelector?: Record<string, string>;
  tolerations?: k8s.V1Toleration[];
  maxSandboxes?: number;
  netinit?: { agentImagePath?: string };
  agentBytes?: Buffer;
  runners?: { runnerId: string; nodeSelector: Record<string, string> }[];
}) {
  const runtime = createKubernetesRuntime({
    kubeConfig: o.kubeConfig,
    namespace: NAMESPACE,
    startupTimeoutMs: o.startupTimeoutMs ?? 20_000,
    deadlineMarginSeconds: 60,
    fallbackCapacity: { cpuMillicores: 1000, memoryBytes: 2 ** 30 },
    organizationId: "o",
    log: silent,
    runners: o.runners?.map((r) => ({ ...r, runnerGroupId: "g" })) ?? [
      { runnerId: "any", runnerGroupId: "g", nodeSelector: o.nodeSelector ?? {} },
    ],
    tolerations: o.tolerations,
    warmPools: o.warmPools,
    execAgent: o.execAgent ? agentBinary(o.agentBytes ?? readFileSync(".build/hangar-agent")) : undefined,
    // hangar-netinit from the test cluster's image (test/cluster/netinit-image.sh), as a deployed Hangar runs it.
    ...(o.netinit
      ? {
          egress: {
            ...DEFAULT_EGRESS_CONFIG,
            enforcement: "netinit" as const,
            netinitImage: readFileSync(".cluster/netinit-image", "utf8").trim(),
          },
          ...(o.netinit.agentImagePath ? { agentImagePath: o.netinit.agentImagePath } : {}),
        }
      : {}),
    ...(o.agentDirectPorts ? { agentDirectPorts: o.agentDirectPorts } : {}),
  });
  const c = createController({
    runtime,
    policy: { retentionMs: o.retentionMs ?? 60_000, expiryGraceMs: 0, stuckAfterMs: 10_000 },
    defaultLifetimeSeconds: 600,
    maxLifetimeSeconds: 3600,
    maxSandboxes: o.maxSandboxes ?? 50,
    maxExecsPerSandbox: o.maxExecsPerSandbox ?? 10,
    maxExecs: 100,
    maxFileBytes: 1 << 20,
    reapIntervalMs: 200,
    log: silent,
  });
  return {
    runtime,
    c,
    /** Watches the namespace and loads the stored records, as Hangar does at start. */
    async start() {
      await runtime.ready();
      await c.start();
    },
    until: (id: string, want: string[], ms = 60_000) =>
      waitFor(`sandbox ${id} in ${want}`, ms, async () => (want.includes(c.get("t", id).state) ? c.get("t", id) : undefined)),
    /** Runs a command in tenant t's sandbox to completion: its stdout+stderr and exit code. */
    async run(id: string, argv: string[], env?: Record<string, string>, stdin?: Buffer) {
      const h = await c.exec("t", id, { argv, env });
      if (stdin) await h.process.write(stdin);
      h.process.closeStdin();
      let out = "";
      for await (const x of h.process.output()) out += x.data.toString();
      const { exitCode } = await h.process.exited;
      h.release();
      return { out, exitCode };
    },
  };
}
