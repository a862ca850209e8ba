/**
 * What the console shows of a sandbox: pure functions of its record (and now). Values a tenant
 * wrote (tags, names, argv, reasons) go out as JSON strings; the page puts them in the DOM as text.
 * Environment values are not shown (they may hold credentials): only their names.
 */
import type { SandboxRecord } from "../core/types.js";

export interface HistoryEntry {
  atMs: number;
  state: string;
  note: string;
}

/** State as the API shows it: a CREATING sandbox whose image is being pulled is PREPARING. */
export const shownState = (r: SandboxRecord): string => (r.state === "CREATING" && r.preparing ? "PREPARING" : r.state);

export function listItem(r: SandboxRecord) {
  return {
    id: r.id,
    tenant: r.tenant,
    name: r.displayName ?? "",
    state: shownState(r),
    reason: r.stateReason,
    /** While PREPARING: the pull's bytes and layers so far (the page draws a bar). */
    pull: r.state === "CREATING" && r.preparing && r.pull ? r.pull : null,
    tags: r.spec.tags,
    image: r.spec.image,
    createdAtMs: r.createdAtMs,
    startedAtMs: r.startedAtMs ?? null,
    endedAtMs: r.endedAtMs ?? null,
    exitCode: r.exitCode ?? null,
    runner: r.runnerId,
  };
}

/**
 * The status history the record proves: accepted, running, stop asked, ended, deleted — each with
 * when, oldest first. The record is what every replica shares, so each replica tells the same story.
 */
export function statusHistory(r: SandboxRecord): HistoryEntry[] {
  const h: HistoryEntry[] = [{ atMs: r.createdAtMs, state: "CREATING", note: `accepted on runner ${r.runnerId}` }];
  if (r.startedAtMs !== undefined) h.push({ atMs: r.startedAtMs, state: "RUNNING", note: r.imageNote || "started" });
  if (r.stop) {
    const why = r.stop.why === "expired" ? "its lifetime ended" : r.stop.why === "purged" ? "purged" : "deleted";
    h.push({ atMs: r.stop.requestedAtMs, state: "STOPPING", note: `stop asked: ${why} (grace ${Math.round(r.stop.graceMs / 1000)} s)` });
  }
  if (r.endedAtMs !== undefined) {
    const code = r.exitCode === undefined ? "" : `exit code ${r.exitCode}; `;
    h.push({ atMs: r.endedAtMs, state: r.state, note: `${code}${r.stateReason}` });
  } else if (r.state !== "RUNNING" || r.startedAtMs === undefined) {
    h.push({ atMs: Math.max(r.createdAtMs, r.startedAtMs ?? 0), state: shownState(r), note: r.stateReason });
  }
  if (r.deletedAtMs !== undefined)
    h.push({ atMs: r.deletedAtMs, state: r.state, note: "deleted: kept for Get and List until retention ends" });
  return h.sort((a, b) => a.atMs - b.atMs);
}

export function detail(r: SandboxRecord) {
  const s = r.spec;
  return {
    ...listItem(r),
    spec: {
      argv: s.argv,
      envNames: Object.keys(s.env).sort(),
      secrets: (s.secrets ?? []).map((x) => x.envVar),
      workingDir: s.workingDir ?? null,
      requests: s.requests,
      limits: s.limits,
      lifetimeSeconds: r.effectiveLifetimeSeconds,
      runtimeClass: r.effectiveRuntimeClass ?? null,
      egress: (r.effectiveEgress ?? []).map((g) => (g.to === "any" ? "any" : "hostname" in g.to ? g.to.hostname : g.to.cidr)),
      volumes: s.volumes.map((v) => v.mountPath),
      sidecars: (s.sidecars ?? []).map((c) => ({ name: c.name, image: c.image })),
      files: s.files.map((f) => f.path),
    },
    history: statusHistory(r),
  };
}
