package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/nftables"
)

// TestMain re-runs the tests in a fresh network namespace when it can (root), so the kernel
// tests load real rules without touching the host's.
func TestMain(m *testing.M) {
	if os.Getenv("NETINIT_TEST_NETNS") == "" && os.Geteuid() == 0 {
		cmd := exec.Command("unshare", append([]string{"-n", "--", os.Args[0]}, os.Args[1:]...)...)
		cmd.Env = append(os.Environ(), "NETINIT_TEST_NETNS=1")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				os.Exit(ee.ExitCode())
			}
			panic(err)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func mustCompile(t *testing.T, p Policy, never, resolvers []netip.Prefix) *plan {
	t.Helper()
	pl, err := compile(p, never, resolvers)
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

func descs(c chain) string {
	s := make([]string, len(c.rules))
	for i, r := range c.rules {
		s[i] = r.desc
	}
	return strings.Join(s, "\n")
}

func byName(cs []chain) map[string]chain {
	m := map[string]chain{}
	for _, c := range cs {
		m[c.name] = c
	}
	return m
}

var sample = Policy{
	Never:     []string{"169.254.0.0/16", "198.18.9.7"},
	Private:   []string{"10.0.0.0/8"},
	Grantable: []string{"10.9.0.128/25"},
	Grants: []Grant{
		{CIDR: "198.18.0.0/15", Except: []string{"198.18.9.64/26"}},
		{CIDR: "10.9.0.0/24", Ports: []PortRange{{Port: 80, EndPort: 81}, {Protocol: "UDP", Port: 53}}},
	},
	DNS: true,
}

func TestChainsOrderNeverBeforePrivateBeforeGrants(t *testing.T) {
	pl := mustCompile(t, sample, []netip.Prefix{netip.MustParsePrefix("10.88.7.1/32")}, []netip.Prefix{netip.MustParsePrefix("10.255.255.53/32")})
	cs := byName(chains(pl))
	want := map[string]string{
		"output": strings.Join([]string{
			"oif lo accept", "ct state established,related accept",
			"daddr 10.255.255.53/32 udp dport 53 accept", "daddr 10.255.255.53/32 tcp dport 53 accept",
			"daddr 169.254.0.0/16 jump deny", "daddr 198.18.9.7/32 jump deny", "daddr 10.88.7.1/32 jump deny",
			"jump private", "jump grant0", "jump grant1", "jump deny"}, "\n"),
		"private": "daddr 10.9.0.128/25 return\ndaddr 10.0.0.0/8 jump deny",
		"grant0":  "daddr 198.18.9.64/26 return\ndaddr 198.18.0.0/15 accept",
		"grant1":  "daddr 10.9.0.0/24 tcp dport 80-81 accept\ndaddr 10.9.0.0/24 udp dport 53 accept",
		"input":   "iif lo accept\nct state established,related accept",
	}
	for name, w := range want {
		if got := descs(cs[name]); got != w {
			t.Errorf("chain %s:\n%s\nwant:\n%s", name, got, w)
		}
	}
	if cs["output"].hook != "output" || cs["input"].hook != "input" || cs["deny"].hook != "" {
		t.Errorf("hooks: output %q input %q deny %q", cs["output"].hook, cs["input"].hook, cs["deny"].hook)
	}
}

func TestNoGrantsDeniesEverythingButLoopback(t *testing.T) {
	cs := byName(chains(mustCompile(t, Policy{Never: []string{"169.254.0.0/16"}}, nil, []netip.Prefix{netip.MustParsePrefix("10.0.0.10/32")})))
	want := "oif lo accept\nct state established,related accept\ndaddr 169.254.0.0/16 jump deny\njump private\njump deny"
	if got := descs(cs["output"]); got != want {
		t.Errorf("output:\n%s\nwant (no DNS without dns: true):\n%s", got, want)
	}
}

func TestTheProxyIsReachableBeforeTheNeverRanges(t *testing.T) {
	cs := byName(chains(mustCompile(t, Policy{Never: []string{"10.88.7.1/32"}, Proxy: "10.88.7.1:3128"}, nil, nil)))
	want := "oif lo accept\nct state established,related accept\ndaddr 10.88.7.1/32 tcp dport 3128 accept (egress proxy)\ndaddr 10.88.7.1/32 jump deny\njump private\njump deny"
	if got := descs(cs["output"]); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
	if _, err := compile(Policy{Proxy: "10.0.0.1"}, nil, nil); err == nil {
		t.Error("a proxy without a port compiled")
	}
}

func TestCompileRefusesWhatItCannotLoad(t *testing.T) {
	for name, p := range map[string]Policy{
		"bad cidr":      {Grants: []Grant{{CIDR: "10.0.0.0/33"}}},
		"bad except":    {Grants: []Grant{{CIDR: "10.0.0.0/8", Except: []string{"nope"}}}},
		"bad never":     {Never: []string{"300.1.1.1"}},
		"port zero":     {Grants: []Grant{{CIDR: "0.0.0.0/0", Ports: []PortRange{{Port: 0}}}}},
		"end before":    {Grants: []Grant{{CIDR: "0.0.0.0/0", Ports: []PortRange{{Port: 90, EndPort: 80}}}}},
		"unknown proto": {Grants: []Grant{{CIDR: "0.0.0.0/0", Ports: []PortRange{{Protocol: "icmp", Port: 1}}}}},
		"port too big":  {Grants: []Grant{{CIDR: "0.0.0.0/0", Ports: []PortRange{{Port: 65536}}}}},
	} {
		if _, err := compile(p, nil, nil); err == nil {
			t.Errorf("%s: compiled", name)
		}
	}
	if _, err := decodePolicy(`{"grants":[],"allowAll":true}`); err == nil {
		t.Error("a policy with a field netinit does not know was accepted")
	}
}

func TestDiscoveryParsers(t *testing.T) {
	route := "Iface\tDestination\tGateway \tFlags\nens3\t0007580A\t00000000\t0001\neth0\t00000000\t0107580A\t0003\n"
	gw, ok := defaultGateway(strings.NewReader(route))
	if !ok || gw.String() != "10.88.7.1/32" {
		t.Errorf("gateway %v %v", gw, ok)
	}
	if _, ok := defaultGateway(strings.NewReader("Iface\tDestination\tGateway\neth0\t0007580A\t00000000\n")); ok {
		t.Error("a gateway without a default route")
	}
	ns := nameservers(strings.NewReader("search x\nnameserver 10.96.0.10\nnameserver fd00::53\nnameserver bogus\n"))
	if len(ns) != 2 || ns[0].String() != "10.96.0.10/32" || ns[1].String() != "fd00::53/128" {
		t.Errorf("nameservers %v", ns)
	}
}

func ip(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
		t.Fatalf("ip %v: %v: %s", args, err, out)
	}
}

// dial: "refused" (the ruleset rejected it at once), "open" (no rejection: the SYN left for a
// veth nobody answers on, so the dial times out) or "connected".
func dial(addr string) string {
	c, err := net.DialTimeout("tcp", addr, 300*time.Millisecond)
	if err == nil {
		c.Close()
		return "connected"
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return "refused"
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "open"
	}
	return err.Error()
}

// The ruleset, loaded by the kernel in a fresh network namespace, decides real connections.
func TestLoadedRulesDecideConnections(t *testing.T) {
	if os.Getenv("NETINIT_TEST_NETNS") != "1" {
		t.Skip("needs root: loads rules in a fresh network namespace")
	}
	ip(t, "link", "set", "lo", "up")
	// A veth pair whose far end has no address: what is routed out of d0 is never answered.
	ip(t, "link", "add", "d0", "type", "veth", "peer", "name", "d1")
	ip(t, "addr", "add", "10.9.0.1/24", "dev", "d0")
	ip(t, "link", "set", "d0", "up")
	ip(t, "link", "set", "d1", "up")
	ip(t, "route", "add", "default", "dev", "d0")
	ip(t, "-6", "route", "add", "default", "dev", "d0")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	before := dial("10.9.0.5:80")
	conn, err := nftables.New()
	if err != nil {
		t.Fatal(err)
	}
	pl := mustCompile(t, sample, nil, nil)
	if err := apply(conn, pl); err != nil {
		t.Fatal(err)
	}
	if err := verify(conn, pl); err != nil {
		t.Fatal(err)
	}
	if err := apply(conn, pl); err != nil { // again: replaces the table (an init container retried)
		t.Fatalf("second load: %v", err)
	}
	if before != "open" {
		t.Fatalf("without rules a dial to 10.9.0.5:80 was %q, want open (the test cannot tell rules apart)", before)
	}
	for addr, want := range map[string]string{
		l.Addr().String():    "connected", // loopback
		"198.18.9.2:80":      "open",      // grant0 (any)
		"198.18.9.7:80":      "refused",   // never
		"198.18.9.70:80":     "refused",   // grant0's except, no other grant
		"10.9.0.200:80":      "open",      // private, but grantable and grant1 on port 80
		"10.9.0.200:81":      "open",
		"10.9.0.200:82":      "refused", // grant1's ports
		"10.9.0.5:80":        "refused", // private, not grantable
		"169.254.169.254:80": "refused", // never
		"[2001:db8::1]:80":   "refused", // no IPv6 grant
	} {
		if got := dial(addr); got != want {
			t.Errorf("dial %s: %s, want %s", addr, got, want)
		}
	}
}

func TestInboundOnlyTheServicePorts(t *testing.T) {
	cs := byName(chains(mustCompile(t, Policy{Inbound: []PortRange{{Protocol: "tcp", Port: 8080}, {Protocol: "udp", Port: 5353}}}, nil, nil)))
	want := "iif lo accept\nct state established,related accept\nservice tcp dport 8080 accept\nservice udp dport 5353 accept"
	if got := descs(cs["input"]); got != want {
		t.Errorf("input:\n%s\nwant:\n%s", got, want)
	}
	cs = byName(chains(mustCompile(t, Policy{}, nil, nil)))
	if got := descs(cs["input"]); got != "iif lo accept\nct state established,related accept" {
		t.Errorf("input without services:\n%s", got)
	}
	if _, err := compile(Policy{Inbound: []PortRange{{Port: 0}}}, nil, nil); err == nil {
		t.Error("inbound port 0 compiled")
	}
}

func TestInstallAgentCopiesUnderItsHashReadOnly(t *testing.T) {
	src := filepath.Join(t.TempDir(), "hangar-agent")
	body := []byte("#!/bin/sh\necho agent\n")
	if err := os.WriteFile(src, body, 0o700); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dst, err := installAgent(src, dir)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	if want := filepath.Join(dir, "hangar-agent-"+hex.EncodeToString(sum[:])[:16]); dst != want {
		t.Fatalf("copied to %s, want %s", dst, want)
	}
	got, _ := os.ReadFile(dst)
	if string(got) != string(body) {
		t.Fatalf("copy differs: %q", got)
	}
	st, _ := os.Stat(dst)
	if st.Mode().Perm() != 0o555 {
		t.Fatalf("mode %v, want r-xr-xr-x", st.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("the directory holds %d entries, want the agent alone", len(ents))
	}
	if _, err := installAgent(filepath.Join(dir, "missing"), dir); err == nil {
		t.Fatal("a missing agent was reported copied")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("a failed copy left %d entries", len(ents))
	}
}

// apply (the hangar-net sidecar at claim and return): the table replaced, and every tracked flow of
// the rules before gone, so none is let through as established under the next.
func TestReloadReplacesTheRulesAndFlushesConntrack(t *testing.T) {
	if os.Getenv("NETINIT_TEST_NETNS") != "1" {
		t.Skip("needs root: loads rules in a fresh network namespace")
	}
	ip(t, "link", "set", "lo", "up")
	ip(t, "link", "add", "r0", "type", "veth", "peer", "name", "r1")
	ip(t, "addr", "add", "10.19.0.1/24", "dev", "r0")
	ip(t, "link", "set", "r0", "up")
	ip(t, "link", "set", "r1", "up")
	grant := `{"grants":[{"cidr":"10.19.0.0/24","ports":[{"protocol":"UDP","port":53}]}]}`
	if err := reload(grant); err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("udp", "10.19.0.5:53")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("x")); err != nil {
		t.Fatalf("a granted datagram was refused: %v", err)
	}
	time.Sleep(50 * time.Millisecond)
	if n, err := conntrackCount(); err != nil || n == 0 {
		t.Fatalf("the granted flow is not tracked (%d, %v): the test cannot tell a flush apart", n, err)
	}
	if err := reload(`{}`); err != nil {
		t.Fatal(err)
	}
	if n, err := conntrackCount(); err != nil || n != 0 {
		t.Fatalf("after apply %d tracked flows are left (%v)", n, err)
	}
	if _, err := c.Write([]byte("x")); err == nil {
		t.Fatal("the flow the last rules allowed still gets out")
	}
	if err := reload(`{"grants":[`); err == nil {
		t.Fatal("an unreadable policy was applied")
	}
}

// The sidecar reads the resolvers from hold's copy only: apply without it refuses (never the file a
// sandbox may have rewritten).
func TestApplyInTheSidecarNeedsHoldsCopyOfResolvConf(t *testing.T) {
	d := t.TempDir()
	t.Setenv(StateDirEnv, d)
	if err := reload(`{}`); err == nil || !strings.Contains(err.Error(), "no copy of the pod's resolv.conf") {
		t.Fatalf("apply without hold's copy: %v", err)
	}
	if got := resolvConf(); got != filepath.Join(d, "resolv.conf") {
		t.Fatalf("resolvers read from %s", got)
	}
	t.Setenv(StateDirEnv, "")
	if got := resolvConf(); got != "/etc/resolv.conf" {
		t.Fatalf("the init container reads %s", got)
	}
}
