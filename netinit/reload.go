package main

// A `+egress` pool pod's hangar-net sidecar (docs/adr/0044-egress-rules-at-claim.md): `hold` keeps a
// container with NET_ADMIN (and nothing else) running beside the sandbox's, running no code that
// reads anything a sandbox controls; Hangar execs `apply <policy>` into it at each claim (the
// sandbox's rules) and each return (the idle pod's: deny), which replaces the table in one
// transaction and then flushes the network namespace's connection tracking, so no flow the last
// rules allowed (a UDP "connection" stays established for minutes) is let through by
// `ct state established` under the next.

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"
)

const (
	ipctnlMsgCtGet    = 1
	ipctnlMsgCtDelete = 2
)

// StateDirEnv names the sidecar's own emptyDir (no other container mounts it): `hold` keeps there the
// pod's resolv.conf as it was before the sandbox's container started, and `apply` reads the
// resolvers from that copy, never from the file a sandbox may have rewritten since.
const StateDirEnv = "HANGAR_NET_STATE_DIR"

// resolvConf is the file the resolvers are read from: the sidecar's copy when it has one.
func resolvConf() string {
	if d := os.Getenv(StateDirEnv); d != "" {
		return filepath.Join(d, "resolv.conf")
	}
	return "/etc/resolv.conf"
}

// hold keeps the pod's resolv.conf, then waits for the container's stop.
func hold() error {
	if d := os.Getenv(StateDirEnv); d != "" {
		b, err := os.ReadFile("/etc/resolv.conf")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "resolv.conf"), b, 0o600); err != nil {
			return err
		}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	return nil
}

// ctMessage is a ctnetlink request of the given kind for every family (nfgenmsg version 0 and no
// attributes: a delete is a flush of the whole table of this network namespace).
func ctMessage(kind uint16, flags netlink.HeaderFlags) netlink.Message {
	return netlink.Message{
		Header: netlink.Header{Type: netlink.HeaderType(unix.NFNL_SUBSYS_CTNETLINK<<8 | kind), Flags: netlink.Request | flags},
		Data:   []byte{unix.AF_UNSPEC, unix.NFNETLINK_V0, 0, 0},
	}
}

// flushConntrack empties this network namespace's connection tracking table.
func flushConntrack() error {
	c, err := netlink.Dial(unix.NETLINK_NETFILTER, nil)
	if err != nil {
		return fmt.Errorf("opening ctnetlink: %w", err)
	}
	defer c.Close()
	if _, err := c.Execute(ctMessage(ipctnlMsgCtDelete, netlink.Acknowledge)); err != nil {
		return fmt.Errorf("flushing connection tracking: %w", err)
	}
	return nil
}

// conntrackCount counts the entries of this network namespace's connection tracking table.
func conntrackCount() (int, error) {
	c, err := netlink.Dial(unix.NETLINK_NETFILTER, nil)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	msgs, err := c.Execute(ctMessage(ipctnlMsgCtGet, netlink.Dump))
	return len(msgs), err
}

// reload loads the policy as the init container does (its resolvers from hold's copy), then flushes
// connection tracking.
func reload(text string) error {
	if d := os.Getenv(StateDirEnv); d != "" {
		if _, err := os.Stat(filepath.Join(d, "resolv.conf")); err != nil {
			return fmt.Errorf("no copy of the pod's resolv.conf from hold: %w", err)
		}
	}
	if err := load(text); err != nil {
		return err
	}
	return flushConntrack()
}
