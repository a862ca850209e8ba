/** Entry point: read the config once, wire runtime -> controller -> api, serve, shut down on SIGTERM. */
// First: V8 flags, before anything allocates.
import "./v8-flags.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { createAuthenticator, OPEN_TENANT, parseKeysFile } from "../api/auth.js";
import { createMetrics } from "../api/metrics.js";
import { killFailures } from "../core/kill.js";
import { PROTO_DIR } from "../api/proto.js";
import { createGrpcServer } from "../api/server.js";
import { parseSharedTemplates } from "../api/shared-templates.js";
import { listenShareTokenCheck } from "../api/share-token-check.js";
import { MIN_SHARE_TOKEN_KEY_BYTES } from "../core/share-token.js";
import { createController } from "../controller/controller.js";
import { createTenantGuard } from "../controller/tenant-guard.js";
import { limitsFor } from "../controller/tenant-limits.js";
import { logBudgets } from "../runtime/local/log-budget.js";
import { createDirSnapshotStore } from "../controller/snapshot-store.js";
import { DEFAULT_DENIED_CIDRS } from "../runtime/local/egress.js";
import { createImageStore } from "../runtime/local/image-store.js";
import { createLocalRuntime } from "../runtime/local/local-runtime.js";
import { slotPool } from "../runtime/local/userns.js";
import type { Runtime } from "../runtime/types.js";
import { resolverOf, type SecretRef, type SecretResolver } from "../core/secrets.js";
import { allowsEgress } from "../core/egress.js";
import { toDomainSpec } from "../api/spec.js";
import { applyOverrides } from "../api/template-view.js";
import { resolveWarmPools, type WarmPoolConfig } from "../runtime/kubernetes/warm-pool-config.js";
import { loadMallocTrim, startMallocTrim, type TrimLoop } from "./malloc-trim.js";
import { dataDirProblem } from "./data-dir-check.js";
import { ConfigError, loadConfig, type Config } from "./config.js";
import { installCrashPolicy } from "./crash-policy.js";

const isRoot = process.getuid?.() === 0;
const installDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function fail(message: string): never {
  process.stderr.write(`hangar: ${message}\n`);
  process.exit(2);
}

/** The secret stores (HANGAR_SECRET_STORES): directories read here; Kubernetes Secrets through the runtime's client. */
async function buildSecrets(cfg: Config, kube?: { core: unknown }): Promise<SecretResolver | undefined> {
  if (!cfg.secretStores.length) return undefined;
  const { readDirSecret } = await import("../runtime/local/secret-dir.js");
  const readKube = kube ? (await import("../runtime/kubernetes/secret-store.js")).readKubeSecret : undefined;
  return resolverOf(
    cfg.secretStores.map((config) => ({
      config,
      get: (place: string, ref: SecretRef) =>
        config.kind === "dir" ? readDirSecret(place, ref) : readKube!(kube!.core as never, place, ref),
    })),
  );
}

