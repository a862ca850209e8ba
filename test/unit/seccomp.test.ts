/**
 * runtime/local/seccomp-gen.c: the seccomp filter of every local sandbox process is an allow list
 * at least as strict as the container default profile (ADR 0010). The generator, the probe
 * (seccomp-probe.c) and hangar-guard are compiled here from the sources. Each probe row is made
 * three ways: without a filter (what the kernel answers), under the generated program with a
 * marker errno (so a refusal by the filter cannot be mistaken for the kernel's own EPERM), and
 * through hangar-guard built with the program sandboxes get. The generator's rules are compared
 * with the profile itself (test/fixtures/seccomp-default-profile.json: moby/profiles
 * seccomp/default.json at cd3bed8061c7b7378b61fc6827c7885779417a75).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const MARKER = 133; // EHWPOISON: no call below answers it by itself
const EPERM = 1;
const ENOSYS = 38;
const SIGSYS = 31;

// What a sandbox must not reach. The first five are what the audit reached from a local sandbox.
const REFUSED = [
  "set_mempolicy",
  "get_mempolicy",
  "mbind",
  "move_pages",
  "personality_addr_no_randomize",
  "set_mempolicy_home_node",
  "personality_linux_high_bits",
  "keyctl",
  "add_key",
  "request_key",
  "bpf",
  "perf_event_open",
  "userfaultfd",
  "io_uring_setup",
  "unshare_user",
  "unshare_files",
  "clone_newuser",
  "clone_newnet",
  "setns",
  "mount",
  "chroot",
  "ptrace",
  "process_vm_readv",
  "pidfd_getfd",
  "name_to_handle_at",
  "adjtimex",
  "lsm_list_modules",
  "socket_alg",
  "socket_vsock",
  "socket_vsock_high_bits",
];
// ENOSYS: clone3 (glibc falls back to clone), and syscalls numbered above the list (467 is
// open_tree_attr, kernel 6.15; 1000 is none yet).
const NOSYS = ["clone3", "open_tree_attr", "syscall_1000"];
// Allowed: each answers under the filter exactly what it answers without it.
const ALLOWED = [
  "read_write",
  "getpid",
  "thread",
  "fork_exec",
  "mmap",
  "personality_linux",
  "personality_query",
  "socket_inet",
  "socket_unix",
  "socket_netlink",
  "arch_prctl",
  "prctl",
  "statmount",
  "mseal",
];
const ROWS = [...REFUSED, ...NOSYS, "x32_getpid", ...ALLOWED];

let dir = "";
let control: Map<string, string>;
let marked: Map<string, string>;
let guarded: Map<string, string>;
let listed: string[];

const run = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { encoding: "utf8" });
const results = (out: string) =>
  new Map(
    out
      .trim()
      .split("\n")
      .map((l) => [l.slice(0, l.indexOf(" ")), l.slice(l.indexOf(" ") + 1)] as const),
  );

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "hangar-seccomp-"));
  const gen = path.join(dir, "gen");
  run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", gen, path.join(root, "runtime/local/seccomp-gen.c"), "-lseccomp"]);
  run([gen, "--errno", String(MARKER), path.join(dir, "marked.bpf"), path.join(dir, "marked.h")]);
  run([gen, path.join(dir, "shipped.bpf"), path.join(dir, "seccomp-bpf.h")]);
  run([
    "gcc",
    "-O2",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pthread",
    "-o",
    path.join(dir, "probe"),
    path.join(root, "test/unit/seccomp-probe.c"),
  ]);
  run([
    "gcc",
    "-O2",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-static",
    "-I",
    dir,
    "-o",
    path.join(dir, "guard"),
    path.join(root, "runtime/local/guard.c"),
  ]);
  const probe = path.join(dir, "probe");
  control = results(run([probe, ...ROWS]));
  marked = results(run([probe, "--filter", path.join(dir, "marked.bpf"), ...ROWS]));
  guarded = results(run([path.join(dir, "guard"), probe, ...ROWS]));
  listed = run([gen, "--list"]).trim().split("\n");
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the local seccomp filter, called", () => {
  it("the calls the audit reached get through without a filter (the probe really makes them)", () => {
    for (const row of REFUSED.slice(0, 5)) expect([row, control.get(row)]).toEqual([row, "ok"]);
  });

  it.each(REFUSED)("%s is refused by the filter: EPERM from the shipped program, through hangar-guard", (row) => {
    expect(marked.get(row)).toBe(`errno ${MARKER}`);
    expect(guarded.get(row)).toBe(`errno ${EPERM}`);
  });

  it.each(NOSYS)("%s fails with ENOSYS", (row) => {
    expect(marked.get(row)).toBe(`errno ${ENOSYS}`);
    expect(guarded.get(row)).toBe(`errno ${ENOSYS}`);
  });

  it("a syscall of another ABI (x32) kills the process", () => {
    expect(marked.get("x32_getpid")).toBe(`signal ${SIGSYS}`);
    expect(guarded.get("x32_getpid")).toBe(`signal ${SIGSYS}`);
  });

  it.each(ALLOWED)("%s answers what the kernel answers without the filter", (row) => {
    expect(control.get(row)).toBeDefined();
    expect(marked.get(row)).toBe(control.get(row));
    expect(guarded.get(row)).toBe(control.get(row));
  });

  it("threads (clone3 refused, clone without namespaces), fork and exec, sockets and personality queries work", () => {
    const works = ALLOWED.filter((r) => r !== "statmount" && r !== "mseal"); // these two depend on the kernel's age
    expect(works.filter((r) => guarded.get(r) !== "ok")).toEqual([]);
  });
});

// The container default profile, for a process with no capabilities on amd64.
interface Arg {
  index: number;
  value: number;
  valueTwo?: number;
  op: string;
}
interface Rule {
  names: string[];
  action: string;
  errnoRet?: number;
  args?: Arg[] | null;
  includes?: { caps?: string[]; arches?: string[] };
  excludes?: { caps?: string[]; arches?: string[] };
}
const profile = JSON.parse(readFileSync(path.join(root, "test/fixtures/seccomp-default-profile.json"), "utf8")) as {
  defaultAction: string;
  defaultErrnoRet: number;
  syscalls: Rule[];
};
const applies = (r: Rule) =>
  !r.includes?.caps?.length && (!r.includes?.arches || r.includes.arches.includes("amd64")) && !r.excludes?.arches?.includes("amd64");
const rules = profile.syscalls.filter(applies);
const unconditional = new Set(rules.filter((r) => r.action === "SCMP_ACT_ALLOW" && !r.args?.length).flatMap((r) => r.names));

type Cmp = { arg: number; op: string; a: bigint; b: bigint };
const OPS: Record<string, (v: bigint, a: bigint, b: bigint) => boolean> = {
  ne: (v, a) => v !== a,
  lt: (v, a) => v < a,
  le: (v, a) => v <= a,
  eq: (v, a) => v === a,
  ge: (v, a) => v >= a,
  gt: (v, a) => v > a,
  masked_eq: (v, a, b) => (v & a) === b,
};
const holds = (c: Cmp, v: bigint) => {
  const op = OPS[c.op];
  if (!op) throw new Error(`unknown comparison ${c.op}`);
  return op(v, c.a, c.b);
};
const fromProfile = (a: Arg): Cmp => ({
  arg: a.index,
  op: a.op.replace(/^SCMP_CMP_/, "").toLowerCase(),
  a: BigInt(a.value),
  b: BigInt(a.valueTwo ?? 0),
});
// Values that cross every bound: small numbers, each bit alone, each bound and its neighbours,
// each with high bits set (the kernel reads an int where these syscalls take one).
const SAMPLES = (() => {
  const s = new Set<bigint>();
  const add = (v: bigint) => s.add(BigInt.asUintN(64, v));
  for (let i = 0n; i <= 64n; i++) add(i);
  for (let i = 0n; i < 64n; i++) add(1n << i);
  for (const v of [0x8n, 0x20000n, 0x20008n, 0x40000n, 0xffffffffn, 0x7e020000n, 0x11n, 0x3d0f00n])
    for (const d of [-1n, 0n, 1n]) add(v + d);
  for (const v of [...s]) {
    add(v | (1n << 32n));
    add(v | (0xffffffffn << 32n));
    add(-v);
  }
  return [...s];
})();

describe("the filter's rules against the container default profile", () => {
  const lines = () => listed.map((l) => l.split(" "));
  const allowedUnconditionally = () =>
    lines()
      .filter((l) => l[0] === "allow" && l.length === 3)
      .map((l) => l[1]!);
  const conditional = () => {
    const m = new Map<string, Cmp[]>();
    for (const l of lines().filter((x) => x[0] === "allow" && x.length > 3)) {
      m.set(l[1]!, [...(m.get(l[1]!) ?? []), { arg: Number(l[3]!.slice(1)), op: l[4]!, a: BigInt(l[5]!), b: BigInt(l[6]!) }]);
    }
    return m;
  };

  it("refuses what it does not name with EPERM, as the profile does", () => {
    expect(profile.defaultAction).toBe("SCMP_ACT_ERRNO");
    expect(listed).toContain(`default errno ${profile.defaultErrnoRet}`);
  });

  it("allows no syscall unconditionally that the profile does not", () => {
    expect(allowedUnconditionally().length).toBeGreaterThan(250);
    expect(allowedUnconditionally().filter((n) => !unconditional.has(n))).toEqual([]);
  });

  it("allows no argument of a conditional syscall that the profile refuses", () => {
    const ours = conditional();
    expect([...ours.keys()].sort()).toEqual(["clone", "personality", "socket"]);
    for (const [name, cmps] of ours) {
      const theirs = rules
        .filter((r) => r.action === "SCMP_ACT_ALLOW" && r.names.includes(name) && r.args?.length)
        .map((r) => r.args!.map(fromProfile));
      expect(theirs.length, name).toBeGreaterThan(0);
      const extra = SAMPLES.filter((v) => cmps.some((c) => holds(c, v)) && !theirs.some((conds) => conds.every((c) => holds(c, v))));
      expect([name, extra]).toEqual([name, []]);
    }
  });

  it("is stricter where ADR 0010 says: the profile allows these, the filter does not", () => {
    const stricter = ["adjtimex", "clock_adjtime", "name_to_handle_at", "ptrace", "process_vm_readv", "process_vm_writev"];
    const profileAllows = new Set(rules.filter((r) => r.action === "SCMP_ACT_ALLOW" && !r.args?.length).flatMap((r) => r.names));
    expect(stricter.filter((n) => !profileAllows.has(n))).toEqual([]);
    expect(allowedUnconditionally().filter((n) => stricter.includes(n))).toEqual([]);
    // AF_VSOCK with high bits set: the profile's "above AF_VSOCK" lets it through, the filter does not.
    const vsockHigh = (1n << 32n) | 40n;
    expect(
      conditional()
        .get("socket")!
        .some((c) => holds(c, vsockHigh)),
    ).toBe(false);
  });

  it("allows every x86_64 syscall the profile allows, at its number, but the stricter ones (none skipped for an older libseccomp)", () => {
    // Numbers from the kernel's headers, and for calls newer than them from arch/x86/entry/syscalls/syscall_64.tbl.
    const header = new Map(
      [...readFileSync("/usr/include/x86_64-linux-gnu/asm/unistd_64.h", "utf8").matchAll(/^#define __NR_(\w+) (\d+)$/gm)].map((m) => [
        m[1]!,
        Number(m[2]),
      ]),
    );
    const NEWER: Record<string, number> = {
      uretprobe: 335,
      cachestat: 451,
      fchmodat2: 452,
      map_shadow_stack: 453,
      futex_wake: 454,
      futex_wait: 455,
      futex_requeue: 456,
      statmount: 457,
      listmount: 458,
      mseal: 462,
      setxattrat: 463,
      getxattrat: 464,
      listxattrat: 465,
      removexattrat: 466,
    };
    // The profile's names that are no x86_64 syscall (32-bit ABIs' and other architectures' calls).
    const elsewhere =
      /32$|time64$|^(fadvise64_64|fcntl64|fstat64|fstatat64|fstatfs64|ftruncate64|lstat64|sendfile64|stat64|statfs64|truncate64|_llseek|_newselect|mmap2|ipc|recv|send|socketcall|sigprocmask|sigreturn|waitpid|ugetrlimit|riscv_hwprobe)$/;
    const stricter = new Set(["adjtimex", "clock_adjtime", "name_to_handle_at", "ptrace", "process_vm_readv", "process_vm_writev"]);
    const ours = new Map(
      lines()
        .filter((l) => l[0] === "allow" && l.length === 3)
        .map((l) => [l[1]!, Number(l[2])]),
    );
    const missing: string[] = [];
    for (const name of unconditional) {
      const nr = header.get(name) ?? NEWER[name];
      if (nr === undefined) {
        expect([name, elsewhere.test(name)]).toEqual([name, true]); // else a new syscall this test does not know: add its number
        expect(ours.has(name), name).toBe(false);
      } else if (!stricter.has(name) && ours.get(name) !== nr) missing.push(`${name} ${nr} (listed: ${ours.get(name)})`);
    }
    expect(missing).toEqual([]);
  });

  it("stops the build on an allowed name the installed libseccomp does not know and no number is given for", () => {
    const src = readFileSync(path.join(root, "runtime/local/seccomp-gen.c"), "utf8");
    const withUnknown = src.replace('"write", "writev",\n', '"write", "writev", "hangar_no_such_call",\n');
    expect(withUnknown).not.toBe(src);
    const c = path.join(dir, "unknown.c");
    writeFileSync(c, withUnknown);
    run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", path.join(dir, "gen-unknown"), c, "-lseccomp"]);
    const r = spawnSync(path.join(dir, "gen-unknown"), ["--list"], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/hangar_no_such_call: .*not known to this libseccomp/);
  });

  it("answers clone3 with ENOSYS as the profile does, and names nothing else with an errno", () => {
    const clone3 = rules.find((r) => r.names.includes("clone3") && r.action === "SCMP_ACT_ERRNO");
    expect(clone3?.errnoRet).toBe(ENOSYS);
    expect(
      lines()
        .filter((l) => l[0] === "errno")
        .map((l) => [l[1], l[3]]),
    ).toEqual([["clone3", String(ENOSYS)]]);
  });
});
