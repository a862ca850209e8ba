/**
 * The settings' source and the accessors every reader of cmd/config-*.ts takes: the environment
 * with --name=value flags over it, read by key with a default and checked, each error naming the
 * setting. The accessor remembers every key it was asked for, so that a HANGAR_* setting no reader
 * knows is refused by name at the end (a typo would otherwise be ignored).
 */
import { accessSync, constants, lstatSync, statSync } from "node:fs";

export class ConfigError extends Error {}

export type Source = Record<string, string | undefined>;

/** A host:port setting; `text` is as written. */
export interface Address {
  host: string;
  port: number;
  text: string;
}

/** What a reader reads settings through. */
export interface Env {
  /** The setting, or `def` where it is unset or empty. */
  str(key: string, def: string): string;
  int(key: string, def: number, min: number, max: number): number;
  bool(key: string, def: boolean): boolean;
  address(key: string, def: string): Address;
  /** A variable as it is, not counted as a setting read (KUBECONFIG, KUBERNETES_SERVICE_HOST). */
  raw(key: string): string | undefined;
}

function fromArgv(argv: string[]): Source {
  const out: Source = {};
  for (const a of argv) {
    const m = /^--([a-z0-9-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new ConfigError(`unknown argument ${a}: settings are --name=value (for HANGAR_NAME) or environment variables`);
    out[`HANGAR_${(m[1] as string).replace(/-/g, "_").toUpperCase()}`] = m[2] ?? "true";
  }
  return out;
}

/** The accessors over `env` and `argv`, and the check that refuses the HANGAR_* settings nothing read. */
export function settingsOf(env: Source, argv: string[]): { env: Env; refuseUnknown(): void } {
  const src: Source = { ...env, ...fromArgv(argv) };
  const used = new Set<string>();
  const str = (key: string, def: string): string => {
    used.add(key);
    const v = src[key];
    return v === undefined || v === "" ? def : v;
  };
  const int = (key: string, def: number, min: number, max: number): number => {
    const raw = str(key, String(def));
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
      throw new ConfigError(`${key}=${raw}: expected an integer from ${min} to ${max}`);
    return n;
  };
  const bool = (key: string, def: boolean): boolean => {
    const raw = str(key, String(def)).toLowerCase();
    if (["1", "true", "yes", "on"].includes(raw)) return true;
    if (["0", "false", "no", "off"].includes(raw)) return false;
    throw new ConfigError(`${key}=${raw}: expected true or false`);
  };
  const address = (key: string, def: string): Address => {
    const raw = str(key, def);
    const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(raw);
    if (!m || Number(m[2]) > 65535) throw new ConfigError(`${key}=${raw}: expected host:port (port 0 picks a free one)`);
    return { host: (m[1] as string).replace(/^\[|\]$/g, ""), port: Number(m[2]), text: raw };
  };
  const refuseUnknown = () => {
    for (const k of Object.keys(src)) {
      if (k.startsWith("HANGAR_") && !used.has(k) && !k.startsWith("HANGAR_TEST_"))
        throw new ConfigError(`${k}: unknown setting (see docs/configuration.md)`);
    }
  };
  return { env: { str, int, bool, address, raw: (key) => src[key] }, refuseUnknown };
}

/** A comma-separated list, each entry trimmed, empty entries dropped. */
export const listOf = (text: string): string[] =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export const isRealDir = (p: string) => {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
};

export const executable = (p: string) => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

export const charDevice = (d: string) => {
  try {
    return statSync(d).isCharacterDevice();
  } catch {
    return false;
  }
};

/** A Kubernetes object name (a DNS label). */
export const K8S_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
