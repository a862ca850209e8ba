/**
 * Hangar's listeners: the gRPC API, the metrics endpoint and the share-token check, each a startup
 * error naming its setting when it cannot listen; and the shutdown on SIGTERM or SIGINT that stops
 * them and the controller in order.
 */
import type pino from "pino";
import { createAuthenticator, type parseKeysFile, type TokenIdentities } from "../api/auth.js";
import type { createMetrics } from "../api/metrics.js";
import { PROTO_DIR } from "../api/proto.js";
import { createGrpcServer } from "../api/server.js";
import { listenShareTokenCheck } from "../api/share-token-check.js";
import type { SecretResolver } from "../core/secrets.js";
import type { createController } from "../controller/controller.js";
import { authKinds } from "./build-identities.js";
import type { Config } from "./config.js";
import { fail } from "./fail.js";
import type { TrimLoop } from "./malloc-trim.js";
import { specLimitsOf } from "./startup-inputs.js";

interface Served {
  controller: ReturnType<typeof createController>;
  metrics: ReturnType<typeof createMetrics>;
  keys: ReturnType<typeof parseKeysFile> | undefined;
  identities: TokenIdentities;
  secrets: SecretResolver | undefined;
  shareTokenKey: Buffer | undefined;
  runtimeName: string;
}

export async function serve(cfg: Config, log: pino.Logger, s: Served) {
  const api = createGrpcServer({
    controller: s.controller,
    authenticate: createAuthenticator(s.keys, s.identities),
    metrics: s.metrics,
    log: log.child({ component: "api" }),
    protoDir: PROTO_DIR,
    sandbox: {
      specLimits: specLimitsOf(cfg)(s.secrets?.stores()),
      exec: { deadlineMarginMs: cfg.execDeadlineMarginMs, defaultMaxOutputBytes: 16 * 1024 * 1024, maxOutputBytes: 64 * 1024 * 1024 },
      maxGraceSeconds: cfg.maxGraceSeconds,
      getHoldMs: cfg.getHoldMs,
      reportPreparing: cfg.reportPreparing,
      ...(s.shareTokenKey ? { shareTokenKey: s.shareTokenKey } : {}),
    },
  });
  let port: number;
  try {
    port = await api.listen(`${cfg.listen.host.includes(":") ? `[${cfg.listen.host}]` : cfg.listen.host}:${cfg.listen.port}`);
  } catch (e) {
    fail(`HANGAR_LISTEN=${cfg.listen.text}: cannot listen: ${(e as Error).message}`);
  }
  const metricsServer = cfg.metrics
    ? await s.metrics
        .listen(cfg.metrics.host, cfg.metrics.port)
        .catch((e: Error) => fail(`HANGAR_METRICS_LISTEN=${cfg.metrics?.text}: ${e.message}`))
    : undefined;
  const metricsAddr = metricsServer?.address();
  const st = cfg.kube.shareTokens;
  const shareTokenServer =
    st && s.shareTokenKey && cfg.kube.publicGateway
      ? await listenShareTokenCheck(s.shareTokenKey, cfg.kube.publicGateway.url, st.listen.host, st.listen.port).catch((e: Error) =>
          fail(`HANGAR_SHARE_TOKEN_CHECK_LISTEN=${st.listen.text}: ${e.message}`),
        )
      : undefined;
  if (shareTokenServer) log.info({ address: shareTokenServer.address(), filter: st?.authFilter }, "share-token check listening");
  log.info(
    {
      host: cfg.listen.host,
      port,
      runtime: s.runtimeName,
      metrics_port: typeof metricsAddr === "object" ? metricsAddr?.port : undefined,
      auth: authKinds(cfg, s.keys),
    },
    "listening",
  );
  return { api, metricsServer, shareTokenServer };
}

/** On SIGTERM or SIGINT (once): the API drains for the grace period, then the controller closes, then the rest. */
export function stopOnSignals(
  cfg: Config,
  log: pino.Logger,
  o: Awaited<ReturnType<typeof serve>> & {
    controller: { close(): Promise<void> };
    trimLoop: TrimLoop | undefined;
    consoleServer: { close(): void } | undefined;
  },
) {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    o.consoleServer?.close();
    await o.api.shutdown(cfg.shutdownGraceSeconds * 1000);
    await o.controller.close();
    o.metricsServer?.close();
    o.shareTokenServer?.close();
    o.trimLoop?.stop();
    log.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
