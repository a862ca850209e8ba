/** What the console is built from (cmd/build-console.ts assembles it). */
import type { CredentialCheck } from "../api/auth.js";
import type { Controller } from "../controller/controller.js";
import type { History } from "./history.js";

export interface TenantUse {
  tenant: string;
  sandboxes: number;
  held_calls: number;
  exec_streams: number;
  /** The tenant's limits (0: none), by the names of docs/configuration.md's per-tenant limits. */
  limits: Record<string, number>;
}

export interface Fleet {
  runners: { id: string; healthy: boolean; running: number; cpuMillicores: number; memoryBytes: number; gpus: number }[];
  pools: { pool: string; size: number; idle: number; ready: number; hits: number; misses: number }[];
  tenants: TenantUse[];
}

export interface ConsoleDeps {
  controller: Controller;
  check: CredentialCheck;
  /** `only`: that tenant's row alone (present even with nothing in use); undefined: every tenant with something live. */
  fleet: (only?: string) => Fleet;
  history: History;
  /** The figures the plots show, as history names them. */
  plotted: readonly string[];
  operators: readonly string[];
  operatorWrite: boolean;
  sessionTtlMs: number;
  secureCookie: boolean;
  installDir: string;
  now: () => number;
  log: { info(o: object, m: string): void; warn(o: object, m: string): void };
}
