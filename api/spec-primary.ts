/** The primary container: what it runs (image, argv, environment, files), its secrets, probe and resources. */
import type { FieldViolation } from "../core/errors.js";
import type { PullCredentials, SecretRef } from "../core/secrets.js";
import type { StartupProbe } from "../core/probe.js";
import { DEFAULT_MAIN_ARGV, type Quantities } from "../core/types.js";
import type { Container__Output } from "./generated/coreweave/sandbox/v1/Container.js";
import { LIMITS } from "./limits.js";
import { probeOf } from "./spec-probe.js";
import { containerResources } from "./spec-resources.js";
import { pullCredentials, secretRefs } from "./spec-secrets.js";
import { ENV_NAME, envBytes, hasNul, validPath } from "./spec-text.js";

export interface PrimaryContainer {
  image: string;
  argv: string[];
  env: Record<string, string>;
  secrets: SecretRef[];
  startupProbe?: StartupProbe;
  imagePull?: PullCredentials;
  files: { path: string; content: Buffer }[];
  requests: Quantities;
  limits: Quantities;
}

function imageOf(c: Container__Output, cf: string, v: FieldViolation[]): string {
  const image = c.image ?? "";
  if (!image) v.push({ field: `${cf}.image`, description: "required" });
  else if (image.length > LIMITS.imageLength || /[\s\u0000]/.test(image))
    v.push({ field: `${cf}.image`, description: `must be an image reference of at most ${LIMITS.imageLength} characters without spaces` });
  return image;
}

function argvOf(c: Container__Output, cf: string, v: FieldViolation[]): string[] {
  const args = c.args ?? [];
  const argv = c.command ? [c.command, ...args] : args.length ? args : [...DEFAULT_MAIN_ARGV];
  if (argv.length > LIMITS.args) v.push({ field: `${cf}.args`, description: `at most ${LIMITS.args} arguments` });
  if (argv.some(hasNul)) v.push({ field: `${cf}.args`, description: "must not contain NUL" });
  if (argv.reduce((a, s) => a + Buffer.byteLength(s), 0) > LIMITS.argvBytes)
    v.push({ field: `${cf}.args`, description: `command and args must total at most ${LIMITS.argvBytes} bytes` });
  return argv;
}

function envOf(c: Container__Output, cf: string, v: FieldViolation[]): Record<string, string> {
  const env = c.environment_variables ?? {};
  if (Object.keys(env).length > LIMITS.env)
    v.push({ field: `${cf}.environment_variables`, description: `at most ${LIMITS.env} variables` });
  if (envBytes(env) > LIMITS.envBytes)
    v.push({ field: `${cf}.environment_variables`, description: `names and values must total at most ${LIMITS.envBytes} bytes` });
  for (const [k, val] of Object.entries(env)) {
    if (!ENV_NAME.test(k))
      v.push({
        field: `${cf}.environment_variables[${JSON.stringify(k.slice(0, 64))}]`,
        description: "not a valid environment variable name",
      });
    if (hasNul(val))
      v.push({ field: `${cf}.environment_variables[${JSON.stringify(k.slice(0, 64))}]`, description: "value must not contain NUL" });
  }
  return env;
}

function filesOf(c: Container__Output, cf: string, v: FieldViolation[]): { path: string; content: Buffer }[] {
  let fileBytes = 0;
  const files = (c.files ?? []).map((f, i) => {
    const p = validPath(f.path ?? "");
    if (p) v.push({ field: `${cf}.files[${i}].path`, description: p });
    const content = Buffer.from(f.content ?? Buffer.alloc(0));
    fileBytes += content.length;
    return { path: f.path ?? "", content };
  });
  if (fileBytes > LIMITS.filesBytes)
    v.push({ field: `${cf}.files`, description: `mounted files must total at most ${LIMITS.filesBytes} bytes` });
  return files;
}

/** The primary container's parts, each checked (the violations in the order the fields are read). */
export function primaryOf(c: Container__Output, cf: string, secretStores: string[], v: FieldViolation[]): PrimaryContainer {
  const image = imageOf(c, cf, v);
  const argv = argvOf(c, cf, v);
  const env = envOf(c, cf, v);
  const secrets = secretRefs(c.secret_stores, cf, env, secretStores, v);
  const startupProbe = probeOf(c.startup_probe, `${cf}.startup_probe`, v);
  const imagePull = pullCredentials(c.image_pull_credentials, cf, image, secretStores, v);
  if (c.working_dir) {
    const p = validPath(c.working_dir);
    if (p) v.push({ field: `${cf}.working_dir`, description: p });
  }
  const files = filesOf(c, cf, v);
  const { requests, limits } = containerResources(c, cf, v);
  return { image, argv, env, secrets, startupProbe, imagePull, files, requests, limits };
}
