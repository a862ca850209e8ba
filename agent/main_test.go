// Tests of hangar-agent's own protocol handling (make test runs them with `go test`): frames split
// anywhere, exit codes, stdin with EOF and acknowledgements, kill of a whole tree, output credit.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"
)

func newAgent() *agent { return &agent{out: make(chan frame, 1024), procs: map[uint32]*proc{}} }

func encode(kind byte, id uint32, payload []byte) []byte {
	b := make([]byte, 9+len(payload))
	b[0] = kind
	binary.BigEndian.PutUint32(b[1:], id)
	binary.BigEndian.PutUint32(b[5:], uint32(len(payload)))
	copy(b[9:], payload)
	return b
}

func start(argv ...string) []byte {
	b, _ := json.Marshal(startRequest{Argv: argv})
	return b
}

func u32(n uint32) []byte { b := make([]byte, 4); binary.BigEndian.PutUint32(b, n); return b }

// result collects one command's frames until its exit frame, acknowledging output as Hangar does.
type result struct {
	stdout, stderr string
	code           int32
	acked          int
}

func wait(t *testing.T, a *agent, id uint32, limit time.Duration) result {
	t.Helper()
	var r result
	deadline := time.After(limit)
	for {
		select {
		case f := <-a.out:
			if f.id != id {
				continue
			}
			switch f.kind {
			case 'O':
				r.stdout += string(f.payload)
				a.handle('A', id, u32(uint32(len(f.payload))))
			case 'E':
				r.stderr += string(f.payload)
				a.handle('A', id, u32(uint32(len(f.payload))))
			case 'W':
				r.acked += int(binary.BigEndian.Uint32(f.payload))
			case 'X':
				r.code = int32(binary.BigEndian.Uint32(f.payload))
				return r
			}
		case <-deadline:
			t.Fatalf("command %d: no exit frame within %s (so far %+v)", id, limit, r)
		}
	}
}

func TestExitCodesSignalsAndMissingPrograms(t *testing.T) {
	a := newAgent()
	a.handle('S', 1, start("/bin/sh", "-c", "echo out; echo err >&2; exit 3"))
	if r := wait(t, a, 1, 5*time.Second); r.code != 3 || r.stdout != "out\n" || r.stderr != "err\n" {
		t.Fatalf("got %+v", r)
	}
	a.handle('S', 2, start("/bin/sh", "-c", "kill -TERM $$"))
	if r := wait(t, a, 2, 5*time.Second); r.code != 128+int32(syscall.SIGTERM) {
		t.Fatalf("signalled: got %+v", r)
	}
	a.handle('S', 3, start("no-such-program-here"))
	if r := wait(t, a, 3, 5*time.Second); r.code != 127 || !strings.Contains(r.stderr, "not found") {
		t.Fatalf("missing: got %+v", r)
	}
	a.handle('S', 4, []byte("{not json"))
	if r := wait(t, a, 4, 5*time.Second); r.code != 126 {
		t.Fatalf("bad request: got %+v", r)
	}
}

func TestStdinIsAcknowledgedAndEndsWithEOF(t *testing.T) {
	a := newAgent()
	a.handle('S', 7, start("cat"))
	a.handle('I', 7, []byte("hello "))
	a.handle('I', 7, []byte("world"))
	a.handle('C', 7, nil)
	r := wait(t, a, 7, 5*time.Second)
	if r.code != 0 || r.stdout != "hello world" || r.acked != len("hello world") {
		t.Fatalf("got %+v", r)
	}
}

func TestKillTakesTheWholeTree(t *testing.T) {
	a := newAgent()
	dir := t.TempDir()
	// A child in a process group of its own, which a group kill alone would miss.
	a.handle('S', 9, start("/bin/sh", "-c", "setsid sleep 300 & echo $! > "+dir+"/pid; sleep 300"))
	var pid int
	for i := 0; i < 200 && pid == 0; i++ {
		time.Sleep(10 * time.Millisecond)
		if b, err := os.ReadFile(dir + "/pid"); err == nil && len(bytes.TrimSpace(b)) > 0 {
			pid = atoi(string(bytes.TrimSpace(b)))
		}
	}
	if pid <= 0 {
		t.Fatal("the setsid child never started")
	}
	a.handle('K', 9, nil)
	if r := wait(t, a, 9, 5*time.Second); r.code != 128+int32(syscall.SIGKILL) {
		t.Fatalf("got %+v", r)
	}
	for i := 0; i < 100; i++ {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return // gone (or a zombie awaiting its reaper)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("setsid child %d survived the kill", pid)
}

func TestOutputWaitsForCredit(t *testing.T) {
	a := newAgent()
	a.handle('S', 5, start("/bin/sh", "-c", "head -c 3000000 /dev/zero"))
	got := 0
	deadline := time.After(2 * time.Second)
	// Without acknowledgements the agent sends at most one window of output.
	for done := false; !done; {
		select {
		case f := <-a.out:
			if f.kind == 'O' {
				got += len(f.payload)
			}
		case <-time.After(300 * time.Millisecond):
			done = true
		case <-deadline:
			done = true
		}
	}
	if got == 0 || got > outputWindow+readSize {
		t.Fatalf("sent %d bytes without credit (window %d)", got, outputWindow)
	}
	a.handle('A', 5, u32(uint32(got)))
	r := wait(t, a, 5, 10*time.Second)
	if r.code != 0 || got+len(r.stdout) != 3000000 {
		t.Fatalf("after credit: %d + %d bytes, code %d", got, len(r.stdout), r.code)
	}
}

func TestReaderTakesFramesSplitAnywhereAndStopsAtAnOversizedOne(t *testing.T) {
	a := newAgent()
	var in bytes.Buffer
	in.Write(encode('S', 11, start("cat")))
	in.Write(encode('I', 11, []byte("split")))
	in.Write(encode('C', 11, nil))
	a.reader(bufio.NewReaderSize(iotest.OneByteReader(&in), 16))
	if r := wait(t, a, 11, 5*time.Second); r.code != 0 || r.stdout != "split" {
		t.Fatalf("got %+v", r)
	}
	var big bytes.Buffer
	big.Write(encode('I', 12, nil)[:5])
	big.Write(u32(maxFrame + 1))
	big.WriteString("never read")
	done := make(chan struct{})
	go func() { a.reader(bufio.NewReaderSize(&big, 16)); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("an oversized frame did not end the reader")
	}
}

func TestWriterFramesWhatIsQueued(t *testing.T) {
	a := newAgent()
	a.send('H', 0, []byte(version))
	a.send('O', 3, []byte("abc"))
	close(a.out)
	var w bytes.Buffer
	if err := a.writer(&w); err != nil {
		t.Fatal(err)
	}
	want := append(encode('H', 0, []byte(version)), encode('O', 3, []byte("abc"))...)
	if !bytes.Equal(w.Bytes(), want) {
		t.Fatalf("wrote %q, want %q", w.Bytes(), want)
	}
}
