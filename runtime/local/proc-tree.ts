/** Process-tree helpers over /proc: find every descendant of a pid and kill them all. */
import { readFileSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";

async function childrenOf(pid: number): Promise<number[]> {
  const out: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = await readdir(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tasks) {
    try {
      const text = await readFile(`/proc/${pid}/task/${t}/children`, "utf8");
      for (const p of text.split(" ")) if (p.trim()) out.push(Number(p));
    } catch {
      // the task ended while we looked
    }
  }
  return out;
}

/** All descendants of pid (not pid itself), parents before children. */
export async function descendants(pid: number): Promise<number[]> {
  const seen: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop() as number;
    for (const c of await childrenOf(p)) {
      if (!seen.includes(c)) {
        seen.push(c);
        stack.push(c);
      }
    }
  }
  return seen;
}

/**
 * Whether pid still runs. A zombie (state Z: exited, waiting to be reaped by whichever process
 * inherited it) is dead: it holds no memory, no files and cannot be signalled, and waiting
 * for its reaper made every stop last the full 1 s below.
 */
export const alive = (pid: number): boolean => {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return false;
  }
  // "pid (comm) S ...": comm may hold spaces and parentheses, the state follows the last ")".
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return state !== "Z" && state !== "X" && state !== "";
};

/**
 * SIGKILLs pid, its process group and every descendant (also ones that started their own
 * session), repeating until none is left or 1 s has passed.
 */
export async function killTree(pid: number): Promise<void> {
  const deadline = Date.now() + 1000;
  for (;;) {
    const all = [pid, ...(await descendants(pid))];
    const live = all.filter(alive);
    if (live.length === 0 || Date.now() > deadline) return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // not a group leader or already gone
    }
    // Children first so none is re-parented out of our sight between two kills.
    for (const p of live.reverse()) {
      try {
        process.kill(p, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}
