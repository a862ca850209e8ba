/** Domain record -> proto Sandbox: the spec echoed as sent, the status from the record. */
import { type EgressGrant, isTerminal, NODE_DEFAULT_RUNTIME_CLASS, type SandboxRecord, serviceKey } from "../core/types.js";
import type { EgressRule } from "./generated/coreweave/sandbox/v1/EgressRule.js";
import type { Sandbox } from "./generated/coreweave/sandbox/v1/Sandbox.js";
import type { SandboxSpec__Output } from "./generated/coreweave/sandbox/v1/SandboxSpec.js";
import type { Timestamp } from "./generated/google/protobuf/Timestamp.js";
import { wireStateReason } from "./wire-fields.js";

export const timestamp = (ms: number): Timestamp => ({ seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 });

const toProtoEgress = (g: EgressGrant): EgressRule => ({
  ...(g.to === "any"
    ? { any: true }
    : "hostname" in g.to
      ? { https_hostname: g.to.hostname }
      : { cidr: { cidr: g.to.cidr, except: g.to.except } }),
  ports: g.ports.map((p) => ({ protocol: p.protocol, port: p.port, ...(p.endPort ? { end_port: p.endPort } : {}) })),
});

/** reportPreparing: a CREATING sandbox whose image is being pulled shows as STATE_PREPARING (SDK >= 1.22 knows it). */
export function toProtoSandbox(r: SandboxRecord, reportPreparing = true): Sandbox {
  const state = r.state === "CREATING" && r.preparing && reportPreparing ? ("STATE_PREPARING" as const) : (`STATE_${r.state}` as const);
  const spec = r.echo as SandboxSpec__Output;
  const container = spec.containers?.find((x) => x.primary) ?? spec.containers?.[0];
  const terminal = isTerminal(r.state);
  return {
    sandbox_id: r.id,
    display_name: r.displayName ?? "",
    ...(r.spec.compose ? { control: "CONTROL_PLATFORM" as const } : {}),
    spec,
    status: {
      state,
      state_reason: wireStateReason(r.stateReason),
      create_time: timestamp(r.createdAtMs),
      start_time: r.startedAtMs !== undefined ? timestamp(r.startedAtMs) : null,
      end_time: r.endedAtMs !== undefined && terminal ? timestamp(r.endedAtMs) : null,
      ...(terminal && r.exitCode !== undefined ? { exit_code: r.exitCode } : {}),
      runner_id: r.runnerId,
      runner_group_id: r.runnerGroupId,
      effective_max_lifetime_seconds: r.effectiveLifetimeSeconds,
      effective_runtime_class: r.effectiveRuntimeClass ?? NODE_DEFAULT_RUNTIME_CLASS,
      effective_resource_requirements: container?.resource_requirements ?? null,
      effective_resources: container?.resources ?? null,
      // The address while the sandbox can serve (the SDK: "empty after the sandbox stops").
      services: (spec.services ?? []).map((s, i) => {
        const mine = r.spec.services?.[i];
        const url = mine && !terminal && r.state !== "TERMINATING" ? r.serviceUrls?.[serviceKey(mine)] : undefined;
        const visibility = mine ? (mine.public ? "VISIBILITY_PUBLIC" : "VISIBILITY_PRIVATE") : s.visibility;
        // A TLS passthrough port is reached at host:port (its SNI name), not at a URL.
        if (mine?.tls)
          return {
            port: s.port,
            name: s.name,
            protocol: s.protocol,
            visibility,
            endpoint: { kind: "ENDPOINT_KIND_TLS_PASSTHROUGH" as const, ...(url ? { address: url } : {}) },
          };
        // An HTTPS endpoint's URL is in its endpoint status (where the SDK reads it) and, for clients
        // that predate endpoints, in `url` too; request_timeout_seconds 0: the Gateway's own.
        if (mine?.https)
          return {
            port: s.port,
            name: s.name,
            protocol: s.protocol,
            visibility,
            ...(url ? { url } : {}),
            endpoint: {
              kind: "ENDPOINT_KIND_HTTPS" as const,
              auth: mine.shareToken ? ("ENDPOINT_AUTH_SHARE_TOKEN" as const) : ("ENDPOINT_AUTH_OPEN" as const),
              ...(url ? { url } : {}),
            },
          };
        return { port: s.port, name: s.name, protocol: s.protocol, visibility, ...(url ? { url } : {}) };
      }),
      effective_egress: (r.effectiveEgress ?? []).map(toProtoEgress),
      attached_volume_ids: [...new Set(r.spec.volumes.flatMap((m) => (m.registered ? [m.registered.id] : [])))],
      // One row per container as sent; a sidecar's row follows the sandbox (its primary).
      container_statuses: (spec.containers?.length ? spec.containers : [{ name: "main" }]).map((x) => ({
        name: x.name || "main",
        state,
        exit_code: r.exitCode ?? 0,
      })),
    },
  };
}
