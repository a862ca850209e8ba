package main

// The cell's init serving spawn requests (cell.go). One SOCK_SEQPACKET connection per command:
// the request (JSON, with the command's stdin, stdout and stderr as SCM_RIGHTS), the answer
// {"pid"} or {"error","code"}; the client may then send "kill"; the init sends {"exit"} when the
// command ends and closes. As pid 1 it reaps every process of the cell, its commands' and orphans'.

import (
	"encoding/json"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

type cellRequest struct {
	Argv []string `json:"argv"`
	Env  []string `json:"env"`
	Dir  string   `json:"dir,omitempty"`
}

type cellAnswer struct {
	Pid   int    `json:"pid,omitempty"`
	Error string `json:"error,omitempty"`
	Code  int    `json:"code,omitempty"`
	Exit  *int   `json:"exit,omitempty"`
}

func listenCell(path string) (int, error) {
	os.Remove(path)
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		return -1, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return -1, err
	}
	return fd, syscall.Listen(fd, 128)
}

// reaper collects every exit in the cell; a command's status goes to whoever waits for its pid.
type reaper struct {
	mu      sync.Mutex
	waiting map[int]chan syscall.WaitStatus
	early   map[int]syscall.WaitStatus
}

func (r *reaper) run() {
	ch := make(chan os.Signal, 64)
	signal.Notify(ch, syscall.SIGCHLD)
	for range ch {
		for {
			var st syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &st, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
			r.mu.Lock()
			if w, ok := r.waiting[pid]; ok {
				delete(r.waiting, pid)
				w <- st
			} else {
				r.early[pid] = st
			}
			r.mu.Unlock()
		}
	}
}

// wait registers interest in pid's exit (its status may already be there).
func (r *reaper) wait(pid int) chan syscall.WaitStatus {
	w := make(chan syscall.WaitStatus, 1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if st, ok := r.early[pid]; ok {
		delete(r.early, pid)
		w <- st
	} else {
		r.waiting[pid] = w
	}
	return w
}

func serveCell(ln int) {
	r := &reaper{waiting: map[int]chan syscall.WaitStatus{}, early: map[int]syscall.WaitStatus{}}
	go r.run()
	for {
		c, _, err := syscall.Accept4(ln, syscall.SOCK_CLOEXEC)
		if err != nil {
			if err == syscall.EINTR || err == syscall.ECONNABORTED {
				continue
			}
			os.Exit(1)
		}
		go serveSpawn(r, c)
	}
}

func sendAnswer(c int, a cellAnswer) {
	b, _ := json.Marshal(a)
	syscall.Sendmsg(c, b, nil, nil, 0)
}

func serveSpawn(r *reaper, c int) {
	defer syscall.Close(c)
	buf := make([]byte, maxFrame)
	oob := make([]byte, syscall.CmsgSpace(3*4))
	n, oobn, _, _, err := syscall.Recvmsg(c, buf, oob, syscall.MSG_CMSG_CLOEXEC)
	if err != nil {
		return
	}
	var fds []int
	if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil && len(msgs) == 1 {
		fds, _ = syscall.ParseUnixRights(&msgs[0])
	}
	files := make([]*os.File, len(fds))
	for i, fd := range fds {
		files[i] = os.NewFile(uintptr(fd), "stdio")
	}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	var req cellRequest
	if err := json.Unmarshal(buf[:n], &req); err != nil || len(req.Argv) == 0 || len(files) != 3 {
		sendAnswer(c, cellAnswer{Error: "hangar-agent: bad start request\n", Code: 126})
		return
	}
	path, err := lookPath(req.Argv[0], req.Env)
	if err != nil {
		code, msg := 127, req.Argv[0]+": not found\n"
		if errors.Is(err, os.ErrPermission) {
			code, msg = 126, req.Argv[0]+": Permission denied\n"
		}
		sendAnswer(c, cellAnswer{Error: msg, Code: code})
		return
	}
	// Start under the reaper's lock, so an exit reaped before wait() is registered is kept in early.
	r.mu.Lock()
	p, err := os.StartProcess(path, req.Argv, &os.ProcAttr{Dir: req.Dir, Env: req.Env, Files: files, Sys: &syscall.SysProcAttr{Setpgid: true}})
	r.mu.Unlock()
	if err != nil {
		code := 127
		if errors.Is(err, os.ErrPermission) {
			code = 126
		}
		sendAnswer(c, cellAnswer{Error: req.Argv[0] + ": " + err.Error() + "\n", Code: code})
		return
	}
	for _, f := range files {
		f.Close()
	}
	files = nil
	done := r.wait(p.Pid)
	sendAnswer(c, cellAnswer{Pid: p.Pid})
	go func() {
		// Anything read (or the client gone) asks for the kill of the command's tree.
		b := make([]byte, 16)
		syscall.Recvmsg(c, b, nil, 0)
		// Only while the command is not reaped: its pid may be another process's afterwards.
		r.mu.Lock()
		if _, running := r.waiting[p.Pid]; running {
			killTree(p.Pid)
		}
		r.mu.Unlock()
	}()
	st := <-done
	code := st.ExitStatus()
	if st.Signaled() {
		code = 128 + int(st.Signal())
	}
	sendAnswer(c, cellAnswer{Exit: &code})
	syscall.Shutdown(c, syscall.SHUT_RDWR)
}

// killTree kills a command's process group and every descendant that left it.
func killTree(root int) {
	for _, pid := range descendants(root) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	syscall.Kill(-root, syscall.SIGKILL)
	syscall.Kill(root, syscall.SIGKILL)
}
