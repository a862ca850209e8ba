/** A data dir the sandboxes' slot uids cannot reach is named at start, with the fix (runtime/local/data-dir-reach.ts). */
import { chmodSync, mkdirSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ancestors, checkDataDir, unreachableDataDir } from "../../runtime/local/data-dir-reach.js";

describe("unreachableDataDir", () => {
  it("walks every directory above the data dir, nearest first", () => {
    expect(ancestors("/var/lib/hangar")).toEqual(["/var/lib", "/var", "/"]);
    expect(ancestors("/tmp/a/../b/data")).toEqual(["/tmp/b", "/tmp", "/"]);
  });

  const modes = (m: Record<string, number>) => (d: string) => m[d];
  const cases: [string, string, Record<string, number>, string | undefined][] = [
    ["every directory searchable", "/var/lib/hangar", { "/": 0o755, "/var": 0o755, "/var/lib": 0o755 }, undefined],
    ["search only (711)", "/srv/h/data", { "/": 0o755, "/srv": 0o711, "/srv/h": 0o711 }, undefined],
    ["sticky /tmp", "/tmp/h/data", { "/": 0o755, "/tmp": 0o1777, "/tmp/h": 0o755 }, undefined],
    [
      "the data dir itself is not checked (Hangar makes it 0711)",
      "/srv/data",
      { "/": 0o755, "/srv": 0o755, "/srv/data": 0o700 },
      undefined,
    ],
    ["missing directories are skipped (Hangar makes them)", "/srv/new/data", { "/": 0o755, "/srv": 0o755 }, undefined],
    [
      "under a mktemp -d (0700)",
      "/tmp/tmp.x/data",
      { "/": 0o755, "/tmp": 0o1777, "/tmp/tmp.x": 0o700 },
      "HANGAR_DATA_DIR /tmp/tmp.x/data is not reachable by sandbox uids (mode 0700 on /tmp/tmp.x): chmod o+x /tmp/tmp.x (e.g. chmod 711) or choose another dir",
    ],
    [
      "readable but not searchable (0754) higher up",
      "/home/u/h/data",
      { "/": 0o755, "/home": 0o755, "/home/u": 0o754, "/home/u/h": 0o755 },
      "HANGAR_DATA_DIR /home/u/h/data is not reachable by sandbox uids (mode 0754 on /home/u): chmod o+x /home/u (e.g. chmod 711) or choose another dir",
    ],
    [
      "group search is not enough (0750)",
      "/opt/h/data",
      { "/": 0o755, "/opt": 0o750, "/opt/h": 0o755 },
      expect.stringContaining("(mode 0750 on /opt)") as unknown as string,
    ],
  ];
  for (const [name, dir, m, want] of cases) it(name, () => expect(unreachableDataDir(dir, modes(m))).toEqual(want));

  it("reads this machine's file system", () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "hangar-reach-"));
    mkdirSync(path.join(tmp, "data"));
    chmodSync(tmp, 0o700);
    expect(checkDataDir(path.join(tmp, "data"))).toMatch(`(mode 0700 on ${tmp})`);
    chmodSync(tmp, 0o711);
    expect(checkDataDir(path.join(tmp, "data"))).toBeUndefined();
  });
});
