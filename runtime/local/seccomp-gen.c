/*
 * hangar-seccomp-gen: writes the local runtime's seccomp filter as a BPF program.
 *
 *   hangar-seccomp-gen [--errno N] OUT.bpf OUT.h    the filter (N: the refusal's errno, EPERM unless a test asks)
 *   hangar-seccomp-gen --list                       the rules it adds, one a line (test/unit/seccomp.test.ts)
 *
 * OUT.bpf is given to bubblewrap (--seccomp FD) for a sandbox's main process; OUT.h embeds the
 * same program in hangar-guard, which applies it to every exec. Policy (ADR 0010, docs/security.md):
 * an allow list. Every syscall is refused with EPERM unless a rule below allows it; a syscall
 * numbered above the highest one the filter names (one newer than this list) fails with ENOSYS,
 * so that a C library falls back to an older call, as runc does for the same profile.
 *
 * The list is the container default profile's, for a process with no capabilities (every
 * sandbox process has none): moby/profiles seccomp/default.json at commit
 * cd3bed8061c7b7378b61fc6827c7885779417a75 (seccomp/v0.2.3-8, 2026-06-30), the profile of Docker
 * and, but for three lsm_* calls, of containerd's contrib/seccomp (Kubernetes' RuntimeDefault).
 * Stricter than that profile, and kept from Hangar's earlier deny list:
 *   - adjtimex, clock_adjtime, clock_adjtime64, name_to_handle_at: refused (the profile allows them);
 *   - ptrace, process_vm_readv, process_vm_writev: refused (the profile allows them on kernels >= 4.8);
 *   - socket: families below AF_ALG, AF_ALG + 1 and the known ones above AF_VSOCK (41-45), each
 *     compared on all 64 bits, so that AF_VSOCK with high bits set (the kernel reads an int)
 *     is refused too; the profile allows every family above AF_VSOCK.
 * As in the profile: clone only without namespace flags, clone3 ENOSYS (its flags live in memory
 * a filter cannot read; glibc falls back to clone), personality only with the five listed
 * personas, unshare, setns, mount, keyctl, bpf, perf_event_open, io_uring, userfaultfd,
 * set_mempolicy, get_mempolicy, mbind, move_pages refused (nothing in the list). Any other
 * architecture (x32 numbers, i386) is killed. x86_64 is built and tested; aarch64 builds from the
 * same list (libseccomp names; the few numbers below are the same on both) but is not tested here.
 * Built by `make setup` with libseccomp (build time only).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The profile's unconditional list (its first rule), in its order, less the four refused above.
 * Names that are not syscalls of this architecture (the *32 and *_time64 ones on x86_64) are skipped. */
