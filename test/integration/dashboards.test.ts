/**
 * The chart's dashboards against a real Prometheus (built from its Go module:
 * test/cluster/build-prometheus.sh, HANGAR_PROMETHEUS) scraping a Hangar on the test cluster,
 * assembled as cmd/main.ts assembles it (the Kubernetes runtime as the least-privilege
 * ServiceAccount, a warm pool of one, netinit): after a few sandboxes were created (one from the
 * pool, the rest cold), ran commands and were listed and deleted, every query of every dashboard
 * returns data — except the few whose series only exist once their event happened (EVENT_ONLY),
 * which must still be on /metrics by name.
 */
import * as grpc from "@grpc/grpc-js";
import * as k8s from "@kubernetes/client-node";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthenticator } from "../../api/auth.js";
import { loadApi, PROTO_DIR } from "../../api/proto.js";
import { createGrpcServer } from "../../api/server.js";
import { buildController } from "../../cmd/build-controller.js";
import { buildRuntime } from "../../cmd/build-runtime.js";
import { loadConfig } from "../../cmd/config.js";
import { readKeys, readTemplatesAndPools } from "../../cmd/startup-inputs.js";
import { dashboardQueries, metricNames, withVariables } from "../chart/promql.js";
import { POOL_LABEL } from "../../runtime/kubernetes/pool/warm-pool.js";
import { kubeConfig, NAMESPACE, PYTHON_IMAGE, releaseRecords, waitFor } from "./kube.js";

const PROMETHEUS = process.env.HANGAR_PROMETHEUS;
const KEY = "alpha-0123456789abcdef0123";
/** Series that exist only once their event happened (a failed kill, a refused call) or where the cluster has it (GPUs). */
const EVENT_ONLY: Record<string, string> = {
  hangar_kill_failures_total: "a kill that failed",
  hangar_tenant_limit_refusals_total: "a call refused at a tenant's limit",
  hangar_runner_gpus: "a runner with GPU nodes (the test cluster has none)",
};

const closers: (() => Promise<unknown>)[] = [];
let promUrl = "";
let metricsText = "";

async function startHangar(tmp: string) {
  const kubeconfig = (process.env.KUBECONFIG as string).replace(/kubeconfig$/, "hangar-sa.kubeconfig");
  writeFileSync(path.join(tmp, "keys"), `alpha:${KEY}\n`);
  const cfg = loadConfig(
    {
      HANGAR_RUNTIME: "kubernetes",
      KUBECONFIG: kubeconfig,
      HANGAR_NAMESPACE: NAMESPACE,
      HANGAR_STARTUP_TIMEOUT_SECONDS: "60",
      HANGAR_KUBE_NETINIT_IMAGE: readFileSync(".cluster/netinit-image", "utf8").trim(),
      HANGAR_KUBE_WARM_POOLS: `${PYTHON_IMAGE}=1`,
      HANGAR_KUBE_EXEC_AGENT: "true",
      HANGAR_API_KEYS_FILE: path.join(tmp, "keys"),
      HANGAR_DATA_DIR: path.join(tmp, "data"),
      HANGAR_SNAPSHOT_DIR: "off",
      HANGAR_LISTEN: "127.0.0.1:0",
      HANGAR_METRICS_LISTEN: "127.0.0.1:0",
    },
    [],
    process.cwd(),
  );
  const log = pino({ level: "silent" });
  const { warmPools } = readTemplatesAndPools(cfg);
  const { runtime } = await buildRuntime(cfg, log, warmPools, process.cwd());
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
    authenticate: createAuthenticator(readKeys(cfg), {}),
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
  closers.push(() => api.shutdown(5000));
  const server = await metrics.listen("127.0.0.1", 0);
  closers.push(() => new Promise((r) => server.close(r)));
  return { port, metricsPort: (server.address() as { port: number }).port };
}

