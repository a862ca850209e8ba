/**
 * The local sandbox boundary's pure parts (ADR 0010), table-tested, and the seccomp filter as
 * built (the real guard binary applies it; make test runs as root).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GUARD_PATH } from "../../runtime/local/bwrap-args.js";
import { DEFAULT_DENIED_CIDRS, egressRuleset, jumpRule, nameserversOf } from "../../runtime/local/egress.js";
import { normalizeImage } from "../../runtime/local/image-store.js";
import { bubblewrapLauncher, LAUNCH_FDS } from "../../runtime/local/launcher.js";
import { idMap, slotPool } from "../../runtime/local/userns.js";
import { spec } from "./fixtures.js";

const paths = { root: "/d/root", rootWritable: true, tmp: "/d/tmp", home: "/d/home", empty: "/d/empty", files: [], volumes: [] };
const launcher = bubblewrapLauncher(
  { bwrap: "/usr/bin/bwrap", setpriv: "/usr/bin/setpriv", nsenter: "/usr/bin/nsenter" },
  "/usr/bin/bwrap",
);
const inputs = {
  paths,
  spec: spec({ argv: ["/bin/sh"] }),
  hostname: "h",
  uid: 0,
  maskPaths: [],
  env: {},
  guard: "/d/guard",
  procMasks: { files: ["/proc/keys"], dirs: [] },
};

describe("ids", () => {
  it("maps sandbox ids to the range, never to host root", () => {
    expect(idMap({ start: 200_000, size: 65_536 })).toBe("0 200000 65536\n");
  });
  it("hands out each slot uid once until it is released", () => {
    const p = slotPool(300_000, 3);
    const got = [p.acquire(), p.acquire(), p.acquire()];
    expect(new Set(got).size).toBe(3);
    expect(got.every((u) => u >= 300_000 && u < 300_003)).toBe(true);
    expect(() => p.acquire()).toThrow(/all 3 sandbox slot uids are in use/);
    p.release(got[1] as number);
    expect(p.acquire()).toBe(got[1]);
    expect(p.inUse()).toBe(3);
  });
});

describe("the bubblewrap launcher", () => {
  it("as root: runs bubblewrap as the slot uid, joining the prepared user namespace, with the filter", () => {
    const a = launcher.mainArgv({ ...inputs, slot: 300_007 });
    expect(a.slice(0, 8)).toEqual(["/usr/bin/setpriv", "--reuid", "300007", "--regid", "300007", "--clear-groups", "--", "/usr/bin/bwrap"]);
    const flag = (f: string) => a[a.indexOf(f) + 1];
    expect(flag("--userns")).toBe(String(LAUNCH_FDS.userns));
    expect(flag("--seccomp")).toBe(String(LAUNCH_FDS.seccomp));
    expect(a).not.toContain("--unshare-user");
    expect(a).toContain("--unshare-net");
    expect(a).toEqual(
      expect.arrayContaining(["--cap-drop", "ALL", "--ro-bind", "/proc/sys", "/d/empty", "/proc/keys", "/d/guard", GUARD_PATH]),
    );
  });
  it("mounts a volume read-write or read-only as each mount asks", () => {
    const a = launcher.mainArgv({
      ...inputs,
      slot: 300_007,
      paths: {
        ...paths,
        volumes: [
          { host: "/d/v/ws", path: "/work" },
          { host: "/d/v/ws/out", path: "/data", readOnly: true },
        ],
      },
    });
    const at = (p: string) => a.slice(a.indexOf(p) - 2, a.indexOf(p) + 1);
    expect(at("/work")).toEqual(["--bind", "/d/v/ws", "/work"]);
    expect(at("/data")).toEqual(["--ro-bind", "/d/v/ws/out", "/data"]);
  });
  it("as an ordinary user: bubblewrap makes the user namespace, still no network and the filter", () => {
    const a = launcher.mainArgv(inputs);
    expect(a[0]).toBe("/usr/bin/bwrap");
    expect(a).toEqual(expect.arrayContaining(["--unshare-user", "--unshare-net", "--seccomp"]));
    expect(a).not.toContain("--userns");
  });
  it("as an ordinary user, commands keep their own (mapped) ids: setgroups is denied in the sandbox", () => {
    const plain = bubblewrapLauncher(
      { bwrap: "/usr/bin/bwrap", setpriv: "/usr/bin/setpriv", nsenter: "/usr/bin/nsenter" },
      "/usr/bin/bwrap",
      false,
    );
    const a = plain.joinArgv(42, 0, ["id"]);
    expect(a).toContain("--preserve-credentials");
    expect(a).not.toContain("-S");
  });
  it("commands join through the guard", () => {
    const a = launcher.joinArgv(42, 0, ["id"]);
    expect(a.slice(a.indexOf("--", 3))).toEqual(["--", GUARD_PATH, "id"]);
    expect(a).toEqual(expect.arrayContaining(["--no-new-privs", "-t", "42", "-S", "0", "-G", "0"]));
  });
});

describe("egress firewall", () => {
  const rules = egressRuleset(["10.255.255.53"], [...DEFAULT_DENIED_CIDRS, "192.0.2.0/24"]).split("\n");
  const at = (re: RegExp) => rules.findIndex((l) => re.test(l));
  it("lets DNS reach the resolver, then rejects host addresses and denied ranges, then accepts", () => {
    expect(rules[0]).toBe("*filter");
    expect(at(/-p udp -d 10\.255\.255\.53\/32 --dport 53 .* -j ACCEPT/)).toBeGreaterThan(0);
    expect(at(/--dst-type LOCAL .* -j REJECT/)).toBeGreaterThan(at(/--dport 53/));
    for (const c of ["127.0.0.0/8", "169.254.0.0/16", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "192.0.2.0/24"]) {
      expect(at(new RegExp(`-d ${c.replace(/\./g, "\\.")} .* -j REJECT`)), c).toBeGreaterThan(at(/LOCAL/));
    }
    expect(at(/^-A HANGAR-EGRESS -j ACCEPT$/)).toBe(rules.indexOf("COMMIT") - 1);
  });
  it("matches every slot uid and reads IPv4 resolvers", () => {
    expect(jumpRule(300_000, 65_536)).toEqual(expect.arrayContaining(["--uid-owner", "300000-365535", "-j", "HANGAR-EGRESS"]));
    expect(nameserversOf("# x\nnameserver 10.0.0.2\nnameserver ::1\n  nameserver 1.1.1.1 \nsearch a")).toEqual(["10.0.0.2", "1.1.1.1"]);
  });
});

describe("image names", () => {
  it.each([
    ["python:3.11", "docker.io/library/python:3.11"],
    ["python", "docker.io/library/python:latest"],
    ["library/python:3.11", "docker.io/library/python:3.11"],
    ["ghcr.io/org/img", "ghcr.io/org/img:latest"],
    ["localhost/hangar-test/noshell:1", "localhost/hangar-test/noshell:1"],
    ["registry:5000/img", "registry:5000/img:latest"],
    ["docker.io/library/python@sha256:ab", "docker.io/library/python@sha256:ab"],
  ])("%s is %s", (name, want) => expect(normalizeImage(name)).toBe(want));
});

describe("the seccomp filter, as hangar-guard applies it", () => {
  // x86_64 numbers; each call gets junk arguments: only the filter's answer matters.
  const PROBE = `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
for name, nr, a0 in [("mount",165,0),("umount2",166,0),("keyctl",250,0),("bpf",321,0),("ptrace",101,16),("perf_event_open",298,0),
                     ("io_uring_setup",425,1),("kexec_load",246,0),("init_module",175,0),("setns",308,-1),("unshare_user",272,0x10000000),
                     ("clone_user",56,0x10000000),("clone3",435,0),("open_by_handle_at",304,-1),("userfaultfd",323,0),("reboot",169,0),
                     ("swapon",167,0),("clock_settime",227,0),("process_vm_readv",310,0),("fsopen",430,0)]:
    r = libc.syscall(ctypes.c_long(nr), ctypes.c_long(a0), ctypes.c_long(0), ctypes.c_long(0), ctypes.c_long(0), ctypes.c_long(0))
    print(name, "ok" if r >= 0 else os.strerror(ctypes.get_errno()))
print("fork", "ok" if os.fork() or os._exit(0) else "")
`;
  it("denies what reaches past the sandbox and allows the rest", () => {
    expect(process.getuid?.(), "runs the guard as root, the strongest caller").toBe(0);
    const r = spawnSync(path.resolve(".build/hangar-guard"), ["python3", "-c", PROBE], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const got = Object.fromEntries(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => [l.slice(0, l.indexOf(" ")), l.slice(l.indexOf(" ") + 1)]),
    );
    expect(Object.keys(got)).toHaveLength(21);
    const denied = Object.entries(got).filter(([k]) => !["clone3", "fork"].includes(k));
    for (const [name, result] of denied) expect(result, name).toBe("Operation not permitted");
    expect(got.clone3).toBe("Function not implemented");
    expect(got.fork).toBe("ok");
  });
  it("the guard leaves no capability and sets no_new_privs", () => {
    const r = spawnSync(
      path.resolve(".build/hangar-guard"),
      ["grep", "-E", "^(CapEff|CapPrm|CapBnd|CapAmb|NoNewPrivs|Seccomp):", "/proc/self/status"],
      { encoding: "utf8" },
    );
    expect(r.stdout.replace(/\t/g, " ").trim().split("\n").sort()).toEqual([
      "CapAmb: 0000000000000000",
      "CapBnd: 0000000000000000",
      "CapEff: 0000000000000000",
      "CapPrm: 0000000000000000",
      "NoNewPrivs: 1",
      "Seccomp: 2",
    ]);
  });
});
