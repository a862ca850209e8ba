// The habits that keep the rooms small (ADR 0035) are held by make lint: each rule below is tried
// on code that breaks it, as the file it would be, and on the same code where the rule is kept.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import * as prettier from "prettier";
import { afterAll, describe, expect, it } from "vitest";

const eslint = new ESLint();
const rulesHit = async (code: string, filePath: string) =>
  (await eslint.lintText(code, { filePath })).flatMap((r) => r.messages.map((m) => m.ruleId ?? m.message));

const longFunction = (lines: number) =>
  `export function long(a: number): number {\n${Array.from({ length: lines }, (_, i) => `  a += ${i};`).join("\n")}\n  return a;\n}\n`;

describe("make lint", () => {
  it("refuses a product function over 80 lines, and takes one of 80", async () => {
    expect(await rulesHit(longFunction(81), "core/probe-long.ts")).toContain("max-lines-per-function");
    expect(await rulesHit(longFunction(77), "core/probe-long.ts")).not.toContain("max-lines-per-function");
  });

  it("refuses a product file over 300 lines (blank lines and comments not counted)", async () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `export const c${i} = ${i};`).join("\n") + "\n";
    expect(await rulesHit(body(301), "core/probe-big.ts")).toContain("max-lines");
    expect(await rulesHit(body(300) + "\n\n// a comment\n".repeat(40), "core/probe-big.ts")).not.toContain("max-lines");
  });

  describe("import circles", () => {
    const dir = path.join("core", `.lint-probe-${process.pid}`);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    it("refuses a module that imports one that imports it back", async () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b.js";\nexport const a = () => b;\n');
      writeFileSync(path.join(dir, "b.ts"), 'import { a } from "./a.js";\nexport const b = () => a;\n');
      writeFileSync(path.join(dir, "c.ts"), "export const c = 1;\n");
      const circle = 'import { b } from "./b.js";\nexport const a = () => b;\n';
      expect(await rulesHit(circle, path.join(dir, "a.ts"))).toContain("import-x/no-cycle");
      expect(await rulesHit('import { c } from "./c.js";\nexport const a = () => c;\n', path.join(dir, "a.ts"))).not.toContain(
        "import-x/no-cycle",
      );
    });
  });

  it("holds the layers and the rooms", async () => {
    const cases: [string, string, boolean][] = [
      ['import { x } from "../api/x.js";\nexport const y = x;\n', "controller/probe.ts", true],
      ['import { x } from "../core/x.js";\nexport const y = x;\n', "controller/probe.ts", false],
      ['import { x } from "../kubernetes/exec/path.js";\nexport const y = x;\n', "runtime/local/probe.ts", true],
      ['import { x } from "../local/local-plan.js";\nexport const y = x;\n', "runtime/kubernetes/probe.ts", true],
      ['import { x } from "../lifecycle/state.js";\nexport const y = x;\n', "runtime/kubernetes/exec/probe.ts", true],
      ['import { x } from "../stores/secret-store.js";\nexport const y = x;\n', "runtime/kubernetes/exec/probe.ts", false],
      ['import { readFileSync } from "node:fs";\nexport const y = readFileSync;\n', "runtime/kubernetes/pod/probe.ts", true],
      ['import * as k8s from "@kubernetes/client-node";\nexport const y = k8s;\n', "runtime/kubernetes/pod/probe.ts", true],
      ['import type * as k8s from "@kubernetes/client-node";\nexport type Y = k8s.V1Pod;\n', "runtime/kubernetes/pod/probe.ts", false],
      ['import { x } from "../stores/secret-store.js";\nexport const y = x;\n', "runtime/kubernetes/pod/probe.ts", true],
      ['import { x } from "./keys.js";\nexport const y = x;\n', "runtime/kubernetes/pod/probe.ts", false],
    ];
    for (const [code, file, refused] of cases)
      expect((await rulesHit(code, file)).includes("no-restricted-imports"), `${file}: ${code.split("\n")[0]}`).toBe(refused);
  });

  it("refuses an unformatted file (Prettier, .prettierrc.json)", async () => {
    const options = { ...(await prettier.resolveConfig("core/probe.ts")), filepath: "core/probe.ts" };
    expect(await prettier.check("export const a = {b:1}\n", options)).toBe(false);
    expect(await prettier.check("export const a = { b: 1 };\n", options)).toBe(true);
  });
});
