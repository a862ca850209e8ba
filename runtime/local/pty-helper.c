/*
 * hangar-pty: run a command on a new pseudo-terminal and relay it over plain pipes.
 *
 *   hangar-pty COLS ROWS -- COMMAND [ARGS...]
 *
 * stdin is copied to the terminal; terminal output goes to stdout as it is read. Lines
 * "COLS ROWS\n" on fd 3 (if open) resize the terminal. stdin EOF stops copying input but
 * leaves the terminal open (a shell sees Ctrl-D only if the client sent the byte). Exits
 * with the command's exit code, or 128+N when it died of signal N. SIGTERM/SIGHUP/SIGINT
 * to this helper are forwarded to the command's process group.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child = -1;

static void forward(int sig) {
  if (child > 0) kill(-child, sig);
}

static int write_all(int fd, const char *buf, ssize_t n) {
  while (n > 0) {
    ssize_t w = write(fd, buf, (size_t)n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    buf += w;
    n -= w;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 5 || strcmp(argv[3], "--") != 0) {
    fprintf(stderr, "usage: hangar-pty COLS ROWS -- COMMAND [ARGS...]\n");
    return 125;
  }
  struct winsize ws = {0};
  ws.ws_col = (unsigned short)atoi(argv[1]);
  ws.ws_row = (unsigned short)atoi(argv[2]);
  if (ws.ws_col == 0) ws.ws_col = 80;
  if (ws.ws_row == 0) ws.ws_row = 24;
  int master;
  child = forkpty(&master, NULL, NULL, &ws);
  if (child < 0) {
    perror("hangar-pty: forkpty");
    return 125;
  }
  if (child == 0) {
    execvp(argv[4], &argv[4]);
    fprintf(stderr, "hangar-pty: %s: %s\n", argv[4], strerror(errno));
    _exit(errno == ENOENT ? 127 : 126);
  }
  struct sigaction sa = {0};
  sa.sa_handler = forward;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  int in_open = 1, ctl_open = fcntl(3, F_GETFD) != -1;
  char buf[65536], line[64];
  size_t line_len = 0;
  for (;;) {
    struct pollfd fds[3] = {{master, POLLIN, 0}, {in_open ? 0 : -1, POLLIN, 0}, {ctl_open ? 3 : -1, POLLIN, 0}};
    if (poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t n = read(master, buf, sizeof buf);
      if (n <= 0) {
        if (n < 0 && errno == EINTR) continue;
        break; /* EIO: every slave fd is closed, the command is gone */
      }
      if (write_all(1, buf, n) < 0) break;
    }
    if (in_open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      ssize_t n = read(0, buf, sizeof buf);
      if (n <= 0) in_open = 0;
      else if (write_all(master, buf, n) < 0) in_open = 0;
    }
    if (ctl_open && (fds[2].revents & (POLLIN | POLLHUP | POLLERR))) {
      char c;
      ssize_t n = read(3, &c, 1);
      if (n <= 0) {
        ctl_open = 0;
      } else if (c == '\n') {
        line[line_len] = 0;
        unsigned cols = 0, rows = 0;
        if (sscanf(line, "%u %u", &cols, &rows) == 2 && cols > 0 && rows > 0 && cols < 10000 && rows < 10000) {
          struct winsize nws = {0};
          nws.ws_col = (unsigned short)cols;
          nws.ws_row = (unsigned short)rows;
          ioctl(master, TIOCSWINSZ, &nws);
        }
        line_len = 0;
      } else if (line_len < sizeof line - 1) {
        line[line_len++] = c;
      }
    }
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 125;
}
