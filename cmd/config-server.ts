/**
 * The server's settings: where the API and the metrics listen, the API keys (none: open mode, on
 * loopback only unless the operator accepts the risk), the log level, and the process's own knobs
 * (shutdown grace, malloc_trim).
 */
import { existsSync } from "node:fs";
import { ConfigError, type Env } from "./config-env.js";

const loopback = (h: string) => h === "localhost" || h === "::1" || /^127\./.test(h);

/** `tokenIdentities`: ServiceAccount or OIDC tokens are taken (cmd/config-auth.ts), so Hangar is not open without a keys file. */
export function readServer(env: Env, o: { tokenIdentities: boolean } = { tokenIdentities: false }) {
  const listen = env.address("HANGAR_LISTEN", "127.0.0.1:50051");
  const metricsRaw = env.str("HANGAR_METRICS_LISTEN", "127.0.0.1:9464");
  const metrics = metricsRaw === "off" ? undefined : env.address("HANGAR_METRICS_LISTEN", "127.0.0.1:9464");
  const keysFile = env.str("HANGAR_API_KEYS_FILE", "") || undefined;
  if (keysFile && !existsSync(keysFile)) throw new ConfigError(`HANGAR_API_KEYS_FILE=${keysFile}: no such file`);
  const allowOpen = env.bool("HANGAR_ALLOW_OPEN_NON_LOOPBACK", false);
  if (!keysFile && !o.tokenIdentities && !loopback(listen.host) && !allowOpen) {
    throw new ConfigError(
      `HANGAR_LISTEN=${listen.text}: without HANGAR_API_KEYS_FILE Hangar runs open (no authentication) and then listens only on loopback; set HANGAR_API_KEYS_FILE, or HANGAR_ALLOW_OPEN_NON_LOOPBACK=true to accept that risk`,
    );
  }
  const logLevel = env.str("HANGAR_LOG_LEVEL", "info");
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(logLevel))
    throw new ConfigError(`HANGAR_LOG_LEVEL=${logLevel}: expected fatal, error, warn, info, debug, trace or silent`);
  return {
    listen,
    metrics,
    keysFile,
    allowOpenNonLoopback: allowOpen,
    logLevel,
    shutdownGraceSeconds: env.int("HANGAR_SHUTDOWN_GRACE_SECONDS", 10, 0, 3600),
    // How often freed native memory is handed back (glibc's malloc_trim, ADR 0024); 0 (the default): never.
    mallocTrimSeconds: env.int("HANGAR_MALLOC_TRIM_SECONDS", 0, 0, 3600),
  };
}
