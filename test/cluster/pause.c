/* The pod sandbox ("pause") process of the offline test images: sleeps until SIGINT or
 * SIGTERM, reaping children. Also the entrypoint of the shell-less image. */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
static void down(int s) { (void)s; _exit(0); }
static void reap(int s) { (void)s; while (waitpid(-1, 0, WNOHANG) > 0) {} }
int main(void) {
  struct sigaction a = {0}, r = {0};
  a.sa_handler = down;
  sigaction(SIGINT, &a, 0);
  sigaction(SIGTERM, &a, 0);
  r.sa_handler = reap;
  r.sa_flags = SA_NOCLDSTOP;
  sigaction(SIGCHLD, &r, 0);
  for (;;) pause();
}