static const char *allowed[] = {
  "accept", "accept4", "access", "alarm", "bind", "brk", "cachestat", "capget", "capset", "chdir", "chmod",
  "chown", "chown32", "clock_getres", "clock_getres_time64", "clock_gettime", "clock_gettime64",
  "clock_nanosleep", "clock_nanosleep_time64", "close", "close_range", "connect", "copy_file_range", "creat",
  "dup", "dup2", "dup3", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_ctl_old", "epoll_pwait",
  "epoll_pwait2", "epoll_wait", "epoll_wait_old", "eventfd", "eventfd2", "execve", "execveat", "exit",
  "exit_group", "faccessat", "faccessat2", "fadvise64", "fadvise64_64", "fallocate", "fanotify_mark",
  "fchdir", "fchmod", "fchmodat", "fchmodat2", "fchown", "fchown32", "fchownat", "fcntl", "fcntl64",
  "fdatasync", "fgetxattr", "flistxattr", "flock", "fork", "fremovexattr", "fsetxattr", "fstat", "fstat64",
  "fstatat64", "fstatfs", "fstatfs64", "fsync", "ftruncate", "ftruncate64", "futex", "futex_requeue",
  "futex_time64", "futex_wait", "futex_waitv", "futex_wake", "futimesat", "getcpu", "getcwd", "getdents",
  "getdents64", "getegid", "getegid32", "geteuid", "geteuid32", "getgid", "getgid32", "getgroups",
  "getgroups32", "getitimer", "getpeername", "getpgid", "getpgrp", "getpid", "getppid", "getpriority",
  "getrandom", "getresgid", "getresgid32", "getresuid", "getresuid32", "getrlimit", "get_robust_list",
  "getrusage", "getsid", "getsockname", "getsockopt", "get_thread_area", "gettid", "gettimeofday", "getuid",
  "getuid32", "getxattr", "getxattrat", "inotify_add_watch", "inotify_init", "inotify_init1",
  "inotify_rm_watch", "io_cancel", "ioctl", "io_destroy", "io_getevents", "io_pgetevents",
  "io_pgetevents_time64", "ioprio_get", "ioprio_set", "io_setup", "io_submit", "ipc", "kill",
  "landlock_add_rule", "landlock_create_ruleset", "landlock_restrict_self", "lchown", "lchown32", "lgetxattr",
  "link", "linkat", "listen", "listmount", "listxattr", "listxattrat", "llistxattr", "_llseek",
  "lremovexattr", "lseek", "lsetxattr", "lstat", "lstat64", "madvise", "map_shadow_stack", "membarrier",
  "memfd_create", "memfd_secret", "mincore", "mkdir", "mkdirat", "mknod", "mknodat", "mlock", "mlock2",
  "mlockall", "mmap", "mmap2", "mprotect", "mq_getsetattr", "mq_notify", "mq_open", "mq_timedreceive",
  "mq_timedreceive_time64", "mq_timedsend", "mq_timedsend_time64", "mq_unlink", "mremap", "mseal", "msgctl",
  "msgget", "msgrcv", "msgsnd", "msync", "munlock", "munlockall", "munmap", "nanosleep", "newfstatat",
  "_newselect", "open", "openat", "openat2", "pause", "pidfd_open", "pidfd_send_signal", "pipe", "pipe2",
  "pkey_alloc", "pkey_free", "pkey_mprotect", "poll", "ppoll", "ppoll_time64", "prctl", "pread64", "preadv",
  "preadv2", "prlimit64", "process_mrelease", "pselect6", "pselect6_time64", "pwrite64", "pwritev",
  "pwritev2", "read", "readahead", "readlink", "readlinkat", "readv", "recv", "recvfrom", "recvmmsg",
  "recvmmsg_time64", "recvmsg", "remap_file_pages", "removexattr", "removexattrat", "rename", "renameat",
  "renameat2", "restart_syscall", "riscv_hwprobe", "rmdir", "rseq", "rt_sigaction", "rt_sigpending",
  "rt_sigprocmask", "rt_sigqueueinfo", "rt_sigreturn", "rt_sigsuspend", "rt_sigtimedwait",
  "rt_sigtimedwait_time64", "rt_tgsigqueueinfo", "sched_getaffinity", "sched_getattr", "sched_getparam",
  "sched_get_priority_max", "sched_get_priority_min", "sched_getscheduler", "sched_rr_get_interval",
  "sched_rr_get_interval_time64", "sched_setaffinity", "sched_setattr", "sched_setparam",
  "sched_setscheduler", "sched_yield", "seccomp", "select", "semctl", "semget", "semop", "semtimedop",
  "semtimedop_time64", "send", "sendfile", "sendfile64", "sendmmsg", "sendmsg", "sendto", "setfsgid",
  "setfsgid32", "setfsuid", "setfsuid32", "setgid", "setgid32", "setgroups", "setgroups32", "setitimer",
  "setpgid", "setpriority", "setregid", "setregid32", "setresgid", "setresgid32", "setresuid", "setresuid32",
  "setreuid", "setreuid32", "setrlimit", "set_robust_list", "setsid", "setsockopt", "set_thread_area",
  "set_tid_address", "setuid", "setuid32", "setxattr", "setxattrat", "shmat", "shmctl", "shmdt", "shmget",
  "shutdown", "sigaltstack", "signalfd", "signalfd4", "sigprocmask", "sigreturn", "socketcall", "socketpair",
  "splice", "stat", "stat64", "statfs", "statfs64", "statmount", "statx", "symlink", "symlinkat", "sync",
  "sync_file_range", "syncfs", "sysinfo", "tee", "tgkill", "time", "timer_create", "timer_delete",
  "timer_getoverrun", "timer_gettime", "timer_gettime64", "timer_settime", "timer_settime64",
  "timerfd_create", "timerfd_gettime", "timerfd_gettime64", "timerfd_settime", "timerfd_settime64", "times",
  "tkill", "truncate", "truncate64", "ugetrlimit", "umask", "uname", "unlink", "unlinkat", "uretprobe",
  "utime", "utimensat", "utimensat_time64", "utimes", "vfork", "vmsplice", "wait4", "waitid", "waitpid",
  "write", "writev",
  NULL,
};

