/**
 * The PromQL of the chart's alerts and dashboards, read for the tests: every query with Grafana's
 * variables put in, and the metric names each selects read with Prometheus's own PromQL grammar
 * (@prometheus-io/lezer-promql). Used by test/chart/promql.test.ts and the cluster tier's
 * test/integration/dashboards.test.ts.
 */
import { parser } from "@prometheus-io/lezer-promql";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";

const HELM = process.env.HANGAR_HELM ?? "helm";
const CHART = "charts/hangar";
/** Series Prometheus itself writes for every target it scrapes (not on /metrics). */
export const PROMETHEUS_OWN = new Set(["up"]);
/** What Grafana puts in place of a dashboard's variables before the query goes out (the rate window: `rateWindow`). */
const grafanaVariables = (rateWindow: string): [RegExp, string][] => [
  [/\$__rate_interval/g, rateWindow],
  [/\$(job|tenant|pool|runner)\b/g, ".*"],
];

export type Query = { where: string; expr: string };

/** The rendered PrometheusRule's alert expressions. */
export function alertQueries(): Query[] {
  const out = execFileSync(
    HELM,
    [
      "template",
      "hangar",
      CHART,
      "-n",
      "hangar",
      "--kube-version",
      "1.33.0",
      "--set",
      "auth.open=true",
      "--set",
      "prometheusRule.enabled=true",
    ],
    { encoding: "utf8" },
  );
  const rule = parseAllDocuments(out)
    .map((d) => d.toJS())
    .find((o) => o?.kind === "PrometheusRule");
  return (rule.spec.groups as { rules: { alert: string; expr: string }[] }[]).flatMap((g) =>
    g.rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr })),
  );
}

/** Every query of the dashboards: each panel's targets, and each variable's label_values(selector, label). */
export function dashboardQueries(): Query[] {
  const dir = `${CHART}/dashboards`;
  return readdirSync(dir).flatMap((f) => {
    const d = JSON.parse(readFileSync(path.join(dir, f), "utf8"));
    const targets = (d.panels as { title: string; targets?: { expr: string }[] }[]).flatMap((p) =>
      (p.targets ?? []).map((t) => ({ where: `${f}: ${p.title}`, expr: t.expr })),
    );
    const variables = (d.templating.list as { name: string; type: string; query?: { query: string } }[])
      .filter((v) => v.type === "query")
      .map((v) => {
        const m = /^label_values\((.+), *[a-zA-Z_][a-zA-Z0-9_]*\)$/.exec(v.query?.query ?? "");
        if (!m) throw new Error(`${f}: variable ${v.name} is not label_values(selector, label)`);
        return { where: `${f}: variable ${v.name}`, expr: m[1]! };
      });
    return [...targets, ...variables];
  });
}

export const withVariables = (expr: string, rateWindow = "5m") =>
  grafanaVariables(rateWindow).reduce((e, [re, v]) => e.replace(re, v), expr);

/** The metric names a PromQL expression selects, read from its syntax tree; throws where it does not parse. */
export function metricNames(expr: string): string[] {
  const tree = parser.parse(expr);
  const names: string[] = [];
  let error: number | undefined;
  tree.iterate({
    enter(n) {
      if (n.type.isError) error ??= n.from;
      if (n.name === "Identifier" && n.node.parent?.name === "VectorSelector") names.push(expr.slice(n.from, n.to));
      if (n.name === "LabelName" && expr.slice(n.from, n.to) === "__name__") throw new Error(`selects by __name__: ${expr}`);
    },
  });
  if (error !== undefined) throw new Error(`does not parse at ${error}: ${expr}`);
  return names;
}

/** The series names a /metrics text exports (a histogram's _bucket, _sum and _count included). */
export function exported(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = m as unknown as [string, string, string];
    out.add(name);
    if (type === "histogram") for (const s of ["_bucket", "_sum", "_count"]) out.add(name + s);
    if (type === "summary") for (const s of ["_sum", "_count"]) out.add(name + s);
  }
  return out;
}
