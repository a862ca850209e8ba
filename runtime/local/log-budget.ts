/**
 * A tenant's log bytes in Hangar's memory (HANGAR_TENANT_LOG_BYTES, ADR 0031): every log store of the
 * tenant's local sandboxes, live and ended (kept until retention), counts against one budget. Over it,
 * the oldest output goes first from the tenant's ended sandboxes (the oldest sandbox first), then
 * from the sandbox that is writing: one tenant's logs never grow past its budget, and a noisy
 * sandbox trims itself, never another tenant's logs nor its siblings' while they run.
 */

/** What the budget needs of a log store (runtime/local/log-store.ts). */
export interface BudgetedLog {
  readonly ended: boolean;
  /** Drops the oldest output, at least `bytes` where it can (a live log keeps its newest chunk); returns what it freed. */
  shed(bytes: number): number;
}

export class LogBudget {
  private used = 0;
  /** In the order they joined: the oldest sandbox first. */
  private readonly logs = new Set<BudgetedLog>();

  constructor(readonly limit: number) {}

  get bytes(): number {
    return this.used;
  }

  join(log: BudgetedLog): void {
    this.logs.add(log);
  }

  /** A log removed (its sandbox's retention ended): what it held is free. */
  leave(log: BudgetedLog, held: number): void {
    if (this.logs.delete(log)) this.used -= held;
  }

  /** `log` holds `bytes` more; when the tenant is over its budget, the oldest output is shed. */
  charge(log: BudgetedLog, bytes: number): void {
    this.used += bytes;
    for (const other of this.logs) {
      if (this.used <= this.limit) return;
      if (other !== log && other.ended) this.used -= other.shed(this.used - this.limit);
    }
    if (this.used > this.limit) this.used -= log.shed(this.used - this.limit);
  }

  /** `log` dropped `bytes` of its own accord (its own limit). */
  release(bytes: number): void {
    this.used -= bytes;
  }
}

/** One budget per tenant, made on first use with the tenant's limit. */
export function logBudgets(limitOf: (tenant: string) => number): (tenant: string) => LogBudget {
  const budgets = new Map<string, LogBudget>();
  return (tenant) => {
    let b = budgets.get(tenant);
    if (!b) budgets.set(tenant, (b = new LogBudget(limitOf(tenant))));
    return b;
  };
}
