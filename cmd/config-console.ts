/**
 * The web console (ADR 0039): off unless HANGAR_CONSOLE_LISTEN names an address. It signs callers
 * in with the API's own identities; HANGAR_CONSOLE_OPERATORS names the tenants that see every
 * tenant's sandboxes (read-only unless HANGAR_CONSOLE_OPERATOR_WRITE); HANGAR_CONSOLE_TLS_CERT/KEY
 * serve it over HTTPS (its cookie is then Secure; HANGAR_CONSOLE_SECURE_COOKIE for TLS ended in
 * front of Hangar).
 */
import { existsSync } from "node:fs";
import { ConfigError, type Env } from "./config-env.js";

const TENANT = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

export function readConsole(env: Env, o: { open: boolean; allowOpenNonLoopback: boolean }) {
  const raw = env.str("HANGAR_CONSOLE_LISTEN", "off");
  const operatorsRaw = env.str("HANGAR_CONSOLE_OPERATORS", "");
  const operatorWrite = env.bool("HANGAR_CONSOLE_OPERATOR_WRITE", false);
  const cert = env.str("HANGAR_CONSOLE_TLS_CERT", "") || undefined;
  const key = env.str("HANGAR_CONSOLE_TLS_KEY", "") || undefined;
  const secureCookie = env.bool("HANGAR_CONSOLE_SECURE_COOKIE", false);
  const sessionSeconds = env.int("HANGAR_CONSOLE_SESSION_SECONDS", 8 * 3600, 60, 7 * 24 * 3600);
  if (raw === "off") return undefined;
  const listen = env.address("HANGAR_CONSOLE_LISTEN", raw);
  const operators = operatorsRaw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const t of operators) {
    if (!TENANT.test(t))
      throw new ConfigError(`HANGAR_CONSOLE_OPERATORS: "${t.slice(0, 64)}" is not a tenant name (letters, digits, _ . -; at most 63)`);
  }
  if (!!cert !== !!key) throw new ConfigError("HANGAR_CONSOLE_TLS_CERT and HANGAR_CONSOLE_TLS_KEY go together: set both or neither");
  for (const [k, f] of [
    ["HANGAR_CONSOLE_TLS_CERT", cert],
    ["HANGAR_CONSOLE_TLS_KEY", key],
  ] as const) {
    if (f && !existsSync(f)) throw new ConfigError(`${k}=${f}: no such file`);
  }
  const loopback = listen.host === "localhost" || listen.host === "::1" || /^127\./.test(listen.host);
  if (o.open && !loopback && !o.allowOpenNonLoopback) {
    throw new ConfigError(
      `HANGAR_CONSOLE_LISTEN=${listen.text}: Hangar runs open (no keys file or token identities), so its console listens only on loopback; set HANGAR_API_KEYS_FILE, or HANGAR_ALLOW_OPEN_NON_LOOPBACK=true to accept that risk`,
    );
  }
  return {
    listen,
    operators,
    operatorWrite,
    tls: cert && key ? { cert, key } : undefined,
    secureCookie: secureCookie || !!cert,
    sessionSeconds,
  };
}
export type ConsoleConfig = NonNullable<ReturnType<typeof readConsole>>;
