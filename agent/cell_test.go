// Tests of cells (cell.go, supervise.go, cell_client.go): the supervisor runs as its own process
// (the binary built here), commands go through an in-process channel agent as Hangar's would. The
// cell's lower layer is this machine's root; its upper layer and the scratch volume sit on a
// tmpfs the test mounts (needs root, as the supervisor in a pod is the container's root).
package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestCarriedMounts(t *testing.T) {
	info := strings.Join([]string{
		"1 0 0:1 / / rw - overlay overlay rw",
		"2 1 0:2 / /proc rw - proc proc rw",
		"3 2 0:3 / /proc/kcore rw - tmpfs tmpfs rw",
		"4 1 0:4 / /dev rw - tmpfs tmpfs rw",
		"5 4 0:5 / /dev/shm rw - tmpfs shm rw",
		"6 1 0:6 / /sys ro - sysfs sysfs ro",
		"7 1 8:1 /pods/x/etc-hosts /etc/hosts rw - ext4 /dev/vda rw",
		"8 1 8:1 /pods/x/vol /work/my\\040data rw - ext4 /dev/vda rw",
		"9 8 8:1 /pods/x/inner /work/my\\040data/inner rw - ext4 /dev/vda rw",
		"10 1 8:1 /pods/x/cells /.hangar-cell rw - ext4 /dev/vda rw",
		"11 10 8:1 /pods/x/cells/c1 /.hangar-cell/c1/root rw - overlay overlay rw",
		"12 1 8:1 /pods/x/agent /hangar-agent ro - ext4 /dev/vda ro",
		"13 1 8:1 /pods/x/resolv /etc/resolv.conf rw - ext4 /dev/vda rw",
	}, "\n")
	got := carriedMounts(info, []string{"/.hangar-cell", "/hangar-agent"})
	want := []string{"/etc/hosts", "/work/my data", "/etc/resolv.conf"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("carried %q, want %q", got, want)
	}
}

type cellBed struct {
	bin  string
	t    *testing.T
	dir  string
	vol  string
	sup  *exec.Cmd
	a    *agent
	next uint32
}

func newCellBed(t *testing.T) *cellBed {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Fatal("cells need root (as the container's root in a pod): run the agent's tests as root")
	}
	base := t.TempDir()
	if err := syscall.Mount("tmpfs", base, "tmpfs", 0, "size=256m"); err != nil {
		t.Fatalf("mounting a tmpfs for the cells: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(base, syscall.MNT_DETACH) })
	bin := filepath.Join(base, "hangar-agent")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	b := &cellBed{bin: bin, t: t, dir: filepath.Join(base, "cells"), vol: filepath.Join(base, "vol")}
	for _, d := range []string{b.dir, b.vol} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b.sup = exec.Command(bin, "supervise")
	b.sup.Env = append(os.Environ(), "HANGAR_CELL_DIR="+b.dir, "HANGAR_CELL_WIPE="+b.vol)
	b.sup.Stderr = os.Stderr
	if err := b.sup.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.sup.Process.Signal(syscall.SIGTERM); b.sup.Wait() })
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(b.dir, "cell.sock")); err == nil {
			break
		}
		if i > 100 {
			t.Fatal("the supervisor made no cell within 10 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	cellDir = b.dir
	t.Cleanup(func() { cellDir = "" })
	b.a = newAgent()
	b.a.control = true
	return b
}

// sh runs a shell command in the current cell and returns its result.
func (b *cellBed) sh(script string) result {
	b.t.Helper()
	b.next++
	b.a.handle('S', b.next, start("/bin/sh", "-c", script))
	return wait(b.t, b.a, b.next, 20*time.Second)
}

func (b *cellBed) reset() map[string]any {
	b.t.Helper()
	return b.resetWith(nil)
}

// resetWith asks for a fresh cell made with the scratch volumes in volumes (JSON; nil: none).
func (b *cellBed) resetWith(volumes []byte) map[string]any {
	b.t.Helper()
	b.next++
	b.a.handle('R', b.next, volumes)
	deadline := time.After(20 * time.Second)
	for {
		select {
		case f := <-b.a.out:
			if f.kind == 'R' && f.id == b.next {
				var ans map[string]any
				if err := json.Unmarshal(f.payload, &ans); err != nil || ans["error"] != nil {
					b.t.Fatalf("reset: %s", f.payload)
				}
				return ans
			}
		case <-deadline:
			b.t.Fatal("no answer to reset within 20 s")
		}
	}
}

// pidNamespaceMembers counts this machine's processes in the pid namespace of the process pid.
func pidNamespaceMembers(ns string) int {
	n := 0
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if atoi(e.Name()) <= 0 {
			continue
		}
		if l, err := os.Readlink("/proc/" + e.Name() + "/ns/pid"); err == nil && l == ns {
			n++
		}
	}
	return n
}

