/**
 * Every PromQL expression of the chart's alerts and dashboards parses, and every metric it names
 * is one Hangar exports. The names are read with Prometheus's own PromQL grammar
 * (@prometheus-io/lezer-promql), the expressions checked again by promtool (HANGAR_PROMTOOL,
 * built from its Go module), and the exported names read from the /metrics of a real Hangar
 * assembled in-process as cmd/main.ts assembles it (local runtime, bubblewrap), after a sandbox
 * ran a command. The Kubernetes runtime's own metrics come from the same assembly over a runtime
 * that has every optional stats method of the Runtime interface (runtime/types.ts).
 */
import * as grpc from "@grpc/grpc-js";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthenticator } from "../../api/auth.js";
import { loadApi, PROTO_DIR } from "../../api/proto.js";
import { createGrpcServer } from "../../api/server.js";
import { buildController } from "../../cmd/build-controller.js";
import { buildLocalRuntime } from "../../cmd/build-local-runtime.js";
import { loadConfig } from "../../cmd/config.js";
import type { Runtime } from "../../runtime/types.js";
import { fakeRuntime } from "../unit/fake-runtime.js";
import { alertQueries, dashboardQueries, exported, metricNames, PROMETHEUS_OWN, withVariables } from "./promql.js";

const PROMTOOL = process.env.HANGAR_PROMTOOL ?? "promtool";

describe("the PromQL of the chart's alerts and dashboards", () => {
  const queries = [...alertQueries(), ...dashboardQueries()].map((q) => ({ ...q, expr: withVariables(q.expr) }));

  it("reads names only with a real parser: a broken expression is refused, names come from selectors only", () => {
    expect(() => metricNames("sum(rate(hangar_sandboxes[5m])")).toThrow(/does not parse/);
    expect(() => metricNames('{__name__="hangar_sandboxes"}')).toThrow(/__name__/);
    expect(metricNames('histogram_quantile(0.9, sum by (le) (rate(a_bucket{method="b"}[5m]))) / on () group_left c')).toEqual([
      "a_bucket",
      "c",
    ]);
  });

  it("every expression parses, and promtool (Prometheus's own parser) takes each one", () => {
    expect(queries.length).toBeGreaterThan(40);
    for (const q of queries) expect(() => metricNames(q.expr), q.where).not.toThrow();
    const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-promql-"));
    const file = path.join(dir, "queries.yaml");
    const rules = queries.map((q, i) => ({ record: `hangar_test:query_${i}`, expr: q.expr }));
    writeFileSync(file, JSON.stringify({ groups: [{ name: "queries", rules }] }));
    expect(execFileSync(PROMTOOL, ["check", "rules", file], { encoding: "utf8" })).toContain(`SUCCESS: ${rules.length} rules found`);
  });

  describe("every metric named is one Hangar exports", () => {
    let metricsText = "";
    let kubeText = "";
    const closers: (() => Promise<unknown>)[] = [];
    beforeAll(async () => {
      metricsText = await localHangarMetrics(closers);
      kubeText = await kubeShapedMetrics();
    }, 60_000);
    afterAll(async () => {
      for (const c of closers.reverse()) await c();
    });

    it("the local Hangar's /metrics shows what a create and a command leave", () => {
      expect(metricsText).toMatch(/^hangar_sandbox_start_duration_seconds_count 1$/m);
      expect(metricsText).toMatch(/^hangar_exec_duration_seconds_count\{outcome="\w+"\} 1$/m);
      expect(metricsText).toContain('hangar_info{runtime="local"} 1');
    });

    it("each name of each query", () => {
      const names = new Set([...exported(metricsText), ...exported(kubeText), ...PROMETHEUS_OWN]);
      const missing = queries.flatMap((q) =>
        metricNames(q.expr)
          .filter((n) => !names.has(n))
          .map((n) => `${q.where}: ${n}`),
      );
      expect(missing).toEqual([]);
    });

    it("a name Hangar does not export is caught", () => {
      const names = new Set([...exported(metricsText), ...exported(kubeText)]);
      expect(metricNames("rate(hangar_grpc_requests_totl[5m])").filter((n) => !names.has(n))).toEqual(["hangar_grpc_requests_totl"]);
    });
  });
});

