// The guard: a command of the agent's must not outlive the agent (docs/adr/0045-a-cut-exec-stream-kills-its-command.md).
//
// The agent kills every command it started when its channel ends (main.go), but only when it lives
// to see that end. The container runtime does not let it: when an exec stream is cut (a kubelet or
// apiserver restart, Hangar's replica gone), containerd SIGKILLs the exec's own process, the agent,
// and nothing else; its commands are reparented and run on, unseen, with nobody left to kill them.
//
// So the agent forks `hangar-agent guard` first, its own process group (a command's group kill
// never reaches it), reading a pipe from the agent: "+PID" when a command starts, "-PID" once the
// agent reaped it. When the pipe ends, however the agent ended (SIGKILL included: the kernel closes
// its end), the guard kills the tree of every command still registered (killTree) and exits.
// Commands in a reusable pod's cell need no guard: the cell's init kills a command whose client
// connection is gone (cell_serve.go).
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
)

// guard is the agent's end of the pipe to its guard process (nil: no guard, commands unguarded).
type guard struct {
	mu sync.Mutex
	w  io.WriteCloser
}

// startGuard forks the guard; nil when it cannot (the agent then works as before, unguarded).
func startGuard() *guard {
	self, err := os.Executable()
	if err != nil {
		self = "/proc/self/exe"
	}
	cmd := exec.Command(self, "guard")
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil
	}
	// Its own process group; no output (it must not hold the exec stream's pipes open).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil
	}
	// Reaped when it exits (after the agent's end, usually never seen by the agent).
	go cmd.Wait()
	return &guard{w: w}
}

func (g *guard) note(sign byte, pid int) {
	if g == nil || pid <= 0 {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	fmt.Fprintf(g.w, "%c%d\n", sign, pid)
}

// started registers a command's pid; ended forgets it (reaped: its pid may be reused).
func (g *guard) started(pid int) { g.note('+', pid) }
func (g *guard) ended(pid int)   { g.note('-', pid) }

// guardMain: `hangar-agent guard`. Reads registrations until stdin ends, then kills what is left.
func guardMain() {
	// The signals that end a session or a pipeline are not its end: only the pipe's is.
	signal.Ignore(syscall.SIGHUP, syscall.SIGINT, syscall.SIGPIPE, syscall.SIGTERM)
	live := guardRead(os.Stdin)
	for pid := range live {
		killTree(pid)
	}
}

// guardRead reads "+PID"/"-PID" lines until r ends; the pids registered and not forgotten. Pure but for r.
func guardRead(r io.Reader) map[int]bool {
	live := map[int]bool{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 2 {
			continue
		}
		pid, err := strconv.Atoi(line[1:])
		if err != nil || pid <= 0 {
			continue
		}
		switch line[0] {
		case '+':
			live[pid] = true
		case '-':
			delete(live, pid)
		}
	}
	return live
}