/* The profile's per-architecture rules for the two architectures built here. */
static const struct { const char *name; uint32_t arch; } allowed_arch[] = {
  { "arch_prctl", SCMP_ARCH_X86_64 }, { "modify_ldt", SCMP_ARCH_X86_64 },
  { "arm_fadvise64_64", SCMP_ARCH_AARCH64 }, { "arm_sync_file_range", SCMP_ARCH_AARCH64 },
  { "sync_file_range2", SCMP_ARCH_AARCH64 }, { "breakpoint", SCMP_ARCH_AARCH64 },
  { "cacheflush", SCMP_ARCH_AARCH64 }, { "set_tls", SCMP_ARCH_AARCH64 },
  { NULL, 0 },
};

/* Rules on one argument: the syscall is allowed when the comparison holds (any row of its name). */
#define NS_FLAGS (CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWCGROUP)
static const struct { const char *name; unsigned arg; enum scmp_compare op; uint64_t a, b; } conditional[] = {
  { "socket", 0, SCMP_CMP_LT, 38, 0 }, /* below AF_ALG */
  { "socket", 0, SCMP_CMP_EQ, 39, 0 }, /* AF_NFC, between AF_ALG and AF_VSOCK */
  { "socket", 0, SCMP_CMP_EQ, 41, 0 }, { "socket", 0, SCMP_CMP_EQ, 42, 0 }, { "socket", 0, SCMP_CMP_EQ, 43, 0 },
  { "socket", 0, SCMP_CMP_EQ, 44, 0 }, { "socket", 0, SCMP_CMP_EQ, 45, 0 }, /* AF_KCM .. AF_MCTP */
  { "personality", 0, SCMP_CMP_EQ, 0x0, 0 },        /* PER_LINUX */
  { "personality", 0, SCMP_CMP_EQ, 0x8, 0 },        /* PER_LINUX32 */
  { "personality", 0, SCMP_CMP_EQ, 0x20000, 0 },    /* UNAME26 */
  { "personality", 0, SCMP_CMP_EQ, 0x20008, 0 },    /* UNAME26 | PER_LINUX32 */
  { "personality", 0, SCMP_CMP_EQ, 0xffffffff, 0 }, /* query */
  { "clone", 0, SCMP_CMP_MASKED_EQ, NS_FLAGS, 0 },  /* no new namespace (threads, fork) */
  { NULL, 0, 0, 0, 0 },
};

/* Refused with ENOSYS rather than the default's EPERM, so that the C library falls back. */
static const char *enosys[] = { "clone3", NULL };

/* What this filter must never allow (the build stops if a rule above names one): Hangar's earlier
 * deny list, the calls the audit reached, and the profile's capability-only calls. */
static const char *refused[] = {
  "acct", "add_key", "adjtimex", "bpf", "chroot", "clock_adjtime", "clock_adjtime64", "clock_settime",
  "clock_settime64", "create_module", "delete_module", "fanotify_init", "finit_module", "fsconfig", "fsmount",
  "fsopen", "fspick", "get_kernel_syms", "get_mempolicy", "init_module", "io_uring_enter",
  "io_uring_register", "io_uring_setup", "ioperm", "iopl", "kcmp", "kexec_file_load", "kexec_load", "keyctl",
  "lookup_dcookie", "lsm_get_self_attr", "lsm_list_modules", "lsm_set_self_attr", "mbind", "migrate_pages",
  "mount", "mount_setattr", "move_mount", "move_pages", "name_to_handle_at", "nfsservctl",
  "open_by_handle_at", "open_tree", "perf_event_open", "pidfd_getfd", "pivot_root", "process_madvise",
  "process_vm_readv", "process_vm_writev", "ptrace", "query_module", "quotactl", "quotactl_fd", "reboot",
  "request_key", "set_mempolicy", "set_mempolicy_home_node", "setdomainname", "sethostname", "setns",
  "settimeofday", "stime", "swapoff", "swapon", "syslog", "umount", "umount2", "unshare", "uselib",
  "userfaultfd", "ustat", "vhangup", "_sysctl",
  NULL,
};