/** A real Hangar on the local runtime, as cmd/main.ts builds it; one sandbox created and one command run; its /metrics text. */
async function localHangarMetrics(closers: (() => Promise<unknown>)[]): Promise<string> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "hangar-promql-"));
  chmodSync(tmp, 0o755);
  const env = {
    HANGAR_DATA_DIR: path.join(tmp, "data"),
    HANGAR_LISTEN: "127.0.0.1:0",
    HANGAR_METRICS_LISTEN: "127.0.0.1:0",
    HANGAR_LOCAL_IMAGES: "*=/",
    HANGAR_LOCAL_IMAGE_PULL: "false",
  };
  const cfg = loadConfig(env, [], process.cwd());
  const log = pino({ level: "silent" });
  const runtime = buildLocalRuntime(cfg, log, process.cwd());
  const { controller, metrics } = await buildController(cfg, log, {
    runtime,
    secrets: undefined,
    sharedTemplates: [],
    trimLoop: undefined,
  });
  await controller.start();
  closers.push(() => controller.close());
  const api = createGrpcServer({
    controller,
    authenticate: createAuthenticator(undefined, {}),
    metrics,
    log,
    protoDir: PROTO_DIR,
    sandbox: {
      specLimits: { maxLifetimeSeconds: 600 },
      exec: { deadlineMarginMs: 5000, defaultMaxOutputBytes: 1 << 20, maxOutputBytes: 1 << 20 },
      maxGraceSeconds: 60,
      getHoldMs: 2000,
    },
  });
  const port = await api.listen("127.0.0.1:0");
  closers.push(() => api.shutdown(1000));
  const server = await metrics.listen("127.0.0.1", 0);
  closers.push(() => new Promise((r) => server.close(r)));
  const { v1 } = loadApi(PROTO_DIR);
  const c = new v1.SandboxService(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as Record<
    string,
    (r: object, m: grpc.Metadata, o: object, cb: (e: grpc.ServiceError | null, r: Record<string, unknown>) => void) => void
  > & { close(): void };
  closers.push(async () => c.close());
  const call = (method: string, req: object) =>
    new Promise<Record<string, unknown>>((res, rej) =>
      c[method]!.call(c, req, new grpc.Metadata(), { deadline: Date.now() + 30_000 }, (e, r) => (e ? rej(e) : res(r))),
    );
  const created = await call("CreateSandbox", { sandbox: { spec: { containers: [{ name: "main", image: "python:3.11" }] } } });
  const id = String(created.sandbox_id);
  await call("Exec", { sandbox_id: id, command: ["/bin/true"] });
  await call("DeleteSandbox", { sandbox_id: id });
  const address = server.address() as { port: number };
  return (await fetch(`http://127.0.0.1:${address.port}/metrics`)).text();
}

/** The same assembly over a runtime with every optional stats method the Kubernetes runtime has. */
async function kubeShapedMetrics(): Promise<string> {
  const base = fakeRuntime();
  const runtime: Runtime = Object.assign(Object.create(base) as Runtime, {
    name: "kubernetes",
    watchStats: () => ({ relists: 0 }),
    execStats: () => ({ direct: 1, agent: 0, plain: 0 }),
    agentStats: () => ({ found: 1, installed: 0, unusable: 0 }),
    poolStats: () => [{ pool: "p", size: 1, idle: 1, ready: 1, hits: 0, misses: 0, refills: 1, refillFailures: 0 }],
    netinitStats: () => ({ failures: 0 }),
    apiStats: () => [
      { verb: "GET", resource: "pods", count: 1 },
      { verb: "GET", resource: "pods", code: "200", count: 1 },
    ],
    podStats: () => ({ withoutRecord: 0 }),
    runners: () => [
      {
        ...base.runners()[0]!,
        gpus: { perNodeMax: 1, total: 1, available: 1, types: [] },
      },
    ],
  });
  const env = { HANGAR_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "hangar-promql-")), HANGAR_METRICS_LISTEN: "127.0.0.1:0" };
  const cfg = loadConfig(env, [], process.cwd());
  const { metrics } = await buildController(cfg, pino({ level: "silent" }), {
    runtime,
    secrets: undefined,
    sharedTemplates: [],
    trimLoop: undefined,
  });
  return metrics.registry.metrics();
}
