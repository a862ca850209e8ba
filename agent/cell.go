package main

// A cell: the fresh context one sandbox of a reused pool pod runs in (docs/adr/0040-pool-pod-reuse.md).
// `hangar-agent cell DIR` is started by the supervisor (the pod's root, in the pod's user namespace,
// holding CAP_SYS_ADMIN there) in new mount, pid, ipc and uts namespaces. As the cell's pid 1 it builds the sandbox's root: a throwaway overlay
// whose lower layer is the container's own root and whose upper layer is DIR/upper, a fresh /proc
// (kernel paths masked or read-only, as the container runtime does), a fresh /dev with its own
// devpts, /dev/shm and mqueue, /sys read-only, and the container's other mounts (hosts, resolv.conf,
// volumes) bound in; the root is moved onto / and entered (chroot). It then confines itself (cell_filter.go) and serves spawn requests on
// DIR/cell.sock (cell_serve.go). Killing it ends every process of the cell: the kernel kills a
// pid namespace's processes when its init dies.

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"unsafe"
)

// Paths of a fresh /proc the container runtime hides (runc's defaults): masked ones get /dev/null
// (files) or an empty read-only tmpfs (directories); read-only ones are bound read-only onto themselves.
var (
	procMasked   = []string{"/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys", "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug", "/proc/scsi", "/sys/firmware", "/sys/devices/virtual/powercap"}
	procReadOnly = []string{"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"}
	devNodes     = []string{"null", "zero", "full", "random", "urandom", "tty"}
)

// cellSkipped: mount points not carried into a cell (rebuilt fresh, or Hangar's own).
func cellSkipped(mountPoint string, own []string) bool {
	for _, p := range append([]string{"/proc", "/sys", "/dev"}, own...) {
		if p != "" && (mountPoint == p || strings.HasPrefix(mountPoint, p+"/")) {
			return true
		}
	}
	return mountPoint == "/"
}

// carriedMounts: the container's top-level mount points to bind into a cell, in mount order (pure,
// table-tested): hosts/resolv.conf/hostname, volumes; not /, /proc, /sys, /dev or Hangar's own.
func carriedMounts(mountinfo string, own []string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(mountinfo))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 {
			continue
		}
		mp := unescapeMount(f[4])
		if cellSkipped(mp, own) {
			continue
		}
		under := false
		for _, k := range out {
			if mp == k || strings.HasPrefix(mp, k+"/") {
				under = true
			}
		}
		if !under {
			out = append(out, mp)
		}
	}
	return out
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space, …).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			var v int
			if _, err := fmt.Sscanf(s[i+1:i+4], "%o", &v); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func mount(src, dst, fstype string, flags uintptr, data string) error {
	if err := syscall.Mount(src, dst, fstype, flags, data); err != nil {
		return fmt.Errorf("mount %s on %s (%s): %w", src, dst, fstype, err)
	}
	return nil
}

