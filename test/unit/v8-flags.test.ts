/**
 * cmd/v8-flags.ts: Hangar sets --external-memory-accounted-in-global-limit on itself before
 * anything allocates (ADR 0020). Relaying exec output makes short-lived Buffers; without the
 * flag V8 answers each few tens of MiB of them with a full mark-compact.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
// 512 MiB through 64 KiB buffers, eight alive at a time (a relay's working set), yielding to the
// event loop as a relay does; prints how many major (mark-compact) collections ran.
const churn = (withFlags: boolean) => `
import { PerformanceObserver, constants } from "node:perf_hooks";
${withFlags ? `await import(${JSON.stringify(path.join(root, "cmd/v8-flags.ts"))});` : ""}
let major = 0;
new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++; }).observe({ entryTypes: ["gc"] });
const keep = [];
for (let i = 0; i < 8192; i++) { const b = Buffer.allocUnsafe(64 << 10); b[0] = i; keep.push(b); if (keep.length > 8) keep.shift(); if (i % 64 === 0) await new Promise(setImmediate); }
await new Promise((r) => setTimeout(r, 100));
process.stdout.write(String(major));
`;
const majors = (withFlags: boolean) => Number(execFileSync(process.execPath, ["--input-type=module", "-e", churn(withFlags)], { encoding: "utf8" }));

describe("V8 flags", () => {
  it("buffer churn without the flag runs full collections; with Hangar's flags at most a third as many (0-1 here, against 6-7)", () => {
    const without = majors(false);
    const withFlags = majors(true);
    // If a Node upgrade makes `without` 0, the flag no longer buys anything: revisit ADR 0020.
    expect(without).toBeGreaterThanOrEqual(4);
    expect(withFlags).toBeLessThanOrEqual(Math.floor(without / 3));
  });

  it("the entry point imports them before anything else", () => {
    const firstImport = /^import\s[^;]*;/m.exec(readFileSync(path.join(root, "cmd/main.ts"), "utf8"))?.[0];
    expect(firstImport).toBe('import "./v8-flags.js";');
  });
});
