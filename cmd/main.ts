/** Entry point: read the config once, wire runtime -> controller -> api, serve, shut down on SIGTERM. */
// First: V8 flags, before anything allocates.
import "./v8-flags.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { killFailures } from "../core/kill.js";
import { createCredentialCheck } from "../api/auth.js";
import { buildController } from "./build-controller.js";
import { startConsole } from "./build-console.js";
import { authKinds, buildIdentities } from "./build-identities.js";
import { buildRuntime, buildSecrets } from "./build-runtime.js";
import { ConfigError, loadConfig, type Config } from "./config.js";
import { installCrashPolicy } from "./crash-policy.js";
import { fail } from "./fail.js";
import { loadMallocTrim, startMallocTrim, type TrimLoop } from "./malloc-trim.js";
import { serve, stopOnSignals } from "./serve.js";
import { readKeys, readShareTokenKey, readTemplatesAndPools } from "./startup-inputs.js";

const installDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

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

/** The logger, the crash policy on it, and the warnings about how Hangar was started. */
function startLog(cfg: Config, open: boolean): pino.Logger {
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
  if (open)
    log.warn({ listen: cfg.listen.text }, "no HANGAR_API_KEYS_FILE: running open (no authentication), every caller is tenant 'local'");
  return log;
}

function readConfig(): Config {
  try {
    return loadConfig(process.env, process.argv.slice(2), installDir);
  } catch (e) {
    if (e instanceof ConfigError) fail(`configuration error: ${e.message}`);
    throw e;
  }
}

async function main() {
  const cfg = readConfig();
  const keys = readKeys(cfg);
  const shareTokenKey = readShareTokenKey(cfg);
  const { sharedTemplates, warmPools } = readTemplatesAndPools(cfg);
  const log = startLog(cfg, authKinds(cfg, keys) === "open");
  const trimLoop = await startTrim(cfg, log);
  const { runtime, kube } = await buildRuntime(cfg, log, warmPools, installDir);
  const secrets = await buildSecrets(cfg, kube);
  const { controller, metrics, tenantGuard } = await buildController(cfg, log, { runtime, secrets, sharedTemplates, trimLoop });
  await controller.start();
  const identities = await buildIdentities(cfg);
  const servers = await serve(cfg, log, { controller, metrics, keys, identities, secrets, shareTokenKey, runtimeName: runtime.name });
  const consoleServer = cfg.console
    ? await startConsole(cfg.console, log, { controller, runtime, tenantGuard, check: createCredentialCheck(keys, identities), installDir })
    : undefined;
  stopOnSignals(cfg, log, { ...servers, controller, trimLoop, consoleServer });
}

main().catch((e: unknown) => {
  process.stderr.write(`hangar: fatal: ${(e as Error)?.stack ?? String(e)}\n`);
  process.exit(1);
});