async function buildRuntime(
  cfg: Config,
  log: pino.Logger,
  warmPools: WarmPoolConfig[],
): Promise<{ runtime: Runtime; kube?: { core: unknown } }> {
  if (cfg.runtime === "kubernetes") {
    // Loaded only here: the Kubernetes client doubles Hangar's memory, and every process the
    // local runtime starts pays for the parent's size in fork().
    const k8s = await import("@kubernetes/client-node");
    const { agentBinary } = await import("../runtime/kubernetes/exec/agent-link.js");
    const { createKubernetesRuntime } = await import("../runtime/kubernetes/kube-runtime.js");
    const kc = new k8s.KubeConfig();
    if (cfg.kube.kubeconfig) kc.loadFromFile(cfg.kube.kubeconfig);
    else kc.loadFromCluster();
    const rt = createKubernetesRuntime({
      kubeConfig: kc,
      namespace: cfg.kube.namespace,
      clusterDomain: cfg.kube.clusterDomain,
      ...(cfg.kube.publicGateway
        ? { publicGateway: { ...cfg.kube.publicGateway, ...(cfg.kube.shareTokens ? { authFilter: cfg.kube.shareTokens.authFilter } : {}) } }
        : {}),
      ...(cfg.kube.publicTls ? { publicTls: cfg.kube.publicTls } : {}),
      startupTimeoutMs: cfg.kube.startupTimeoutSeconds * 1000,
      deadlineMarginSeconds: cfg.kube.deadlineMarginSeconds,
      defaultLifetimeSeconds: cfg.defaultLifetimeSeconds,
      defaultDenyEgress: cfg.defaultDenyEgress,
      egress: cfg.kube.egress,
      userNamespaces: cfg.kube.userNamespaces,
      runtimeClassName: cfg.kube.runtimeClassName,
      ephemeralStorageBytes: cfg.kube.ephemeralStorageBytes,
      ...(cfg.kube.forkDriver ? { forkDriver: cfg.kube.forkDriver } : {}),
      tolerations: cfg.kube.tolerations,
      gpu: cfg.kube.gpu,
      nodeRefreshMs: cfg.kube.nodeRefreshMs,
      warmPools,
      execAgent: cfg.kube.execAgentBinary ? agentBinary(readFileSync(cfg.kube.execAgentBinary)) : undefined,
      ...(cfg.kube.agentDirectPorts ? { agentDirectPorts: cfg.kube.agentDirectPorts } : {}),
      ...(cfg.kube.agentImagePath ? { agentImagePath: cfg.kube.agentImagePath } : {}),
      fallbackCapacity: { cpuMillicores: cfg.kube.capacityCpuMillicores, memoryBytes: cfg.kube.capacityMemoryBytes },
      runners: cfg.kube.runners,
      organizationId: cfg.organizationId,
      secrets: cfg.secretStores.length > 0,
      log: log.child({ component: "runtime" }),
    });
    // An apiserver that is restarting or unreachable is waited for (a replica restarted during an
    // outage serves once it is back); a refusal (forbidden, no such namespace) ends Hangar at once.
    const { isTransient } = await import("../runtime/kubernetes/kube-errors.js");
    for (let attempt = 0, t0 = Date.now(); ; attempt++) {
      try {
        await rt.ready();
        break;
      } catch (e) {
        const msg = (e as Error).message;
        if (!isTransient(e) || Date.now() - t0 > cfg.kube.startupTimeoutSeconds * 1000)
          fail(msg.startsWith("HANGAR_") ? msg : `HANGAR_RUNTIME=kubernetes: cannot watch pods in namespace ${cfg.kube.namespace}: ${msg}`);
        log.warn({ err: msg, attempt }, "the Kubernetes API is not answering; trying again");
        await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** attempt, 4000)));
      }
    }
    return { runtime: rt, kube: { core: kc.makeApiClient(k8s.CoreV1Api) } };
  }
  const unreachable = isRoot && !cfg.local.unsafe ? dataDirProblem(cfg.dataDir) : undefined;
  if (unreachable) fail(unreachable);
  const runtime = createLocalRuntime({
    dataDir: cfg.dataDir,
    isolation: cfg.local.unsafe ? "none" : "bubblewrap",
    tools: cfg.local.tools,
    images: cfg.local.images,
    imageStore: createImageStore({
      cacheDir: cfg.local.imageCacheDir,
      sources: cfg.local.imageDirs,
      pull: cfg.local.imagePull,
      pullTimeoutS: cfg.local.imagePullTimeoutSeconds,
      tools: cfg.local.tools,
      idShift: isRoot && !cfg.local.unsafe ? { start: cfg.local.idRangeStart, size: 65_536 } : undefined,
    }),
    seccompBpf: cfg.local.seccompBpf,
    snapshotLayers: cfg.local.snapshotLayers,
    diskBytes: cfg.local.diskBytes,
    egress:
      isRoot && !cfg.local.unsafe
        ? { tools: cfg.local.tools, deniedCidrs: [...DEFAULT_DENIED_CIDRS, ...cfg.local.egressDeniedCidrs] }
        : undefined,
    users:
      isRoot && !cfg.local.unsafe
        ? { range: { start: cfg.local.idRangeStart, size: 65_536 }, slots: slotPool(cfg.local.slotUidBase, 65_536) }
        : undefined,
    maskPaths: [...cfg.local.maskPaths, installDir],
    sandboxUid: cfg.local.sandboxUid,
    pidsMax: cfg.local.pidsMax,
    logBytesPerSecond: cfg.local.logBytesPerSecond,
    logBytes: cfg.local.logBytes,
    logBudget: logBudgets((tenant) => limitsFor(cfg.tenantLimits, tenant).log_bytes),
    defaultMemoryBytes: cfg.local.defaultMemoryBytes,
    defaultCpuMillicores: cfg.local.defaultCpuMillicores,
    cgroupRoot: cfg.local.cgroupRoot,
    ...(cfg.local.gpus ? { gpus: cfg.local.gpus } : {}),
    volumes: cfg.local.volumes,
    runner: { runnerId: cfg.runnerId, runnerGroupId: cfg.runnerGroupId, organizationId: cfg.organizationId },
    log: log.child({ component: "runtime" }),
  });
  return { runtime };
}

/** HANGAR_MALLOC_TRIM_SECONDS: hand freed native memory back every so often (ADR 0024). */
async function startTrim(cfg: Config, log: pino.Logger): Promise<TrimLoop | undefined> {
  if (cfg.mallocTrimSeconds === 0) return undefined;
  const loaded = await loadMallocTrim();
  if ("trim" in loaded) return startMallocTrim({ trim: loaded.trim, intervalMs: cfg.mallocTrimSeconds * 1000 });
  log.warn(
    { err: loaded.error },
    "HANGAR_MALLOC_TRIM_SECONDS: glibc's malloc_trim is not available here; freed native memory stays with the process",
  );
  return undefined;
}

