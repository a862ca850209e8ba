/**
 * HANGAR_KUBE_WARM_POOLS entries resolved to pools (pure, table-tested): template pools to what
 * their pods are made with, each pool to its runner, and the entries no pool pod could serve refused.
 */
import type { SandboxSpec } from "../../../core/types.js";
import { isHostnameGrant, minOf, poolKey, poolShapeOf, type WarmPoolConfig, type WarmPoolEntry } from "./config.js";

/**
 * Template pools resolved to what their pods are made with (pure, table-tested): `specOf` gives a
 * shared template's sandbox spec as a run with no overrides would (undefined: no such template).
 * A template that a pool pod could not serve, or two pools that make the same pod, stop the start.
 * egressFixedAtStart: egress rules are set when a pod starts (netinit), so a pool pod (started
 * with none) can serve only sandboxes that allow none.
 */
export function resolveWarmPools(
  entries: WarmPoolEntry[],
  specOf: (id: string) => SandboxSpec | undefined,
  allowsEgress: (spec: SandboxSpec) => boolean,
  egressFixedAtStart: boolean,
  runners: { runnerId: string; nodeSelector: Record<string, string> }[] = [],
): WarmPoolConfig[] {
  const byKey = new Map<string, string>();
  return entries.map((e) => {
    const label = `${"template" in e ? `template:${e.template}` : e.image}${e.https ? "+https" : ""}${e.egress ? "+egress" : ""}${e.runner ? `@${e.runner}` : ""}`;
    const runner = e.runner ? runners.find((r) => r.runnerId === e.runner) : runners[0];
    if (e.runner && !runner)
      throw new Error(
        `${label}: no runner has the id ${e.runner} (HANGAR_KUBE_RUNNERS lists ${runners.map((r) => r.runnerId).join(", ") || "none"})`,
      );
    const placement = runner
      ? { runnerId: runner.runnerId, ...(Object.keys(runner.nodeSelector).length ? { nodeSelector: runner.nodeSelector } : {}) }
      : {};
    let pool: WarmPoolConfig;
    if ("template" in e) {
      const spec = specOf(e.template);
      if (!spec)
        throw new Error(
          `template:${e.template}: no shared template has this id (HANGAR_SHARED_TEMPLATES_FILE); a pool serves the operator's templates only`,
        );
      const s = poolShapeOf(spec);
      if ("reason" in s) throw new Error(`template:${e.template}: a warm pod cannot serve its sandboxes: ${s.reason}`);
      // Hostname grants alone go through the proxy: such a template's pods are made for it (`+https`).
      const hostnamesOnly = !!spec.egress?.length && spec.egress.every(isHostnameGrant);
      if (egressFixedAtStart && allowsEgress(spec) && !hostnamesOnly && !e.egress)
        throw new Error(
          `template:${e.template}: a warm pod cannot serve its sandboxes: they allow egress by address or port, and with netinit enforcement a pod's egress rules are set when it starts (hostname grants alone are served by a +https pool; template:${e.template}=<size>+egress makes pods whose rules are set at claim)`,
        );
      const https = !e.egress && (e.https || (egressFixedAtStart && hostnamesOnly));
      pool = {
        image: spec.image,
        size: e.size,
        ...minOf(e),
        shape: { ...s.shape, ...(https ? { https } : {}), ...(e.egress ? { egressRules: true } : {}) },
        template: e.template,
        ...placement,
      };
    } else
      pool = {
        image: e.image,
        size: e.size,
        ...minOf(e),
        ...(e.https || e.caps || e.egress
          ? {
              shape: {
                requests: {},
                limits: {},
                ...(e.https ? { https: true } : {}),
                ...(e.caps ? { caps: e.caps } : {}),
                ...(e.egress ? { egressRules: true } : {}),
              },
            }
          : {}),
        ...placement,
      };
    if ((pool.shape?.https || pool.shape?.egressRules) && !egressFixedAtStart)
      throw new Error(
        `${label}: +https and +egress pools are for netinit enforcement (HANGAR_KUBE_EGRESS_ENFORCEMENT=netinit), where a pod's egress rules are set in its network namespace`,
      );
    const key = poolKey(pool.image, pool.shape, pool.nodeSelector);
    const other = byKey.get(key);
    if (other)
      throw new Error(`${label} and ${other} make the same pod (image, resources, working directory, node selector): configure one`);
    byKey.set(key, label);
    return pool;
  });
}
