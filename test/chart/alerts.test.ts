/**
 * The chart's dashboards and alerts: the ConfigMaps Grafana's sidecar picks up and the
 * PrometheusRule appear when enabled (and not by default); the rules pass `promtool check rules`
 * and the cases of alerts.promtool.yaml (one that fires and one that stays silent for every
 * alert) under `promtool test rules` (HANGAR_PROMTOOL, built from its Go module); every alert
 * points at its own section of docs/runbooks.md.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";

const HELM = process.env.HANGAR_HELM ?? "helm";
const PROMTOOL = process.env.HANGAR_PROMTOOL ?? "promtool";
const CHART = "charts/hangar";
type Obj = {
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  data?: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
};
type Rule = { alert: string; expr: string; for?: string; labels: Record<string, string>; annotations: Record<string, string> };

function render(args: string[], release = "t"): Obj[] {
  const out = execFileSync(
    HELM,
    ["template", release, CHART, "-n", "hangar", "--kube-version", "1.33.0", "--set", "auth.open=true", ...args],
    {
      encoding: "utf8",
    },
  );
  return parseAllDocuments(out)
    .map((d) => d.toJS() as Obj)
    .filter(Boolean);
}
const rulesOf = (objs: Obj[]): Rule[] =>
  objs.filter((o) => o.kind === "PrometheusRule").flatMap((o) => (o.spec.groups as { rules: Rule[] }[]).flatMap((g) => g.rules));
/** The anchors of docs/runbooks.md's sections, as a Markdown renderer makes them from `## Name`. */
const anchors = () =>
  new Set(
    [...readFileSync("docs/runbooks.md", "utf8").matchAll(/^## (.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, "")
        .replace(/ /g, "-"),
    ),
  );

describe("dashboards and alerts in the chart", () => {
  it("are off by default: no dashboard ConfigMap, no PrometheusRule", () => {
    const objs = render([]);
    expect(objs.filter((o) => o.kind === "PrometheusRule")).toEqual([]);
    expect(objs.filter((o) => o.kind === "ConfigMap" && o.metadata.name.endsWith("-dashboard"))).toEqual([]);
  });

  it("dashboards: one ConfigMap per dashboard with the sidecar's label, each a Grafana dashboard of its own uid", () => {
    const maps = render(["--set", "dashboards.enabled=true"]).filter(
      (o) => o.kind === "ConfigMap" && o.metadata.name.endsWith("-dashboard"),
    );
    expect(maps.map((m) => m.metadata.name).sort()).toEqual([
      "t-hangar-kubernetes-dashboard",
      "t-hangar-overview-dashboard",
      "t-hangar-pools-dashboard",
      "t-hangar-sandboxes-dashboard",
    ]);
    const uids = new Set<string>();
    for (const m of maps) {
      expect(m.metadata.labels).toMatchObject({ grafana_dashboard: "1", "app.kubernetes.io/instance": "t" });
      expect(m.metadata.namespace).toBe("hangar");
      const [file, text] = Object.entries(m.data ?? {})[0]!;
      expect(file).toMatch(/^hangar-[a-z]+\.json$/);
      expect(text).toBe(readFileSync(`${CHART}/dashboards/${file}`, "utf8"));
      const d = JSON.parse(text);
      expect(d.title).toMatch(/^Hangar \/ /);
      expect(d.panels.length).toBeGreaterThan(4);
      uids.add(d.uid);
    }
    expect(uids.size).toBe(4);
  });

  it("dashboards: the operator's labels, annotations (a folder) and namespace reach every ConfigMap", () => {
    const args = [
      "--set",
      "dashboards.enabled=true",
      "--set",
      "dashboards.labels.grafana_dashboard=hangar",
      "--set",
      "dashboards.annotations.grafana_folder=Hangar",
      "--set",
      "dashboards.namespace=monitoring",
    ];
    const maps = render(args).filter((o) => o.kind === "ConfigMap" && o.metadata.name.endsWith("-dashboard"));
    expect(maps).toHaveLength(4);
    for (const m of maps) {
      expect(m.metadata.labels?.grafana_dashboard).toBe("hangar");
      expect(m.metadata.annotations).toEqual({ grafana_folder: "Hangar" });
      expect(m.metadata.namespace).toBe("monitoring");
    }
  });

  it("the PrometheusRule: at least ten alerts, each with a severity and a runbook_url at its own section of docs/runbooks.md", () => {
    const objs = render([
      "--set",
      "prometheusRule.enabled=true",
      "--set",
      "prometheusRule.labels.release=prom",
      "--set",
      "prometheusRule.runbookBaseUrl=https://git.example.com/hangar/docs/runbooks.md",
    ]);
    const rule = objs.find((o) => o.kind === "PrometheusRule")!;
    expect(rule.metadata.labels?.release).toBe("prom");
    const rules = rulesOf(objs);
    expect(rules.length).toBeGreaterThanOrEqual(10);
    const sections = anchors();
    for (const r of rules) {
      expect(r.labels.severity, r.alert).toMatch(/^(critical|warning|info)$/);
      expect(r.annotations.summary, r.alert).toBeTruthy();
      expect(r.annotations.runbook_url).toBe(`https://git.example.com/hangar/docs/runbooks.md#${r.alert.toLowerCase()}`);
      expect(sections.has(r.alert.toLowerCase()), `docs/runbooks.md has no "## ${r.alert}"`).toBe(true);
    }
    // The alert on replicas selects this release's Service (the ServiceMonitor's job label).
    expect(rules.find((r) => r.alert === "HangarNoReplicaUp")?.expr).toContain('up{job="t-hangar",namespace="hangar"}');
  });

  it("promtool check rules, and promtool test rules: a case that fires and one that stays silent for every alert", () => {
    const rules = rulesOf(render(["--set", "prometheusRule.enabled=true"], "hangar"));
    const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-alerts-"));
    const rendered = render(["--set", "prometheusRule.enabled=true"], "hangar").find((o) => o.kind === "PrometheusRule")!;
    writeFileSync(path.join(dir, "rules.yaml"), JSON.stringify({ groups: rendered.spec.groups }));
    expect(execFileSync(PROMTOOL, ["check", "rules", path.join(dir, "rules.yaml")], { encoding: "utf8" })).toContain(
      `SUCCESS: ${rules.length} rules found`,
    );
    copyFileSync("test/chart/alerts.promtool.yaml", path.join(dir, "alerts.promtool.yaml"));
    const out = execFileSync(PROMTOOL, ["test", "rules", "alerts.promtool.yaml"], { cwd: dir, encoding: "utf8" });
    expect(out).toContain("SUCCESS");
    const cases = parse(readFileSync("test/chart/alerts.promtool.yaml", "utf8")) as {
      tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    const checks = cases.tests.flatMap((t) => t.alert_rule_test);
    const names = rules.map((r) => r.alert).sort();
    expect([...new Set(checks.filter((c) => c.exp_alerts.length > 0).map((c) => c.alertname))].sort(), "fires").toEqual(names);
    expect([...new Set(checks.filter((c) => c.exp_alerts.length === 0).map((c) => c.alertname))].sort(), "stays silent").toEqual(names);
  });
});
