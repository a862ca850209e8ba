package main

// `hangar-agent supervise`: the main process of a reusable pool pod (docs/adr/0040-pool-pod-reuse.md).
// It keeps one cell (cell.go) ready under HANGAR_CELL_DIR and answers on HANGAR_CELL_DIR/sv.sock
// (root only; the cell never sees the directory): "reset" kills the cell (the kernel ends its pid
// namespace: every process the sandbox left, however it detached), wipes what the sandbox could
// write outside the cell's own layer (HANGAR_CELL_WIPE: the pod's scratch volumes), answers
// {"killed_ms","ready_ms"} or {"error"}, and makes the next cell in the background (a command for
// it waits until it is there). A cell that dies by itself is replaced.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

type supervisor struct {
	dir  string
	wipe []string
	own  []string
	mu   sync.Mutex // one reset at a time
	n    int
	cell *os.Process
	exit chan struct{} // closes when the current cell's init is reaped
	log  *os.File
}

// startCell makes DIR/cN and starts its init with the scratch volumes given (JSON, cell_volumes.go;
// "" for none); it returns once the init says it is ready.
func (s *supervisor) startCell(volumes string) error {
	s.n++
	dir := filepath.Join(s.dir, "c"+strconv.Itoa(s.n))
	for _, d := range []string{"upper", "work", "root"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return err
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	p, err := os.StartProcess("/proc/self/exe", []string{"hangar-agent", "cell", dir}, &os.ProcAttr{
		Env:   append(os.Environ(), "HANGAR_CELL_OWN="+strings.Join(s.own, ":"), "HANGAR_CELL_VOLUMES="+volumes),
		Files: []*os.File{nil, s.log, s.log, w},
		Sys: &syscall.SysProcAttr{
			// Not a user namespace: the pod's own already makes the sandbox's root not the node's,
			// and mounts made by this (namespaced) root stay out of the sandbox's reach once it
			// confines itself; a nested one would lock the container's mounts and refuse the
			// overlay on /.
			Cloneflags: syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS,
			Setsid:     true,
		},
	})
	w.Close()
	if err != nil {
		return fmt.Errorf("starting a cell: %w", err)
	}
	exit := make(chan struct{})
	s.cell, s.exit = p, exit
	go func() {
		p.Wait()
		close(exit)
	}()
	line, _ := bufio.NewReader(r).ReadString('\n')
	if strings.TrimSpace(line) != "ok" {
		p.Kill()
		<-exit
		os.RemoveAll(dir)
		return fmt.Errorf("the cell did not start: %s", strings.TrimSpace(strings.TrimPrefix(line, "error: ")))
	}
	// Clients connect to DIR/cell.sock: point it at the new cell (a rename is atomic).
	tmp := filepath.Join(s.dir, ".cell.sock")
	os.Remove(tmp)
	if err := os.Symlink(filepath.Join(dir, "cell.sock"), tmp); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(s.dir, "cell.sock"))
}

// reset ends the current cell and wipes; the next cell is made in the background (its commands
// wait for it: dialCell). killed: until no process of the old cell is left. With volumes (a claim's
// scratch volumes) the next cell is made with them before reset answers (ready: how long it took).
func (s *supervisor) reset(volumes string) (killed, ready time.Duration, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t0 := time.Now()
	old := filepath.Join(s.dir, "c"+strconv.Itoa(s.n))
	os.Remove(filepath.Join(s.dir, "cell.sock"))
	if s.cell != nil {
		s.cell.Signal(syscall.SIGKILL)
		<-s.exit // reaped only once the kernel killed every process of its pid namespace
		s.cell, s.exit = nil, nil
	}
	killed = time.Since(t0)
	for _, v := range s.wipe {
		if err := emptyDir(v); err != nil {
			return killed, 0, fmt.Errorf("wiping %s: %w", v, err)
		}
	}
	go os.RemoveAll(old) // the old layer: nothing can reach it any more
	if volumes != "" {
		t1 := time.Now()
		err := s.startCell(volumes)
		if err == nil {
			return killed, time.Since(t1), nil
		}
		defer s.startLater() // never left without a cell
		return killed, 0, err
	}
	s.startLater()
	return killed, 0, nil
}

