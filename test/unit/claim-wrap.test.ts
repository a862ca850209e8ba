/** What a claim applies per command (working directory, secrets from a file): run by a real /bin/sh. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claimWrap, secretEnvText } from "../../runtime/kubernetes/exec/claim-wrap.js";

const dir = mkdtempSync(join(tmpdir(), "claim-wrap-"));
const envFile = join(dir, "secret-env");
const run = (argv: string[]) => {
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe("claimWrap", () => {
  const tricky = { TOKEN: 'it\'s a $ecret `x` "q"\nline2\\', EMPTY: "", D: "/elsewhere" };
  writeFileSync(envFile, secretEnvText(tricky), { mode: 0o400 });

  it("nothing applied: the command as it is", () => expect(claimWrap(["ls", "-l"], {})).toEqual(["ls", "-l"]));

  it("secrets arrive byte for byte, whatever they hold; the command's own env wins", () => {
    const py = ["python3", "-c", "import os, json; print(json.dumps({k: os.environ.get(k) for k in ['TOKEN', 'EMPTY', 'D', 'MINE']}))"];
    const r = run(claimWrap(py, { envFile, env: { MINE: "a b", D: "mine" } }));
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ TOKEN: tricky.TOKEN, EMPTY: "", D: "mine", MINE: "a b" });
  });

  it("the working directory, with a secret named like sh's variables not disturbing it", () => {
    const r = run(claimWrap(["pwd"], { dir, envFile }));
    expect(r.out).toBe(`${dir}\n`);
  });

  it("the exit code and arguments are the command's", () => {
    expect(run(claimWrap(["sh", "-c", 'echo "$#:$1"; exit 7', "x", "two words"], { dir })).code).toBe(7);
    expect(run(claimWrap(["sh", "-c", 'printf %s "$1"', "x", "two words"], { dir })).out).toBe("two words");
  });

  it("a directory that cannot be entered or a file that cannot be read exits 126", () => {
    expect(run(claimWrap(["true"], { dir: join(dir, "missing") })).code).toBe(126);
    expect(run(claimWrap(["true"], { envFile: join(dir, "missing") })).code).not.toBe(0);
  });
});
