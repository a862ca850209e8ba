// hangar-agent runs commands for Hangar inside a sandbox over its own stdin/stdout, so that
// Hangar opens one Kubernetes exec per sandbox (this agent) instead of one per command
// (docs/adr/0008-persistent-exec.md).
//
// Frames in both directions: type (1 byte), exec id (uint32 BE), payload length (uint32 BE),
// payload. Hangar -> agent: 'S' start (JSON {"argv":[...],"env":{...}}), 'I' stdin data,
// 'C' stdin EOF, 'K' kill the command's process tree, 'A' output consumed (uint32 bytes).
// Agent -> Hangar: 'H' hello (version), 'O' stdout, 'E' stderr (one frame per pipe read),
// 'W' stdin written (uint32 bytes), 'X' exit (int32 code: 128+signal when signalled), sent
// after the process exited and both pipes reached EOF. When the agent's stdin closes (the
// exec websocket is gone) it kills every command it started and exits; its guard process kills
// them when it cannot (guard.go: containerd SIGKILLs the agent when its exec stream is cut).
//
// On the stdin/stdout channel only, 'R' asks for a fresh cell in a reusable pool pod (cell_client.go,
// docs/adr/0040-pool-pod-reuse.md); the agent answers 'R' (JSON). `hangar-agent supervise` and
// `hangar-agent cell DIR` are that pod's supervisor and a cell's init (supervise.go, cell.go).
//
// On the stdin/stdout channel only, 'Q' waits for the pod's cgroup to show a sized pool's claim's
// limits (limits.go, docs/adr/0043-sized-pools.md); the agent answers 'Q' (JSON).
//
// On the stdin/stdout channel only, 'L' (JSON {"token","first","count"}) opens the direct link
// (direct.go, docs/adr/0022-direct-exec-link.md): a TLS listener on the first free port of the range;
// the agent answers 'L' (JSON {"port","cert"} or {"error"}). A connection that presents the token
// then carries the same frames as stdin/stdout, for its own commands.
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
)

const (
	version      = "hangar-agent/1"
	maxFrame     = 1 << 20
	outputWindow = 1 << 20
	readSize     = 32 << 10
)

type frame struct {
	kind    byte
	id      uint32
	payload []byte
}

type agent struct {
	out   chan frame
	mu    sync.Mutex
	procs map[uint32]*proc
	// control: this is the stdin/stdout channel (the only one that may open the direct link).
	control bool
	// done closes when a direct connection ends (nil on the control channel, which ends the process).
	done chan struct{}
}

// agentGuard: this agent process's guard (guard.go); nil where none runs (tests), commands then unguarded.
var agentGuard *guard

type proc struct {
	// killTree takes down the command's process group and every descendant that left it.
	killTree func()
	stdin    chan []byte // nil entry = EOF
	mu       sync.Mutex
	cond     *sync.Cond
	credit   int
	killed   bool
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "cell" {
		cellMain(os.Args[2])
		return
	}
	if len(os.Args) > 2 && os.Args[1] == "run" && cellDir != "" {
		runMain(os.Args[2:])
		return
	}
	if len(os.Args) == 2 && os.Args[1] == "supervise" {
		superviseMain()
		return
	}
	if len(os.Args) == 2 && os.Args[1] == "guard" {
		guardMain()
		return
	}
	// Before any command starts: what it starts must not outlive this process (guard.go).
	agentGuard = startGuard()
	a := &agent{out: make(chan frame, 256), procs: map[uint32]*proc{}, control: true}
	go func() {
		if a.writer(os.Stdout) != nil {
			os.Exit(1)
		}
	}()
	a.send('H', 0, []byte(version))
	a.reader(bufio.NewReaderSize(os.Stdin, 64<<10))
	// The channel is gone: nothing can hear these commands any more (nor those of direct links).
	a.killAll()
	killDirect()
	os.Exit(0)
}

func (a *agent) send(kind byte, id uint32, payload []byte) {
	select {
	case a.out <- frame{kind, id, payload}:
	case <-a.done:
	}
}

