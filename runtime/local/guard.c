/*
 * hangar-guard: the last step before a command runs inside a local sandbox.
 *
 *   hangar-guard COMMAND [ARGS...]
 *
 * exec, file and TTY commands join a sandbox's namespaces with nsenter, which leaves them
 * with every capability of the sandbox's user namespace and no seccomp filter. This helper,
 * mounted read-only into each sandbox at /dev/.hangar-guard, drops every capability (bounding,
 * ambient, effective, permitted, inheritable), sets no_new_privs, applies the same seccomp
 * filter bubblewrap gives the sandbox's main process (embedded at build time), then execs the
 * command. Any step that fails stops it with exit 125: a command never runs unconfined.
 * Exit 127 when the command is not found, 126 when it cannot be executed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "seccomp-bpf.h"

static int fail(const char *what) {
  fprintf(stderr, "hangar-guard: %s: %s\n", what, strerror(errno));
  return 125;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: hangar-guard COMMAND [ARGS...]\n");
    return 125;
  }
  /* Dropping the bounding set needs CAP_SETPCAP. A command started as a non-root uid has no
   * capabilities at all (checked below); with no_new_privs it cannot gain any by exec. */
  int bounded = 1;
  for (int cap = 0; cap <= 63 && bounded; cap++) {
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) {
      if (errno != EPERM) return fail("drop bounding capability");
      bounded = 0;
    }
  }
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return fail("clear ambient capabilities");
  struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  if (syscall(SYS_capset, &hdr, data) != 0) return fail("drop capabilities");
  if (!bounded) {
    struct __user_cap_data_struct now[2];
    if (syscall(SYS_capget, &hdr, now) != 0) return fail("read capabilities");
    if (now[0].permitted || now[1].permitted || now[0].effective || now[1].effective) {
      errno = EPERM;
      return fail("capabilities left");
    }
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return fail("no_new_privs");
  struct sock_fprog prog = { (unsigned short)(sizeof hangar_bpf / sizeof(struct sock_filter)), (struct sock_filter *)hangar_bpf };
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) return fail("seccomp");
  execvp(argv[1], argv + 1);
  int e = errno;
  fprintf(stderr, "hangar-guard: %s: %s\n", argv[1], strerror(e));
  return e == ENOENT ? 127 : 126;
}
