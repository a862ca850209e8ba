// The guard (guard.go): the agent's commands die with it even when it is SIGKILLed, as containerd
// does to an exec's process when its stream is cut; what a finished command left is not touched.
package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestGuardReadKeepsWhatWasStartedAndNotForgotten(t *testing.T) {
	got := guardRead(strings.NewReader("+10\n+11\n-10\n+x\n-\n+0\n+-4\n+12\n"))
	if len(got) != 2 || !got[11] || !got[12] {
		t.Fatalf("got %v, want 11 and 12", got)
	}
}

// readPid waits up to 5 s for a pid written into path.
func readPid(t *testing.T, path string) int {
	t.Helper()
	for i := 0; i < 500; i++ {
		if b, err := os.ReadFile(path); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			return atoi(string(bytes.TrimSpace(b)))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s was never written", path)
	return 0
}

func TestAGuardedAgentsCommandsDieWithItsSIGKILL(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "hangar-agent")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	agent := exec.Command(bin)
	in, _ := agent.StdinPipe()
	out, _ := agent.StdoutPipe()
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.Process.Kill(); agent.Wait() })
	go io.Copy(io.Discard, out)
	// 1: finished, leaving a child of its own behind (not the guard's to kill, as before it).
	in.Write(encode('S', 1, start("/bin/sh", "-c", "setsid sleep 300 & echo $! > "+dir+"/left")))
	left := readPid(t, dir+"/left")
	t.Cleanup(func() { syscall.Kill(left, syscall.SIGKILL) })
	// 2: running: the shell, its child in the same group, and one in a session of its own.
	in.Write(encode('S', 2, start("/bin/sh", "-c", "echo $$ > "+dir+"/sh; sleep 300 & echo $! > "+dir+"/child; setsid sleep 300 & echo $! > "+dir+"/own; wait")))
	pids := []int{readPid(t, dir+"/sh"), readPid(t, dir+"/child"), readPid(t, dir+"/own")}
	t.Cleanup(func() {
		for _, p := range pids {
			syscall.Kill(p, syscall.SIGKILL)
		}
	})
	time.Sleep(200 * time.Millisecond) // command 1 reaped and forgotten
	agent.Process.Signal(syscall.SIGKILL)
	agent.Wait()
	for _, p := range pids {
		for i := 0; alive(strconv.Itoa(p)); i++ {
			if i > 250 {
				t.Fatalf("pid %d of a running command outlived its SIGKILLed agent by 5 s", p)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if !alive(strconv.Itoa(left)) {
		t.Fatalf("the guard killed pid %d, left behind by a command that had finished", left)
	}
}