// killAll kills every command this channel started (nobody can hear them any more).
func (a *agent) killAll() {
	a.mu.Lock()
	for _, p := range a.procs {
		p.kill()
	}
	a.mu.Unlock()
}

// writer sends the queued frames to w; it returns only when a flush fails (Hangar is gone).
func (a *agent) writer(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	hdr := make([]byte, 9)
	for {
		var f frame
		var ok bool
		select {
		case f, ok = <-a.out:
			if !ok {
				return bw.Flush()
			}
		case <-a.done:
			return nil
		}
		hdr[0] = f.kind
		binary.BigEndian.PutUint32(hdr[1:], f.id)
		binary.BigEndian.PutUint32(hdr[5:], uint32(len(f.payload)))
		bw.Write(hdr)
		bw.Write(f.payload)
		// Flush when nothing else is queued: one websocket message per burst of frames.
		if len(a.out) == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
}

func (a *agent) reader(r *bufio.Reader) {
	hdr := make([]byte, 9)
	for {
		if _, err := io.ReadFull(r, hdr); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(hdr[5:])
		if n > maxFrame {
			return
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(r, payload); err != nil {
			return
		}
		a.handle(hdr[0], binary.BigEndian.Uint32(hdr[1:]), payload)
	}
}

func (a *agent) get(id uint32) *proc {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.procs[id]
}

func (a *agent) handle(kind byte, id uint32, payload []byte) {
	switch kind {
	case 'S':
		a.start(id, payload)
	case 'I':
		if p := a.get(id); p != nil {
			p.stdin <- payload
		}
	case 'C':
		if p := a.get(id); p != nil {
			p.stdin <- nil
		}
	case 'K':
		if p := a.get(id); p != nil {
			p.kill()
		}
	case 'R':
		if a.control {
			go a.resetCell(id, payload)
		}
	case 'Q':
		if a.control {
			go a.awaitLimits(id, payload)
		}
	case 'L':
		if a.control {
			a.listen(payload)
		}
	case 'A':
		if p := a.get(id); p != nil && len(payload) == 4 {
			p.mu.Lock()
			p.credit += int(binary.BigEndian.Uint32(payload))
			p.cond.Broadcast()
			p.mu.Unlock()
		}
	}
}

type startRequest struct {
	Argv []string          `json:"argv"`
	Env  map[string]string `json:"env"`
}

func (a *agent) start(id uint32, payload []byte) {
	var req startRequest
	if err := json.Unmarshal(payload, &req); err != nil || len(req.Argv) == 0 {
		a.fail(id, "hangar-agent: bad start request\n", 126)
		return
	}
	env := mergeEnv(os.Environ(), req.Env)
	if cellDir != "" {
		a.startInCell(id, req.Argv, cellEnv(env))
		return
	}
	path, err := lookPath(req.Argv[0], env)
	if err != nil {
		code := 127
		msg := req.Argv[0] + ": not found\n"
		if errors.Is(err, os.ErrPermission) {
			code, msg = 126, req.Argv[0]+": Permission denied\n"
		}
		a.fail(id, msg, code)
		return
	}
	cmd := &exec.Cmd{Path: path, Args: req.Argv, Env: env, SysProcAttr: &syscall.SysProcAttr{Setpgid: true}}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		code := 127
		if errors.Is(err, os.ErrPermission) {
			code = 126
		}
		a.fail(id, req.Argv[0]+": "+err.Error()+"\n", code)
		return
	}
	agentGuard.started(cmd.Process.Pid)
	p := &proc{stdin: make(chan []byte, 64), credit: outputWindow}
	p.killTree = func() {
		if cmd.Process != nil {
			killTree(cmd.Process.Pid)
		}
	}
	a.run(id, p, stdin, stdout, stderr, func() int {
		err := cmd.Wait()
		agentGuard.ended(cmd.Process.Pid)
		return exitCode(cmd, err)
	})
}

// run serves a started command: stdin fed, output pumped, 'X' once it exited and both pipes ended.
func (a *agent) run(id uint32, p *proc, stdin io.WriteCloser, stdout, stderr io.Reader, wait func() int) {
	p.cond = sync.NewCond(&p.mu)
	a.mu.Lock()
	a.procs[id] = p
	a.mu.Unlock()
	go a.feed(id, p, stdin)
	var pipes sync.WaitGroup
	pipes.Add(2)
	go a.pump(id, p, 'O', stdout, &pipes)
	go a.pump(id, p, 'E', stderr, &pipes)
	go func() {
		pipes.Wait()
		code := wait()
		a.mu.Lock()
		delete(a.procs, id)
		a.mu.Unlock()
		// Unblock the stdin feeder, which may wait on a queue nobody fills any more.
		select {
		case p.stdin <- nil:
		default:
		}
		b := make([]byte, 4)
		binary.BigEndian.PutUint32(b, uint32(int32(code)))
		a.send('X', id, b)
	}()
}

func (a *agent) fail(id uint32, msg string, code int) {
	a.send('E', id, []byte(msg))
	b := make([]byte, 4)
	binary.BigEndian.PutUint32(b, uint32(int32(code)))
	a.send('X', id, b)
}

// feed writes stdin frames to the command in order, acknowledging each, then closes its stdin.
func (a *agent) feed(id uint32, p *proc, w io.WriteCloser) {
	for data := range p.stdin {
		if data == nil {
			break
		}
		if _, err := w.Write(data); err != nil {
			// The command closed its stdin: keep acknowledging so Hangar's writer never waits forever.
			a.ack(id, len(data))
			continue
		}
		a.ack(id, len(data))
	}
	w.Close()
}

func (a *agent) ack(id uint32, n int) {
	b := make([]byte, 4)
	binary.BigEndian.PutUint32(b, uint32(n))
	a.send('W', id, b)
}

// pump sends one frame per pipe read, waiting while Hangar has more than the window unconsumed.
func (a *agent) pump(id uint32, p *proc, kind byte, r io.Reader, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		buf := make([]byte, readSize)
		n, err := r.Read(buf)
		if n > 0 {
			p.mu.Lock()
			for p.credit <= 0 && !p.killed {
				p.cond.Wait()
			}
			p.credit -= n
			p.mu.Unlock()
			a.send(kind, id, buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// kill takes down the command's process tree.
func (p *proc) kill() {
	p.mu.Lock()
	p.killed = true
	p.cond.Broadcast()
	p.mu.Unlock()
	p.killTree()
}

// descendants lists the pids below root, from /proc (children that changed process group too).
func descendants(root int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	parent := map[int]int{}
	for _, e := range entries {
		pid := atoi(e.Name())
		if pid <= 0 {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses, so cut at the last ')'.
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 {
			parent[pid] = atoi(f[1])
		}
	}
	var out []int
	in := map[int]bool{root: true}
	for more := true; more; {
		more = false
		for pid, pp := range parent {
			if in[pp] && !in[pid] {
				in[pid] = true
				out = append(out, pid)
				more = true
			}
		}
	}
	return out
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

func exitCode(cmd *exec.Cmd, err error) int {
	if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
		if st.Signaled() {
			return 128 + int(st.Signal())
		}
		return st.ExitStatus()
	}
	if err != nil {
		return 1
	}
	return 0
}

func mergeEnv(base []string, extra map[string]string) []string {
	if len(extra) == 0 {
		return base
	}
	out := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := extra[k]; !ok {
			out = append(out, kv)
		}
	}
	for k, v := range extra {
		out = append(out, k+"="+v)
	}
	return out
}

// lookPath resolves argv[0] against the command's own PATH (which the request may set).
func lookPath(name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		return name, executable(name)
	}
	path := "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	var denied error
	for _, dir := range strings.Split(path, ":") {
		if dir == "" {
			dir = "."
		}
		p := dir + "/" + name
		err := executable(p)
		if err == nil {
			return p, nil
		}
		if errors.Is(err, os.ErrPermission) && denied == nil {
			denied = err
		}
	}
	if denied != nil {
		return "", denied
	}
	return "", os.ErrNotExist
}

func executable(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		return os.ErrPermission
	}
	return syscall.Access(p, 1)
}
