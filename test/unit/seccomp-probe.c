/*
 * The probe of test/unit/seccomp.test.ts: makes each named call in a child of its own and prints
 * what it answered, one line a row: "NAME ok", "NAME errno N" or "NAME signal N".
 *
 *   seccomp-probe [--filter FILE.bpf] ROW...
 *
 * --filter installs FILE.bpf first (no_new_privs, then seccomp(2) as hangar-guard does); without
 * it the calls run as they would without Hangar's filter (or under whatever the caller applied:
 * the test also runs it through hangar-guard).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <sys/wait.h>
#include <unistd.h>

static long child_exit(long r) {
  if (r == 0) _exit(0); /* the child of a clone that succeeded */
  return r;
}

static void *thread_main(void *arg) { return arg; }

static long call(const char *row) {
  static char page[8192] __attribute__((aligned(4096)));
  static uint64_t clone3_args[11];
  static char perf_attr[128], io_uring_params[120], bpf_attr[128], handle[16];
  int mode = 0, status = 0, fds[2];
  char byte = 'x';
  if (!strcmp(row, "set_mempolicy")) return syscall(SYS_set_mempolicy, 0 /* MPOL_DEFAULT */, NULL, 0);
  if (!strcmp(row, "get_mempolicy")) return syscall(SYS_get_mempolicy, &mode, NULL, 0, NULL, 0);
  if (!strcmp(row, "mbind")) return syscall(SYS_mbind, page, 4096, 0, NULL, 0, 0);
  if (!strcmp(row, "move_pages")) return syscall(SYS_move_pages, 0, 0, NULL, NULL, &status, 0);
  if (!strcmp(row, "set_mempolicy_home_node")) return syscall(450, page, 4096, 0, 0);
  if (!strcmp(row, "personality_addr_no_randomize")) return syscall(SYS_personality, 0x0040000);
  if (!strcmp(row, "personality_linux_high_bits")) return syscall(SYS_personality, 0x100000000UL);
  if (!strcmp(row, "keyctl")) return syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3, 0);
  if (!strcmp(row, "add_key")) return syscall(SYS_add_key, "user", "hangar-probe", "x", 1, -2);
  if (!strcmp(row, "request_key")) return syscall(SYS_request_key, "user", "hangar-probe-none", NULL, 0);
  if (!strcmp(row, "bpf")) return syscall(SYS_bpf, 0 /* BPF_MAP_CREATE */, bpf_attr, sizeof bpf_attr);
  if (!strcmp(row, "perf_event_open")) {
    *(uint32_t *)(perf_attr + 4) = sizeof perf_attr;
    return syscall(SYS_perf_event_open, perf_attr, 0, -1, -1, 0);
  }
  if (!strcmp(row, "userfaultfd")) return syscall(SYS_userfaultfd, 0);
  if (!strcmp(row, "io_uring_setup")) return syscall(SYS_io_uring_setup, 1, io_uring_params);
  if (!strcmp(row, "unshare_user")) return syscall(SYS_unshare, CLONE_NEWUSER);
  if (!strcmp(row, "unshare_files")) return syscall(SYS_unshare, CLONE_FILES);
  if (!strcmp(row, "clone_newuser")) return child_exit(syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0));
  if (!strcmp(row, "clone_newnet")) return child_exit(syscall(SYS_clone, CLONE_NEWNET | SIGCHLD, 0, 0, 0, 0));
  if (!strcmp(row, "clone3")) {
    clone3_args[4] = SIGCHLD; /* exit_signal */
    return child_exit(syscall(SYS_clone3, clone3_args, sizeof clone3_args));
  }
  if (!strcmp(row, "setns")) return syscall(SYS_setns, -1, 0);
  if (!strcmp(row, "mount")) return syscall(SYS_mount, "/nonexistent-hangar-probe", "/nonexistent-hangar-probe", NULL, 4096 /* MS_BIND */, NULL);
  if (!strcmp(row, "chroot")) return syscall(SYS_chroot, "/");
  if (!strcmp(row, "ptrace")) return syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0);
  if (!strcmp(row, "process_vm_readv")) return syscall(SYS_process_vm_readv, getpid(), NULL, 0, NULL, 0, 0);
  if (!strcmp(row, "pidfd_getfd")) return syscall(SYS_pidfd_getfd, -1, 0, 0);
  if (!strcmp(row, "name_to_handle_at")) return syscall(SYS_name_to_handle_at, AT_FDCWD, "/", handle, &mode, 0);
  if (!strcmp(row, "adjtimex")) {
    struct timex tx = { 0 };
    return syscall(SYS_adjtimex, &tx);
  }
  if (!strcmp(row, "lsm_list_modules")) return syscall(461, NULL, &mode, 0);
  if (!strcmp(row, "socket_alg")) return syscall(SYS_socket, 38, SOCK_SEQPACKET, 0);
  if (!strcmp(row, "socket_vsock")) return syscall(SYS_socket, 40, SOCK_STREAM, 0);
  if (!strcmp(row, "socket_vsock_high_bits")) return syscall(SYS_socket, 0x100000000UL | 40, SOCK_STREAM, 0);
  if (!strcmp(row, "open_tree_attr")) return syscall(467, -1, "", 0, NULL, 0);
  if (!strcmp(row, "syscall_1000")) return syscall(1000);
  if (!strcmp(row, "x32_getpid")) return syscall(0x40000000 | SYS_getpid);
  /* allowed */
  if (!strcmp(row, "read_write")) {
    if (pipe(fds) || write(fds[1], &byte, 1) != 1) return -1;
    return read(fds[0], &byte, 1) == 1 ? 0 : -1;
  }
  if (!strcmp(row, "getpid")) return syscall(SYS_getpid) > 0 ? 0 : -1;
  if (!strcmp(row, "thread")) { /* glibc tries clone3, gets ENOSYS, falls back to clone */
    pthread_t t;
    int rc = pthread_create(&t, NULL, thread_main, NULL);
    if (rc) return errno = rc, -1;
    return pthread_join(t, NULL) ? -1 : 0;
  }
  if (!strcmp(row, "fork_exec")) {
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
      execl("/bin/sh", "sh", "-c", "exit 7", (char *)NULL);
      _exit(1);
    }
    if (waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 7 ? 0 : (errno = ECHILD, -1);
  }
  if (!strcmp(row, "mmap")) {
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? -1 : mprotect(p, 4096, PROT_READ);
  }
  if (!strcmp(row, "personality_linux")) return syscall(SYS_personality, 0);
  if (!strcmp(row, "personality_query")) return syscall(SYS_personality, 0xffffffffUL);
  if (!strcmp(row, "socket_inet")) return syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);
  if (!strcmp(row, "socket_unix")) return syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0);
  if (!strcmp(row, "socket_netlink")) return syscall(SYS_socket, AF_NETLINK, SOCK_RAW, 0);
  if (!strcmp(row, "arch_prctl")) return syscall(SYS_arch_prctl, 0x1003 /* ARCH_GET_FS */, &mode) < 0 ? -1 : 0;
  if (!strcmp(row, "prctl")) return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) < 0 ? -1 : 0;
  if (!strcmp(row, "statmount")) return syscall(457, NULL, NULL, 0, 0);
  if (!strcmp(row, "mseal")) return syscall(462, page, 0, 0);
  fprintf(stderr, "seccomp-probe: unknown row %s\n", row);
  exit(2);
}

