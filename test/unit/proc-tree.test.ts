/** The kill loop's idea of "alive": a zombie (exited, not yet reaped by whoever inherited it) is dead. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { alive, descendants, killTree } from "../../runtime/local/proc-tree.js";

const state = (pid: number) => {
  const s = readFileSync(`/proc/${pid}/stat`, "latin1");
  return s.slice(s.lastIndexOf(")") + 2, s.lastIndexOf(")") + 3);
};

describe("proc-tree", () => {
  it("a zombie is not alive, although signal 0 still reaches it; killTree does not wait for its reaper", async () => {
    // sh starts `true` in the background, then becomes `sleep 30`, which never reaps it.
    const parent = spawn("/bin/sh", ["-c", "true & exec sleep 30"], { stdio: "ignore", detached: true });
    try {
      let zombie = 0;
      for (let i = 0; i < 200 && !zombie; i++) {
        const kids = await descendants(parent.pid as number);
        zombie = kids.find((k) => state(k) === "Z") ?? 0;
        if (!zombie) await new Promise((r) => setTimeout(r, 10));
      }
      expect(zombie).toBeGreaterThan(0);
      expect(() => process.kill(zombie, 0)).not.toThrow(); // what the old check took for "alive"
      expect(alive(zombie)).toBe(false);
      expect(alive(parent.pid as number)).toBe(true);
      const exited = new Promise((r) => parent.once("exit", r));
      const t0 = Date.now();
      await killTree(parent.pid as number);
      await exited;
      expect(alive(parent.pid as number)).toBe(false);
      // The old loop spun until its 1 s bound while the zombie child was listed; this one returns on the kill.
      expect(Date.now() - t0).toBeLessThan(900);
    } finally {
      parent.kill("SIGKILL");
    }
  });
});