// ensure makes a mount point in the cell's root like its source (a directory or a file).
func ensure(target string, dir bool) error {
	if dir {
		return os.MkdirAll(target, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(target, os.O_CREATE|os.O_RDONLY, 0o644)
	if err == nil {
		f.Close()
	}
	return err
}

func bindInto(root, src string, readOnly bool) error {
	st, err := os.Stat(src)
	if err != nil {
		return nil // gone meanwhile: nothing to carry
	}
	dst := root + src
	if err := ensure(dst, st.IsDir()); err != nil {
		return err
	}
	if err := mount(src, dst, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
		return err
	}
	if readOnly {
		return mount("", dst, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY|syscall.MS_REC, "")
	}
	return nil
}

// cellDev builds the cell's /dev: a tmpfs with the usual nodes bound from the container's, its own
// devpts (new instance), shm and mqueue (of the cell's ipc namespace).
func cellDev(root string) error {
	dev := root + "/dev"
	if err := ensure(dev, true); err != nil {
		return err
	}
	if err := mount("tmpfs", dev, "tmpfs", syscall.MS_NOSUID|syscall.MS_STRICTATIME, "mode=755,size=65536k"); err != nil {
		return err
	}
	for _, n := range devNodes {
		if _, err := os.Stat("/dev/" + n); err != nil {
			continue
		}
		if err := ensure(dev+"/"+n, false); err != nil {
			return err
		}
		if err := mount("/dev/"+n, dev+"/"+n, "", syscall.MS_BIND, ""); err != nil {
			return err
		}
	}
	for _, d := range []string{"pts", "shm", "mqueue"} {
		if err := os.Mkdir(dev+"/"+d, 0o755); err != nil {
			return err
		}
	}
	if err := mount("devpts", dev+"/pts", "devpts", syscall.MS_NOSUID|syscall.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620"); err != nil {
		return err
	}
	if err := mount("shm", dev+"/shm", "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "mode=1777,size=65536k"); err != nil {
		return err
	}
	if err := mount("mqueue", dev+"/mqueue", "mqueue", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return err
	}
	for link, to := range map[string]string{"ptmx": "pts/ptmx", "fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"} {
		if err := os.Symlink(to, dev+"/"+link); err != nil {
			return err
		}
	}
	return nil
}

// cellProc mounts the cell's own /proc (its pid namespace) and hides what the container runtime hides.
func cellProc(root string) error {
	if err := ensure(root+"/proc", true); err != nil {
		return err
	}
	if err := mount("proc", root+"/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return err
	}
	for _, p := range procMasked {
		st, err := os.Stat(root + p)
		if err != nil {
			continue
		}
		if st.IsDir() {
			err = mount("tmpfs", root+p, "tmpfs", syscall.MS_RDONLY, "size=0")
		} else {
			err = mount(root+"/dev/null", root+p, "", syscall.MS_BIND, "")
		}
		if err != nil {
			return err
		}
	}
	for _, p := range procReadOnly {
		if _, err := os.Stat(root + p); err != nil {
			continue
		}
		if err := mount(root+p, root+p, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
			return err
		}
		if err := mount("", root+p, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY|syscall.MS_REC, ""); err != nil {
			return err
		}
	}
	return nil
}

// readOnlyUnder remounts every mount at or below dir read-only, keeping its nosuid/nodev/noexec.
func readOnlyUnder(dir string) error {
	info, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(info), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 {
			continue
		}
		mp := unescapeMount(f[4])
		if mp != dir && !strings.HasPrefix(mp, dir+"/") {
			continue
		}
		flags := uintptr(syscall.MS_BIND | syscall.MS_REMOUNT | syscall.MS_RDONLY)
		for _, o := range strings.Split(f[5], ",") {
			switch o {
			case "nosuid":
				flags |= syscall.MS_NOSUID
			case "nodev":
				flags |= syscall.MS_NODEV
			case "noexec":
				flags |= syscall.MS_NOEXEC
			}
		}
		if err := mount("", mp, "", flags, ""); err != nil {
			return err
		}
	}
	return nil
}

// buildCell makes the cell's root under dir and pivots into it. own: mount points of Hangar's
// (the cell directory, the agent's) never carried in.
func buildCell(dir string, own []string, vols []cellVolume) error {
	if err := mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return err
	}
	info, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	carried := carriedMounts(string(info), own)
	root := dir + "/root"
	if err := mount("overlay", root, "overlay", 0, "lowerdir=/,upperdir="+dir+"/upper,workdir="+dir+"/work,userxattr"); err != nil {
		return err
	}
	if err := cellDev(root); err != nil {
		return err
	}
	if err := cellProc(root); err != nil {
		return err
	}
	if err := bindInto(root, "/sys", false); err != nil {
		return err
	}
	// Every mount under /sys read-only (a remount applies to one mount: the container's cgroup tmpfs
	// under it would stay writable, and shared from one cell to the next).
	if err := readOnlyUnder(root + "/sys"); err != nil {
		return err
	}
	for _, m := range carried {
		if err := bindInto(root, m, false); err != nil {
			return err
		}
	}
	if err := mountCellVolumes(dir, root, vols); err != nil {
		return err
	}
	// The container's own mounts are dropped from the cell's view first (they stay the container's);
	// only "/" and the cell directory (under which the cell's root lies) remain, hidden below it.
	detachOthers(string(info), dir)
	if err := os.Chdir(root); err != nil {
		return err
	}
	// The container runtime's seccomp profile refuses pivot_root, so the root is moved onto "/"
	// and entered with chroot (runc's no-pivot way). Cell processes hold neither CAP_SYS_CHROOT nor
	// CAP_SYS_ADMIN and cannot mount or chroot again (cell_filter.go), so they cannot climb out.
	if err := mount(root, "/", "", syscall.MS_MOVE, ""); err != nil {
		return err
	}
	if err := syscall.Chroot("."); err != nil {
		return fmt.Errorf("chroot: %w", err)
	}
	return os.Chdir("/")
}

// detachOthers lazily unmounts every mount of the container but "/" and the cell directory's chain.
func detachOthers(mountinfo, dir string) {
	var points []string
	for _, line := range strings.Split(mountinfo, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		mp := unescapeMount(f[4])
		if mp == "/" || mp == dir || strings.HasPrefix(mp, dir+"/") || strings.HasPrefix(dir, mp+"/") {
			continue
		}
		points = append(points, mp)
	}
	sort.SliceStable(points, func(i, j int) bool { return len(points[i]) > len(points[j]) })
	for _, mp := range points {
		syscall.Unmount(mp, syscall.MNT_DETACH)
	}
}

const keyctlJoinSessionKeyring = 1

// cellMain is `hangar-agent cell DIR`: build the cell, listen, say ready on fd 3, serve.
func cellMain(dir string) {
	ready := os.NewFile(3, "ready")
	fail := func(err error) {
		fmt.Fprintf(ready, "error: %v\n", err)
		os.Exit(1)
	}
	// Signals sent from inside the cell must not end it (its init has handlers for these).
	signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGPIPE)
	own := strings.Split(os.Getenv("HANGAR_CELL_OWN"), ":")
	vols, err := parseCellVolumes(os.Getenv("HANGAR_CELL_VOLUMES"))
	if err != nil {
		fail(err)
	}
	ln, err := listenCell(dir + "/cell.sock")
	if err != nil {
		fail(err)
	}
	if err := buildCell(dir, own, vols); err != nil {
		fail(err)
	}
	// A session keyring of its own: the container's would carry keys from one sandbox to the next.
	name := []byte("_ses\x00")
	if _, _, e := syscall.RawSyscall(syscall.SYS_KEYCTL, keyctlJoinSessionKeyring, uintptr(unsafe.Pointer(&name[0])), 0); e != 0 && e != syscall.ENOSYS && e != syscall.EPERM {
		fail(errors.New("joining a new session keyring: " + e.Error()))
	}
	if err := confineCell(); err != nil {
		fail(err)
	}
	fmt.Fprintln(ready, "ok")
	ready.Close()
	serveCell(ln)
}