// startLater makes the next plain cell in the background (once the lock is free).
func (s *supervisor) startLater() {
	go func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.cell != nil {
			return
		}
		if err := s.startCell(""); err != nil {
			fmt.Fprintln(os.Stderr, "hangar-agent supervise: the next cell did not start:", err)
		}
	}()
}

// emptyDir removes everything inside dir (not dir itself: it is a mount point).
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func (s *supervisor) serve(ln int) {
	for {
		c, _, err := syscall.Accept4(ln, syscall.SOCK_CLOEXEC)
		if err != nil {
			if errors.Is(err, syscall.EINTR) || errors.Is(err, syscall.ECONNABORTED) {
				continue
			}
			return
		}
		go func() {
			defer syscall.Close(c)
			b := make([]byte, 1<<16)
			n, _, _, _, err := syscall.Recvmsg(c, b, nil, 0)
			if n < 0 {
				n = 0
			}
			verb, volumes, _ := strings.Cut(string(b[:n]), "\n")
			if err != nil || verb != "reset" {
				return
			}
			killed, ready, err := s.reset(volumes)
			ans := map[string]any{"killed_ms": killed.Seconds() * 1000, "ready_ms": ready.Seconds() * 1000}
			if err != nil {
				ans = map[string]any{"error": err.Error()}
			}
			out, _ := json.Marshal(ans)
			syscall.Sendmsg(c, out, nil, nil, 0)
		}()
	}
}

func superviseMain() {
	s := &supervisor{dir: os.Getenv("HANGAR_CELL_DIR"), log: os.Stderr}
	if s.dir == "" {
		fmt.Fprintln(os.Stderr, "hangar-agent supervise: HANGAR_CELL_DIR is not set")
		os.Exit(2)
	}
	for _, v := range strings.Split(os.Getenv("HANGAR_CELL_WIPE"), ":") {
		if v != "" {
			s.wipe = append(s.wipe, v)
		}
	}
	exe, _ := os.Executable()
	s.own = []string{s.dir, filepath.Dir(exe)}
	// Orphans of exec'd processes come to the pod's pid 1 (or to this process when it is not pid 1).
	syscall.RawSyscall(syscall.SYS_PRCTL, 36 /* PR_SET_CHILD_SUBREAPER */, 1, 0)
	ln, err := listenCell(filepath.Join(s.dir, "sv.sock"))
	if err == nil {
		err = s.startCell("")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hangar-agent supervise:", err)
		os.Exit(1)
	}
	go s.serve(ln)
	go reapOrphans(s)
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM, syscall.SIGINT)
	<-term
	s.mu.Lock()
	if s.cell != nil {
		s.cell.Signal(syscall.SIGKILL)
	}
	os.Exit(0)
}

// reapOrphans collects orphans (never the cell's init, which its own Wait collects), and replaces a
// cell that died by itself.
func reapOrphans(s *supervisor) {
	for range time.Tick(time.Second) {
		s.mu.Lock()
		cellPid := -1
		if s.cell != nil {
			cellPid = s.cell.Pid
		}
		exit := s.exit
		s.mu.Unlock()
		for _, pid := range childrenOf(os.Getpid()) {
			if pid != cellPid {
				var st syscall.WaitStatus
				syscall.Wait4(pid, &st, syscall.WNOHANG, nil)
			}
		}
		select {
		case <-exit:
			s.mu.Lock()
			if s.exit == exit {
				fmt.Fprintln(os.Stderr, "hangar-agent supervise: the cell ended by itself; starting a fresh one")
				s.cell = nil
				if err := s.startCell(""); err != nil {
					fmt.Fprintln(os.Stderr, "hangar-agent supervise:", err)
				}
			}
			s.mu.Unlock()
		default:
		}
	}
}

// childrenOf lists the direct children of pid (from /proc/PID/task/*/children).
func childrenOf(pid int) []int {
	tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	var out []int
	for _, t := range tasks {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + t.Name() + "/children")
		for _, f := range strings.Fields(string(b)) {
			if v := atoi(f); v > 0 {
				out = append(out, v)
			}
		}
	}
	return out
}
