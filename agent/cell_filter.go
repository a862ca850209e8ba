package main

// The confinement every process of a cell runs under (docs/adr/0040-pool-pod-reuse.md): a seccomp
// filter stacked on the pod's own (which had to allow the supervisor to make namespaces), the
// capability bounding set cut to what a sandbox's container holds elsewhere, no new privileges and
// no core dumps or ptrace of the cell's init.

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

const (
	cloneNewUser         = 0x10000000
	seccompSetModeFilter = 1
	seccompFilterTsync   = 1
	seccompRetAllow      = 0x7fff0000
	seccompRetErrno      = 0x00050000
	prSetNoNewPrivs      = 38
	prCapbsetDrop        = 24
	prSetDumpable        = 4
	linuxCapV3           = 0x20080522
	sysClone3            = 435
	sysOpenTree          = 428
	sysMoveMount         = 429
	sysFsopen            = 430
	sysFsconfig          = 431
	sysFsmount           = 432
	sysFspick            = 433
	sysMountSetattr      = 442
)

// keptCaps: the capabilities a sandbox's container keeps (runtime/kubernetes/pod/spec.ts KEPT_CAPABILITIES):
// CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, SETGID, SETUID, NET_BIND_SERVICE.
var keptCaps = []uint{0, 1, 3, 4, 5, 6, 7, 10}

type sockFilter struct {
	code uint16
	jt   uint8
	jf   uint8
	k    uint32
}

type sockFprog struct {
	len    uint16
	filter *sockFilter
}

const (
	bpfLdW   = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJeq   = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfJset  = 0x45 // BPF_JMP | BPF_JSET | BPF_K
	bpfRet   = 0x06 // BPF_RET | BPF_K
	errEPERM = 1
	errNOSYS = 38
)

// cellDenied: syscalls no cell process needs (it holds no CAP_SYS_ADMIN there either): mounts and
// joining other namespaces. Answered EPERM.
func cellDenied() []uint32 {
	return []uint32{
		sysSetns, syscall.SYS_MOUNT, syscall.SYS_UMOUNT2, syscall.SYS_PIVOT_ROOT,
		sysOpenTree, sysMoveMount, sysFsopen, sysFsconfig, sysFsmount, sysFspick, sysMountSetattr,
	}
}

// cellProgram builds the filter: another architecture's calls are refused (their numbers differ),
// clone/unshare with CLONE_NEWUSER are EPERM (a user namespace would give back every capability),
// clone3 is ENOSYS (its flags sit behind a pointer; libc falls back to clone), cellDenied is EPERM.
func cellProgram() []sockFilter {
	denied := cellDenied()
	ret := func(v uint32) sockFilter { return sockFilter{code: bpfRet, k: v} }
	p := []sockFilter{
		{code: bpfLdW, k: 4}, // arch
		{code: bpfJeq, jt: 1, k: auditArch},
		ret(seccompRetErrno | errNOSYS),
		{code: bpfLdW, k: 0}, // nr
	}
	// Jump offsets: clone and unshare go to the flag check at the end, clone3 and the denied list to their returns.
	n := len(denied)
	// layout after the loads: [clone?][unshare?][clone3?][denied...][ret allow][ret nosys][ret eperm][ld arg0][jset][ret allow][ret eperm]
	allowAt := 3 + n       // index (relative to the first check) of "ret allow"
	nosysAt := allowAt + 1 // "ret nosys"
	epermAt := allowAt + 2 // "ret eperm"
	checkAt := allowAt + 3 // "ld arg0"
	jump := func(i, to int) uint8 { return uint8(to - i - 1) }
	p = append(p,
		sockFilter{code: bpfJeq, k: uint32(syscall.SYS_CLONE), jt: jump(0, checkAt)},
		sockFilter{code: bpfJeq, k: uint32(syscall.SYS_UNSHARE), jt: jump(1, checkAt)},
		sockFilter{code: bpfJeq, k: sysClone3, jt: jump(2, nosysAt)},
	)
	for i, nr := range denied {
		p = append(p, sockFilter{code: bpfJeq, k: nr, jt: jump(3+i, epermAt)})
	}
	p = append(p,
		ret(seccompRetAllow),
		ret(seccompRetErrno|errNOSYS),
		ret(seccompRetErrno|errEPERM),
		sockFilter{code: bpfLdW, k: 16}, // args[0], low 32 bits (little endian)
		sockFilter{code: bpfJset, k: cloneNewUser, jt: 1},
		ret(seccompRetAllow),
		ret(seccompRetErrno|errEPERM),
	)
	return p
}

// confineCell applies the cell's confinement to every thread of this process; the commands it
// starts inherit it. Called by the cell's init once its mounts are made.
func confineCell() error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0); e != 0 {
		return errors.New("prctl(PR_SET_DUMPABLE): " + e.Error())
	}
	last := 40
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if v, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = v
		}
	}
	kept := map[uint]bool{}
	var mask uint32
	for _, c := range keptCaps {
		kept[c] = true
		mask |= 1 << c
	}
	for c := uint(0); c <= uint(last); c++ {
		if kept[c] {
			continue
		}
		if _, _, e := syscall.AllThreadsSyscall(syscall.SYS_PRCTL, prCapbsetDrop, uintptr(c), 0); e != 0 {
			return errors.New("dropping capability " + strconv.Itoa(int(c)) + ": " + e.Error())
		}
	}
	hdr := struct {
		version uint32
		pid     int32
	}{linuxCapV3, 0}
	data := [2]struct{ effective, permitted, inheritable uint32 }{{mask, mask, 0}, {0, 0, 0}}
	if _, _, e := syscall.AllThreadsSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); e != 0 {
		return errors.New("capset: " + e.Error())
	}
	if _, _, e := syscall.AllThreadsSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); e != 0 {
		return errors.New("prctl(PR_SET_NO_NEW_PRIVS): " + e.Error())
	}
	prog := cellProgram()
	fprog := sockFprog{len: uint16(len(prog)), filter: &prog[0]}
	if _, _, e := syscall.RawSyscall(sysSeccomp, seccompSetModeFilter, seccompFilterTsync, uintptr(unsafe.Pointer(&fprog))); e != 0 {
		return errors.New("seccomp: " + e.Error())
	}
	return nil
}