/* Numbers of listed syscalls newer than the libseccomp this may be built with (2.5.4 as released
 * knows kernel 5.17's; Debian 12's 2.5.4-1+deb12u1 adds up to futex_requeue), from libseccomp's
 * src/syscalls.csv (90d3f7dd, kernel 7.1). Used only for a name the installed libseccomp does not
 * know. Since kernel 5.1 a new syscall has the same number on x86_64 and aarch64; uretprobe is
 * x86_64's alone, riscv_hwprobe riscv64's (so skipped here). A listed name that is in neither
 * stops the build: skipped, it would get EPERM, not ENOSYS (its number is below the highest). */
static const struct { const char *name; int nr; uint32_t only; } newer[] = {
  { "cachestat", 451, 0 }, { "fchmodat2", 452, 0 }, { "map_shadow_stack", 453, 0 }, { "futex_wake", 454, 0 },
  { "futex_wait", 455, 0 }, { "futex_requeue", 456, 0 },
  { "statmount", 457, 0 }, { "listmount", 458, 0 }, { "mseal", 462, 0 }, { "setxattrat", 463, 0 },
  { "getxattrat", 464, 0 }, { "listxattrat", 465, 0 }, { "removexattrat", 466, 0 },
  { "uretprobe", 335, SCMP_ARCH_X86_64 }, { "riscv_hwprobe", 258, SCMP_ARCH_RISCV64 },
  { NULL, 0, 0 },
};

static const char *op_names[] = { [SCMP_CMP_NE] = "ne", [SCMP_CMP_LT] = "lt", [SCMP_CMP_LE] = "le", [SCMP_CMP_EQ] = "eq",
                                   [SCMP_CMP_GE] = "ge", [SCMP_CMP_GT] = "gt", [SCMP_CMP_MASKED_EQ] = "masked_eq" };
static uint32_t arch;
static int highest = -1, listing = 0;

static void die(const char *what, int rc) {
  fprintf(stderr, "hangar-seccomp-gen: %s: %s\n", what, strerror(rc < 0 ? -rc : rc));
  exit(1);
}

/* The number of name on this architecture, or -1 when it has none; stops the build on a name
 * neither libseccomp nor newer[] knows. */
static int resolve(const char *name) {
  int nr = seccomp_syscall_resolve_name(name);
  if (nr >= 0) return nr;
  if (nr != __NR_SCMP_ERROR) return -1; /* a syscall of other architectures only */
  for (int i = 0; newer[i].name; i++)
    if (!strcmp(newer[i].name, name)) return !newer[i].only || newer[i].only == arch ? newer[i].nr : -1;
  fprintf(stderr, "hangar-seccomp-gen: %s: not known to this libseccomp, and newer[] gives no number for it (add it, from libseccomp's src/syscalls.csv)\n", name);
  exit(1);
}

static void check_not_refused(const char *name) {
  for (const char **r = refused; *r; r++)
    if (!strcmp(*r, name)) {
      fprintf(stderr, "hangar-seccomp-gen: %s is both allowed and refused\n", name);
      exit(1);
    }
}

static void add(scmp_filter_ctx ctx, uint32_t action, const char *name, unsigned n, const struct scmp_arg_cmp *cmp) {
  if (action == SCMP_ACT_ALLOW) check_not_refused(name);
  int nr = resolve(name);
  if (nr < 0) return;
  if (nr > highest) highest = nr;
  int rc = seccomp_rule_add_array(ctx, action, nr, n, cmp);
  if (rc) die(name, rc);
  if (!listing) return;
  if (action != SCMP_ACT_ALLOW) printf("errno %s %d %d\n", name, nr, (int)(action & 0xffff));
  else if (!n) printf("allow %s %d\n", name, nr);
  else printf("allow %s %d a%u %s 0x%llx 0x%llx\n", name, nr, cmp->arg, op_names[cmp->op], (unsigned long long)cmp->datum_a, (unsigned long long)cmp->datum_b);
}

