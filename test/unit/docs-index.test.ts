// The indexes a newcomer reads first stay complete: the README's folder table names every top
// folder of the repository, and docs/adr/README.md lists every ADR.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

describe("the indexes", () => {
  it("the README's folder table names every top folder in the repository", () => {
    const tracked = execFileSync("git", ["ls-files"], { encoding: "utf8" }).split("\n");
    const folders = [...new Set(tracked.filter((f) => f.includes("/") && !f.startsWith(".")).map((f) => f.split("/")[0]))];
    const readme = readFileSync("README.md", "utf8");
    const missing = folders.filter((f) => !readme.includes(`| \`${f}/\` |`));
    expect(folders.length).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });

  it("docs/adr/README.md lists every ADR", () => {
    const adrs = readdirSync("docs/adr").filter((f) => /^\d{4}-.*\.md$/.test(f));
    const index = readFileSync("docs/adr/README.md", "utf8");
    expect(adrs.length).toBeGreaterThan(30);
    expect(adrs.filter((f) => !index.includes(`](${f})`))).toEqual([]);
  });
});