func TestCellIsFreshAfterReset(t *testing.T) {
	b := newCellBed(t)
	r := b.sh(`id -u; cat /proc/self/uid_map | tr -s ' ' | head -1; cat /proc/1/cmdline | tr '\0' ' '; echo; ls /proc | grep -c '^[0-9]'`)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 4 || lines[0] != "0" || !strings.HasPrefix(lines[2], "hangar-agent cell ") {
		t.Fatalf("cell view: %+v", r)
	}
	// Plant everything a sandbox could leave behind.
	plant := `set -e
echo n > /planted; echo n > /tmp/planted; echo n > /dev/shm/planted; mkdir -p /root; echo n > /root/planted
echo n > ` + b.vol + `/planted 2>/dev/null || true
echo 'echo profile-was-changed' >> /etc/profile
setsid sleep 1000 < /dev/null > /dev/null 2>&1 &
( ( sleep 1000 < /dev/null > /dev/null 2>&1 & ) & )
nohup sleep 1000 < /dev/null > /dev/null 2>&1 &
( while :; do echo x > /tmp/loop; done ) < /dev/null > /dev/null 2>&1 &
python3 -c 'import socket,os,time
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", 47123)); s.listen()
if os.fork(): os._exit(0)
time.sleep(1000)' < /dev/null > /dev/null 2>&1
ipcmk -M 4096 > /dev/null
python3 -c 'import _posixshmem, os; os.ftruncate(_posixshmem.shm_open("/hangarplant", os.O_CREAT|os.O_RDWR, 0o600), 4096)'
sleep 0.2
readlink /proc/self/ns/pid`
	r = b.sh(plant)
	if r.code != 0 {
		t.Fatalf("planting: %+v", r)
	}
	// The cell's pid namespace, as this machine names it: find it from the supervisor's child.
	var ns string
	for _, pid := range childrenOf(b.sup.Process.Pid) {
		if l, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/pid"); err == nil {
			if own, _ := os.Readlink("/proc/self/ns/pid"); l != own {
				ns = l
			}
		}
	}
	if ns == "" || pidNamespaceMembers(ns) < 6 {
		t.Fatalf("the cell's processes are not there to kill (ns %q, %d members)", ns, pidNamespaceMembers(ns))
	}
	if _, err := os.Stat("/planted"); err == nil {
		t.Fatal("a file the cell wrote to / reached this machine's root")
	}
	ans := b.reset()
	if k, _ := ans["killed_ms"].(float64); k > 1000 {
		t.Fatalf("the cell's processes took %.0f ms to go", k)
	}
	if n := pidNamespaceMembers(ns); n != 0 {
		t.Fatalf("%d processes of the old cell are left", n)
	}
	r = b.sh(`for f in /planted /tmp/planted /dev/shm/planted /root/planted ` + b.vol + `/planted /tmp/loop /dev/shm/hangarplant; do test -e $f && echo "left: $f"; done
grep -q profile-was-changed /etc/profile && echo "left: profile"
ipcs -m | grep -c '^0x' | grep -qv '^0$' && echo "left: sysv shm"
cat /proc/[0-9]*/comm | grep -xE 'sleep|python3' && echo "left: processes"
python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 47123))' || echo "left: listener"
true`)
	if r.code != 0 || strings.TrimSpace(r.stdout) != "" {
		t.Fatalf("carried over: %+v", r)
	}
}

func TestCellConfinement(t *testing.T) {
	b := newCellBed(t)
	cases := []struct{ name, script string }{
		{"a nested user namespace", `unshare -U true`},
		{"a mount", `mount -t tmpfs x /mnt`},
		{"the init's memory", `cat /proc/1/environ`},
		{"net sysctls", `echo 1 > /proc/sys/net/ipv4/ip_forward`},
		{"joining the outside", `nsenter -t 1 -m true`},
		{"writing under /sys", `for m in $(awk '$2 ~ "^/sys" {print $2}' /proc/mounts); do touch $m/hangar-x && exit 0; done; exit 1`},
		{"raw capability", `python3 -c 'import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW)'`},
	}
	for _, c := range cases {
		if r := b.sh(c.script + " 2>/dev/null"); r.code == 0 {
			t.Errorf("%s: allowed in a cell (%+v)", c.name, r)
		}
	}
	if r := b.sh(`kill -9 1; kill -TERM 1; sleep 0.2; echo alive`); strings.TrimSpace(r.stdout) != "alive" {
		t.Fatalf("signals from inside ended the cell: %+v", r)
	}
	for _, p := range procMasked {
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			continue
		}
		if r := b.sh(`wc -c < ` + p); strings.TrimSpace(r.stdout) != "0" {
			t.Fatalf("%s is not masked in a cell: %+v", p, r)
		}
	}
	if r := b.sh(`grep -E '^Cap(Bnd|Eff)' /proc/self/status | awk '{print $2}' | sort -u`); strings.TrimSpace(r.stdout) != "00000000000004fb" {
		t.Fatalf("capabilities in a cell: %+v", r)
	}
}

func TestRunGoesIntoTheCell(t *testing.T) {
	b := newCellBed(t)
	cmd := exec.Command(b.bin, "run", "sh", "-c", "cat; readlink /proc/self/ns/pid; tr '\\0' ' ' < /proc/1/cmdline | cut -d' ' -f1,2; exit 7")
	cmd.Env = append(os.Environ(), "HANGAR_CELL_DIR="+b.dir)
	cmd.Stdin = strings.NewReader("from stdin\n")
	out, err := cmd.Output()
	own, _ := os.Readlink("/proc/self/ns/pid")
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if cmd.ProcessState.ExitCode() != 7 || len(lines) != 3 || lines[0] != "from stdin" || lines[1] == own || lines[2] != "hangar-agent cell" {
		t.Fatalf("run: %v %q", err, out)
	}
}