static scmp_filter_ctx build(int refusal) {
  arch = seccomp_arch_native();
  if (arch != SCMP_ARCH_X86_64 && arch != SCMP_ARCH_AARCH64) {
    fprintf(stderr, "hangar-seccomp-gen: the filter is written for x86_64 and aarch64 only\n");
    exit(1);
  }
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(refusal));
  if (!ctx) die("seccomp_init", ENOMEM);
  int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
  if (rc) die("bad-arch action", rc);
  rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2); /* a binary tree: ~9 jumps, not ~350 */
  if (rc) die("optimize", rc);
  for (const char **s = allowed; *s; s++) add(ctx, SCMP_ACT_ALLOW, *s, 0, NULL);
  for (int i = 0; allowed_arch[i].name; i++)
    if (allowed_arch[i].arch == arch) add(ctx, SCMP_ACT_ALLOW, allowed_arch[i].name, 0, NULL);
  for (int i = 0; conditional[i].name; i++) {
    struct scmp_arg_cmp cmp = { conditional[i].arg, conditional[i].op, conditional[i].a, conditional[i].b };
    add(ctx, SCMP_ACT_ALLOW, conditional[i].name, 1, &cmp);
  }
  for (const char **s = enosys; *s; s++) add(ctx, SCMP_ACT_ERRNO(ENOSYS), *s, 0, NULL);
  if (listing) printf("default errno %d\nenosys above %d\n", refusal, highest);
  return ctx;
}

/* libseccomp's program, behind a prefix that answers ENOSYS for this architecture's syscalls
 * numbered above the highest named one (x32 numbers, 0x40000000 and up, go on to be killed). */
static size_t program(scmp_filter_ctx ctx, unsigned char **out) {
  struct sock_filter prefix[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 4),               /* seccomp_data.arch */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 0, 4),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),               /* seccomp_data.nr */
    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 2, 0),
    BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, (uint32_t)highest, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
  };
  FILE *tmp = tmpfile();
  if (!tmp) die("tmpfile", errno);
  int rc = seccomp_export_bpf(ctx, fileno(tmp));
  if (rc) die("export", rc);
  long n = lseek(fileno(tmp), 0, SEEK_END);
  if (n <= 0 || n % sizeof(struct sock_filter)) die("export size", EINVAL);
  size_t total = sizeof prefix + (size_t)n;
  if (total / sizeof(struct sock_filter) > BPF_MAXINSNS) die("program size", E2BIG);
  unsigned char *buf = malloc(total);
  if (!buf) die("malloc", ENOMEM);
  memcpy(buf, prefix, sizeof prefix);
  if (pread(fileno(tmp), buf + sizeof prefix, (size_t)n, 0) != n) die("read back", errno);
  fclose(tmp);
  *out = buf;
  return total;
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "--list")) {
    listing = 1;
    seccomp_release(build(EPERM));
    return 0;
  }
  int refusal = EPERM;
  if (argc == 5 && !strcmp(argv[1], "--errno")) {
    refusal = atoi(argv[2]);
    argv += 2;
    argc -= 2;
  }
  if (argc != 3 || refusal <= 0 || refusal > 4095) {
    fprintf(stderr, "usage: hangar-seccomp-gen [--errno N] OUT.bpf OUT.h | --list\n");
    return 2;
  }
  scmp_filter_ctx ctx = build(refusal);
  unsigned char *buf;
  size_t len = program(ctx, &buf);
  seccomp_release(ctx);

  FILE *bpf = fopen(argv[1], "wb");
  if (!bpf || fwrite(buf, 1, len, bpf) != len || fclose(bpf)) die(argv[1], errno);
  FILE *out = fopen(argv[2], "w");
  if (!out) die(argv[2], errno);
  fprintf(out, "/* generated by hangar-seccomp-gen from runtime/local/seccomp-gen.c */\nstatic const unsigned char hangar_bpf[] __attribute__((aligned(8))) = {");
  for (size_t i = 0; i < len; i++) fprintf(out, "%s0x%02x", i % 12 ? ", " : (i ? ",\n  " : "\n  "), buf[i]);
  fprintf(out, "\n};\n");
  if (fclose(out)) die(argv[2], errno);
  free(buf);
  return 0;
}