/** A port nothing listens on now (Prometheus logs the address it was given, not the one it got). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

async function startPrometheus(tmp: string, metricsPort: number): Promise<string> {
  const config = path.join(tmp, "prometheus.yml");
  // job and namespace as a ServiceMonitor labels them; 1 s scrapes so rates have samples soon.
  writeFileSync(
    config,
    JSON.stringify({
      global: { scrape_interval: "1s", evaluation_interval: "1s" },
      scrape_configs: [
        { job_name: "hangar", static_configs: [{ targets: [`127.0.0.1:${metricsPort}`], labels: { namespace: NAMESPACE } }] },
      ],
    }),
  );
  const url = `http://127.0.0.1:${await freePort()}`;
  let log = "";
  const proc: ChildProcess = spawn(
    PROMETHEUS as string,
    [`--config.file=${config}`, `--storage.tsdb.path=${path.join(tmp, "tsdb")}`, `--web.listen-address=${url.slice("http://".length)}`],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  proc.stderr?.on("data", (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  closers.push(async () => proc.kill("SIGTERM"));
  await waitFor("prometheus ready", 60_000, async () => {
    if (proc.exitCode !== null) throw new Error(`prometheus exited ${proc.exitCode}: ${log}`);
    return (await fetch(`${url}/-/ready`).catch(() => undefined))?.ok ? true : undefined;
  });
  return url;
}

async function query(expr: string): Promise<unknown[]> {
  const r = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await r.json()) as { status: string; error?: string; data: { result: unknown[] } };
  if (body.status !== "success") throw new Error(`${expr}: ${body.error}`);
  return body.data.result;
}

/** Sandboxes through the API: one claims the pool's pod, the others start cold; each runs commands; all are listed and deleted. */
async function workload(port: number) {
  const { v1 } = loadApi(PROTO_DIR);
  type Cb = (e: grpc.ServiceError | null, r: Record<string, unknown>) => void;
  const c = new v1.SandboxService(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as Record<
    string,
    (r: object, m: grpc.Metadata, o: object, cb: Cb) => void
  > & { close(): void };
  const discovery = new v1.DiscoveryService(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as typeof c;
  closers.push(async () => c.close());
  closers.push(async () => discovery.close());
  const md = () => {
    const m = new grpc.Metadata();
    m.set("authorization", `Bearer ${KEY}`);
    return m;
  };
  const call = (method: string, req: object, on = c) =>
    new Promise<Record<string, unknown>>((res, rej) =>
      on[method]!.call(on, req, md(), { deadline: Date.now() + 120_000 }, (e, r) => (e ? rej(e) : res(r))),
    );
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await call("CreateSandbox", {
      sandbox: { spec: { containers: [{ name: "main", image: PYTHON_IMAGE }] } },
    });
    ids.push(String(r.sandbox_id));
  }
  for (const id of ids) {
    await call("Exec", { sandbox_id: id, command: ["/bin/true"] });
    await call("Exec", { sandbox_id: id, command: ["/bin/sh", "-c", "exit 3"] });
  }
  await call("ListSandboxes", {});
  await call("ListAvailableRunners", {}, discovery);
  // One stays live until the end: the per-tenant panels show live use.
  for (const id of ids.slice(1)) await call("DeleteSandbox", { sandbox_id: id });
  closers.push(() => call("DeleteSandbox", { sandbox_id: ids[0]! }));
}

beforeAll(async () => {
  if (!PROMETHEUS) throw new Error("HANGAR_PROMETHEUS is not set: HANGAR_PROMETHEUS=$(bash test/cluster/build-prometheus.sh)");
  const tmp = mkdtempSync(path.join(os.tmpdir(), "hangar-dashboards-"));
  const { port, metricsPort } = await startHangar(tmp);
  promUrl = await startPrometheus(tmp, metricsPort);
  await waitFor("the pool's pod ready", 120_000, async () => ((await query("max(hangar_pool_ready) > 0")).length ? true : undefined));
  await workload(port);
  // Rates need two scrapes of each new series inside their window; a few more to be sure.
  await new Promise((r) => setTimeout(r, 10_000));
  metricsText = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
}, 300_000);

afterAll(async () => {
  for (const c of closers.reverse()) await c().catch(() => undefined);
  const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
  for (const p of (await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: POOL_LABEL })).items)
    await core.deleteNamespacedPod({ name: p.metadata?.name ?? "", namespace: NAMESPACE, gracePeriodSeconds: 0 }).catch(() => undefined);
  expect(await releaseRecords(core)).toEqual([]);
}, 180_000);

describe("the dashboards' queries on a real Prometheus scraping Hangar on the test cluster", () => {
  const queries = dashboardQueries();
  it("Prometheus scraped Hangar", async () => {
    expect(await query('up{job="hangar"} == 1')).toHaveLength(1);
  });
  for (const q of queries)
    it(`${q.where}: ${q.expr}`, async () => {
      const expr = withVariables(q.expr, "1m");
      const result = await query(expr);
      const waiting = metricNames(expr).filter((n) => EVENT_ONLY[n]);
      if (waiting.length) {
        // Only on its event: still exported, by name.
        for (const n of waiting) expect(metricsText, `${n} (${EVENT_ONLY[n]})`).toContain(`# HELP ${n} `);
        return;
      }
      expect(result.length, expr).toBeGreaterThan(0);
    });
});