int main(int argc, char **argv) {
  int first = 1;
  if (argc > 2 && !strcmp(argv[1], "--filter")) {
    FILE *f = fopen(argv[2], "rb");
    static struct sock_filter insns[BPF_MAXINSNS];
    size_t n = f ? fread(insns, sizeof insns[0], BPF_MAXINSNS, f) : 0;
    if (!n) return perror(argv[2]), 2;
    struct sock_fprog prog = { (unsigned short)n, insns };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) return perror("seccomp"), 2;
    first = 3;
  }
  for (int i = first; i < argc; i++) {
    int fd[2];
    if (pipe(fd)) return perror("pipe"), 2;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return perror("fork"), 2;
    if (pid == 0) {
      close(fd[0]);
      long r = call(argv[i]);
      int e = r < 0 ? errno : 0;
      if (write(fd[1], &e, sizeof e) != sizeof e) _exit(3);
      _exit(0);
    }
    close(fd[1]);
    int e = -1, status = 0;
    ssize_t got = read(fd[0], &e, sizeof e);
    close(fd[0]);
    if (waitpid(pid, &status, 0) != pid) return perror("waitpid"), 2;
    if (WIFSIGNALED(status)) printf("%s signal %d\n", argv[i], WTERMSIG(status));
    else if (got != sizeof e) printf("%s lost\n", argv[i]);
    else if (e) printf("%s errno %d\n", argv[i], e);
    else printf("%s ok\n", argv[i]);
  }
  return 0;
}
