// hangar-netinit: the init container of every Kubernetes sandbox pod. It loads Hangar's egress
// policy (default deny) into the pod's own network namespace as an nftables table and exits; the
// sandbox's container starts only after it succeeded and never holds NET_ADMIN, so the sandbox
// cannot change the rules. Isolation therefore holds on any CNI, and also covers the node, which
// NetworkPolicy never does. A policy it cannot load fails the pod: it never starts open.
package main

import (
	"fmt"
	"net/netip"
	"os"
	"strings"

	"github.com/google/nftables"
)

// PolicyEnv carries the policy (JSON, see Policy) from Hangar to this process.
const PolicyEnv = "HANGAR_NETINIT_POLICY"

// NodeIPEnv carries the node's address (the pod spec maps status.hostIP into it).
const NodeIPEnv = "HANGAR_NODE_IP"

func discover(p Policy) (never, resolvers []netip.Prefix) {
	if p.Discover {
		if f, err := os.Open("/proc/net/route"); err == nil {
			if gw, ok := defaultGateway(f); ok {
				never = append(never, gw)
			}
			f.Close()
		}
		// The kubernetes Service, and the pod's node (status.hostIP through the downward API).
		for _, k := range []string{"KUBERNETES_SERVICE_HOST", NodeIPEnv} {
			if h := os.Getenv(k); h != "" {
				if a, err := parsePrefix(h); err == nil {
					never = append(never, a)
				}
			}
		}
	}
	if p.DNS {
		if f, err := os.Open(resolvConf()); err == nil {
			resolvers = nameservers(f)
			f.Close()
		}
	}
	return never, resolvers
}

func run() error {
	text := os.Getenv(PolicyEnv)
	if len(os.Args) > 1 {
		text = os.Args[1]
	}
	return load(text)
}

// load decodes, compiles, loads and verifies a policy (the init container's whole work).
func load(text string) error {
	if text == "" {
		return fmt.Errorf("no policy: set %s", PolicyEnv)
	}
	p, err := decodePolicy(text)
	if err != nil {
		return err
	}
	never, resolvers := discover(p)
	pl, err := compile(p, never, resolvers)
	if err != nil {
		return err
	}
	conn, err := nftables.New()
	if err != nil {
		return fmt.Errorf("opening netlink: %w", err)
	}
	if err := apply(conn, pl); err != nil {
		return err
	}
	if err := verify(conn, pl); err != nil {
		return err
	}
	fmt.Printf("hangar-netinit: loaded table inet %s: never %s; grants %d; dns %s\n", TableName, join(pl.never), len(pl.grants), join(pl.resolvers))
	return nil
}

// verify reads the table back: every chain holds the rules the plan has.
func verify(conn *nftables.Conn, pl *plan) error {
	t := &nftables.Table{Family: nftables.TableFamilyINet, Name: TableName}
	for _, c := range chains(pl) {
		got, err := conn.GetRules(t, &nftables.Chain{Name: c.name, Table: t})
		if err != nil {
			return fmt.Errorf("reading chain %s back: %w", c.name, err)
		}
		if len(got) != len(c.rules) {
			return fmt.Errorf("chain %s has %d rules after loading, want %d", c.name, len(got), len(c.rules))
		}
	}
	return nil
}

func join(ps []netip.Prefix) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ",")
}

// uidmap prints this process's uid_map, also as the termination message: Hangar's user-namespace
// probe pod runs it (hostUsers: false) and reads the answer from the pod's status.
func uidmap() error {
	m, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return err
	}
	fmt.Print(string(m))
	_ = os.WriteFile("/dev/termination-log", m, 0o644)
	return nil
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "hold" {
		if err := hold(); err != nil {
			fmt.Fprintln(os.Stderr, "hangar-netinit hold: "+err.Error())
			os.Exit(1)
		}
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "apply" {
		if err := reload(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "hangar-netinit apply: "+err.Error())
			os.Exit(1)
		}
		return
	}
	if len(os.Args) == 2 && os.Args[1] == "uidmap" {
		if err := uidmap(); err != nil {
			fmt.Fprintln(os.Stderr, "hangar-netinit uidmap:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(); err != nil {
		msg := "hangar-netinit: " + err.Error()
		fmt.Fprintln(os.Stderr, msg)
		_ = os.WriteFile("/dev/termination-log", []byte(msg), 0o644)
		os.Exit(1)
	}
	copyAgent()
}
