package main

// The exec channel's side of a reusable pool pod (docs/adr/0040-pool-pod-reuse.md): with
// HANGAR_CELL_DIR set, commands start inside the current cell (cell_serve.go) instead of beside
// it, and 'R' asks the supervisor (supervise.go) for a fresh cell. 'R' answers 'R' with the
// supervisor's JSON ({"killed_ms","ready_ms"} or {"error"}).

import (
	"encoding/json"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

var cellDir = cellDirOf(os.Getenv("HANGAR_CELL_DIR"))

// defaultCellDir: where a reusable pool pod's supervisor keeps its cells (runtime/kubernetes/pod/spec.ts CELL_DIR).
const defaultCellDir = "/.hangar-cell"

// cellDirOf: the cell directory from the environment, or the default one when its supervisor is
// there without it (an exec that lost the container's environment must never run beside the cell).
func cellDirOf(env string) string {
	if env != "" {
		return env
	}
	if _, err := os.Stat(defaultCellDir + "/sv.sock"); err == nil {
		return defaultCellDir
	}
	return ""
}

// cellEnv: the command's environment without the pod's own HANGAR_CELL_* settings.
func cellEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "HANGAR_CELL_") {
			out = append(out, kv)
		}
	}
	return out
}

// dialCell connects to a cell's or the supervisor's socket; the cell's may be a moment away (the
// supervisor makes the next cell after a reset answered), so a missing one is waited for, 10 s at most.
func dialCell(path string) (int, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			return -1, err
		}
		err = syscall.Connect(fd, &syscall.SockaddrUnix{Name: path})
		if err == nil {
			return fd, nil
		}
		syscall.Close(fd)
		if (err != syscall.ENOENT && err != syscall.ECONNREFUSED) || time.Now().After(deadline) {
			return -1, err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func recvAnswer(c int) (cellAnswer, error) {
	b := make([]byte, 4096)
	n, _, _, _, err := syscall.Recvmsg(c, b, nil, 0)
	if err != nil {
		return cellAnswer{}, err
	}
	if n == 0 {
		return cellAnswer{}, io.EOF
	}
	var a cellAnswer
	return a, json.Unmarshal(b[:n], &a)
}

// startInCell hands the command to the cell's init with the child's ends of three pipes.
func (a *agent) startInCell(id uint32, argv, env []string) {
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	errR, errW, _ := os.Pipe()
	closeChild := func() { inR.Close(); outW.Close(); errW.Close() }
	c, err := dialCell(cellDir + "/cell.sock")
	if err != nil {
		closeChild()
		inW.Close()
		outR.Close()
		errR.Close()
		a.fail(id, "hangar-agent: the sandbox's cell is not there: "+err.Error()+"\n", 126)
		return
	}
	req, _ := json.Marshal(cellRequest{Argv: argv, Env: env, Dir: workDir()})
	rights := syscall.UnixRights(int(inR.Fd()), int(outW.Fd()), int(errW.Fd()))
	err = syscall.Sendmsg(c, req, rights, nil, 0)
	closeChild()
	var ans cellAnswer
	if err == nil {
		ans, err = recvAnswer(c)
	}
	if err != nil || ans.Error != "" {
		syscall.Close(c)
		inW.Close()
		outR.Close()
		errR.Close()
		msg, code := ans.Error, ans.Code
		if err != nil {
			msg, code = "hangar-agent: the sandbox's cell did not answer: "+err.Error()+"\n", 126
		}
		a.fail(id, msg, code)
		return
	}
	p := &proc{stdin: make(chan []byte, 64), credit: outputWindow}
	p.killTree = func() { syscall.Sendmsg(c, []byte("kill"), nil, nil, 0) }
	a.run(id, p, inW, outR, errR, func() int {
		defer syscall.Close(c)
		for {
			ans, err := recvAnswer(c)
			if err != nil {
				return 128 + int(syscall.SIGKILL) // the cell ended (reset) with the command in it
			}
			if ans.Exit != nil {
				return *ans.Exit
			}
		}
	})
}

// workDir: the container's working directory (the image's or the pod's), where a cell's commands start too.
func workDir() string {
	d, err := os.Getwd()
	if err != nil {
		return "/"
	}
	return d
}

// runMain is `hangar-agent run ARGV...`: runs one command in the current cell with this process's own
// stdin, stdout and stderr (a plain Kubernetes exec into a reusable pod, a TTY included, goes through
// it, so nothing runs beside the cell), and exits with its code. A signal here, or this process
// ending, kills the command's tree.
func runMain(argv []string) {
	c, err := dialCell(cellDir + "/cell.sock")
	if err != nil {
		os.Stderr.WriteString("hangar-agent: the sandbox's cell is not there: " + err.Error() + "\n")
		os.Exit(126)
	}
	req, _ := json.Marshal(cellRequest{Argv: argv, Env: cellEnv(os.Environ()), Dir: workDir()})
	if err := syscall.Sendmsg(c, req, syscall.UnixRights(0, 1, 2), nil, 0); err != nil {
		os.Stderr.WriteString("hangar-agent: " + err.Error() + "\n")
		os.Exit(126)
	}
	ans, err := recvAnswer(c)
	if err != nil || ans.Error != "" {
		if err != nil {
			ans = cellAnswer{Error: "hangar-agent: the sandbox's cell did not answer: " + err.Error() + "\n", Code: 126}
		}
		os.Stderr.WriteString(ans.Error)
		os.Exit(ans.Code)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE)
	go func() {
		<-sig
		syscall.Sendmsg(c, []byte("kill"), nil, nil, 0)
	}()
	for {
		ans, err := recvAnswer(c)
		if err != nil {
			os.Exit(128 + int(syscall.SIGKILL))
		}
		if ans.Exit != nil {
			os.Exit(*ans.Exit)
		}
	}
}

// resetCell asks the supervisor for a fresh cell (made with the scratch volumes in volumes, JSON,
// when there are any) and answers 'R' with what it said.
func (a *agent) resetCell(id uint32, volumes []byte) {
	reply := func(v any) {
		b, _ := json.Marshal(v)
		a.send('R', id, b)
	}
	if cellDir == "" {
		reply(map[string]string{"error": "this pod has no cells (HANGAR_CELL_DIR is not set)"})
		return
	}
	c, err := dialCell(cellDir + "/sv.sock")
	if err != nil {
		reply(map[string]string{"error": "the supervisor is not there: " + err.Error()})
		return
	}
	defer syscall.Close(c)
	msg := []byte("reset")
	if len(volumes) > 0 {
		msg = append(append(msg, '\n'), volumes...)
	}
	if err := syscall.Sendmsg(c, msg, nil, nil, 0); err != nil {
		reply(map[string]string{"error": err.Error()})
		return
	}
	b := make([]byte, 4096)
	n, _, _, _, err := syscall.Recvmsg(c, b, nil, 0)
	if err != nil || n == 0 {
		reply(map[string]string{"error": "the supervisor did not answer"})
		return
	}
	a.send('R', id, b[:n])
}