async function main() {
  let cfg: Config;
  try {
    cfg = loadConfig(process.env, process.argv.slice(2), installDir);
  } catch (e) {
    if (e instanceof ConfigError) fail(`configuration error: ${e.message}`);
    throw e;
  }
  let keys;
  try {
    keys = cfg.keysFile ? parseKeysFile(readFileSync(cfg.keysFile, "utf8"), cfg.keysFile) : undefined;
  } catch (e) {
    fail(`HANGAR_API_KEYS_FILE: ${(e as Error).message}`);
  }
  // An override for a tenant no key names is a typo that would leave the real tenant on the defaults.
  const tenantNames = new Set(keys ? keys.map((k) => k.tenant) : [OPEN_TENANT]);
  const unknownTenant = Object.keys(cfg.tenantLimits.tenants).find((t) => !tenantNames.has(t));
  if (unknownTenant)
    fail(
      `HANGAR_TENANT_LIMITS.${unknownTenant}: no such tenant (${keys ? "HANGAR_API_KEYS_FILE names it nowhere" : `open mode has the one tenant "${OPEN_TENANT}"`})`,
    );
  let shareTokenKey: Buffer | undefined;
  if (cfg.kube.shareTokens) {
    try {
      shareTokenKey = readFileSync(cfg.kube.shareTokens.keyFile);
    } catch (e) {
      fail(`HANGAR_SHARE_TOKEN_KEY_FILE=${cfg.kube.shareTokens.keyFile}: ${(e as Error).message}`);
    }
    if (shareTokenKey.length < MIN_SHARE_TOKEN_KEY_BYTES)
      fail(
        `HANGAR_SHARE_TOKEN_KEY_FILE=${cfg.kube.shareTokens.keyFile}: ${shareTokenKey.length} bytes; a key is at least ${MIN_SHARE_TOKEN_KEY_BYTES} random bytes (head -c 32 /dev/urandom)`,
      );
  }
  const specLimits = (stores?: string[]) => ({
    maxLifetimeSeconds: cfg.maxLifetimeSeconds,
    secretStores: stores,
    runtimeClassSelection: cfg.runtimeClassSelection,
  });
  let sharedTemplates;
  try {
    sharedTemplates = cfg.sharedTemplatesFile
      ? parseSharedTemplates(readFileSync(cfg.sharedTemplatesFile, "utf8"), PROTO_DIR, specLimits(cfg.secretStores.map((s) => s.name)))
      : [];
  } catch (e) {
    fail(`HANGAR_SHARED_TEMPLATES_FILE=${cfg.sharedTemplatesFile}: ${(e as Error).message}`);
  }
  let warmPools: WarmPoolConfig[] = [];
  try {
    // A template pool's pods are made as a run of the template with no overrides is: the same spec conversion as CreateSandboxFromTemplate's.
    const specOf = (id: string) => {
      const t = sharedTemplates.find((x) => x.id === id);
      return t && toDomainSpec(applyOverrides(t.spec as never, undefined), specLimits(cfg.secretStores.map((s) => s.name)));
    };
    if (cfg.runtime === "kubernetes")
      warmPools = resolveWarmPools(
        cfg.kube.warmPools,
        specOf,
        (s) => allowsEgress(s, cfg.defaultDenyEgress),
        cfg.kube.egress.enforcement === "netinit",
        cfg.kube.runners,
      );
  } catch (e) {
    fail(`HANGAR_KUBE_WARM_POOLS: ${(e as Error).message}`);
  }
  const log = pino({ level: cfg.logLevel, base: { service: "hangar" } });
  installCrashPolicy(log);
  killFailures.setLog(log); // a kill that fails is logged with its sandbox id (ADR 0032)
  if (cfg.local.unsafe && cfg.runtime === "local")
    log.warn("HANGAR_LOCAL_UNSAFE_NO_ISOLATION=true: sandboxes run as plain processes of this user, with no isolation");
  if (process.pid === 1 && cfg.runtime === "local") {
    log.warn(
      "Hangar runs as pid 1 with no init: every ended sandbox leaves a zombie process; start it under an init (tini --, as Hangar's image does, or docker run --init)",
    );
  }
  if (!keys)
    log.warn({ listen: cfg.listen.text }, "no HANGAR_API_KEYS_FILE: running open (no authentication), every caller is tenant 'local'");
  const trimLoop = await startTrim(cfg, log);
  const { runtime, kube } = await buildRuntime(cfg, log, warmPools);
  const secrets = await buildSecrets(cfg, kube);
  const holder: { controller?: ReturnType<typeof createController> } = {};
  const metrics = createMetrics(() => holder.controller?.counts() ?? {}, {
    ...(runtime.watchStats ? { watch: () => runtime.watchStats?.() } : {}),
    ...(runtime.execStats ? { exec: () => runtime.execStats?.() as Record<string, number> | undefined } : {}),
    ...(runtime.agentStats ? { agents: () => runtime.agentStats?.() } : {}),
    ...(trimLoop ? { trim: () => trimLoop.stats() } : {}),
    tenants: () => {
      const live = holder.controller?.liveByTenant() ?? new Map<string, number>();
      const used = new Map(tenantGuard.usage().map((u) => [u.tenant, u]));
      return [...new Set([...live.keys(), ...used.keys()])].map((tenant) => ({
        tenant,
        sandboxes: live.get(tenant) ?? 0,
        held_calls: used.get(tenant)?.held_calls ?? 0,
        exec_streams: used.get(tenant)?.exec_streams ?? 0,
      }));
    },
  });
  const tenantGuard = createTenantGuard({ table: cfg.tenantLimits, onRefused: (tenant, limit) => metrics.limitRefused(tenant, limit) });
  const controller = createController({
    runtime,
    defaultDenyEgress: cfg.defaultDenyEgress,
    policy: { retentionMs: cfg.retentionSeconds * 1000, expiryGraceMs: 0, stuckAfterMs: 30_000 },
    defaultLifetimeSeconds: cfg.defaultLifetimeSeconds,
    maxLifetimeSeconds: cfg.maxLifetimeSeconds,
    maxSandboxes: cfg.maxSandboxes,
    maxExecsPerSandbox: cfg.maxExecsPerSandbox,
    maxExecs: cfg.maxExecs,
    maxFileBytes: cfg.maxFileBytes,
    reapIntervalMs: cfg.reapIntervalMs,
    secrets,
    tenants: tenantGuard,
    sharedTemplates,
    ...(cfg.snapshots
      ? {
          snapshots: {
            store: await createDirSnapshotStore(cfg.snapshots.dir),
            maxBytes: cfg.snapshots.maxBytes,
            maxPerTenant: cfg.snapshots.perTenant,
          },
        }
      : {}),
    log: log.child({ component: "controller" }),
  });
  holder.controller = controller;
  await controller.start();
  const api = createGrpcServer({
    controller,
    authenticate: createAuthenticator(keys),
    metrics,
    log: log.child({ component: "api" }),
    protoDir: PROTO_DIR,
    sandbox: {
      specLimits: specLimits(secrets?.stores()),
      exec: { deadlineMarginMs: cfg.execDeadlineMarginMs, defaultMaxOutputBytes: 16 * 1024 * 1024, maxOutputBytes: 64 * 1024 * 1024 },
      maxGraceSeconds: cfg.maxGraceSeconds,
      getHoldMs: cfg.getHoldMs,
      reportPreparing: cfg.reportPreparing,
      ...(shareTokenKey ? { shareTokenKey } : {}),
    },
  });
  let port: number;
  try {
    port = await api.listen(`${cfg.listen.host.includes(":") ? `[${cfg.listen.host}]` : cfg.listen.host}:${cfg.listen.port}`);
  } catch (e) {
    fail(`HANGAR_LISTEN=${cfg.listen.text}: cannot listen: ${(e as Error).message}`);
  }
  const metricsServer = cfg.metrics
    ? await metrics
        .listen(cfg.metrics.host, cfg.metrics.port)
        .catch((e: Error) => fail(`HANGAR_METRICS_LISTEN=${cfg.metrics?.text}: ${e.message}`))
    : undefined;
  const metricsAddr = metricsServer?.address();
  const st = cfg.kube.shareTokens;
  const shareTokenServer =
    st && shareTokenKey && cfg.kube.publicGateway
      ? await listenShareTokenCheck(shareTokenKey, cfg.kube.publicGateway.url, st.listen.host, st.listen.port).catch((e: Error) =>
          fail(`HANGAR_SHARE_TOKEN_CHECK_LISTEN=${st.listen.text}: ${e.message}`),
        )
      : undefined;
  if (shareTokenServer) log.info({ address: shareTokenServer.address(), filter: st?.authFilter }, "share-token check listening");
  log.info(
    {
      host: cfg.listen.host,
      port,
      runtime: runtime.name,
      metrics_port: typeof metricsAddr === "object" ? metricsAddr?.port : undefined,
      auth: keys ? "api-keys" : "open",
    },
    "listening",
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    await api.shutdown(cfg.shutdownGraceSeconds * 1000);
    await controller.close();
    metricsServer?.close();
    shareTokenServer?.close();
    trimLoop?.stop();
    log.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((e: unknown) => {
  process.stderr.write(`hangar: fatal: ${(e as Error)?.stack ?? String(e)}\n`);
  process.exit(1);
});
