/**
 * The only reader of process.env and argv. Every setting is read once here, validated, and
 * frozen; a bad value is a startup error that names the setting. docs/configuration.md
 * documents each key. Flags: --listen=ADDR is HANGAR_LISTEN, and so on for every key.
 *
 * loadConfig assembles the readers of cmd/config-*.ts, one per concern, each a function of the
 * settings it is given (cmd/config-env.ts): the server and its identities, the runtime chosen, templates and
 * snapshots, the local runtime, the Kubernetes runtime, and the sandbox policy with the
 * per-tenant limits. A HANGAR_* setting none of them read is refused.
 */
import { readAuth } from "./config-auth.js";
import { readConsole } from "./config-console.js";
import { ConfigError, settingsOf, type Source } from "./config-env.js";
import { readKube } from "./config-kube.js";
import { readLocal } from "./config-local.js";
import { readPolicy } from "./config-policy.js";
import { readRunner, readRuntimeChoice } from "./config-runtime.js";
import { readServer } from "./config-server.js";
import { readStorage } from "./config-storage.js";

export { ConfigError };

export function loadConfig(envVars: Source, argv: string[], installDir: string) {
  const { env, refuseUnknown } = settingsOf(envVars, argv);
  const choice = readRuntimeChoice(env);
  const auth = readAuth(env, { kubernetes: choice.runtime === "kubernetes" });
  const tokenIdentities = auth.tokenReview !== undefined || auth.oidc !== undefined;
  const server = readServer(env, { tokenIdentities });
  const storage = readStorage(env, choice);
  const runner = readRunner(env);
  const local = readLocal(env, { runtime: choice.runtime, dataDir: choice.dataDir, installDir });
  const kube = readKube(env, {
    kubernetes: choice.runtime === "kubernetes",
    installDir,
    sharedTemplatesFile: storage.sharedTemplatesFile,
    ...runner,
  });
  const policy = readPolicy(env, { open: !server.keysFile && !tokenIdentities, localLogBytes: local.logBytes });
  const consoleCfg = readConsole(env, { open: !server.keysFile && !tokenIdentities, allowOpenNonLoopback: server.allowOpenNonLoopback });
  refuseUnknown();
  return Object.freeze({ ...server, ...storage, ...choice, ...policy, kube, ...runner, local, auth, console: consoleCfg });
}
export type Config = ReturnType<typeof loadConfig>;
