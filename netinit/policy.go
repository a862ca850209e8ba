package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"
)

// Policy is what Hangar decides for one sandbox pod (runtime/kubernetes/egress/policy.ts writes it).
// Every address range is a CIDR; single addresses are /32 or /128.
type Policy struct {
	// Never: ranges the sandbox can never reach, whatever it was granted (nodes, metadata, the
	// kubernetes Service, operator additions). Checked before anything else except DNS.
	Never []string `json:"never"`
	// Private: ranges a grant reaches only where Grantable also covers them (cluster-internal space).
	Private []string `json:"private"`
	// Grantable: the operator's carve-outs of Private that grants may open (an inference service).
	Grantable []string `json:"grantable"`
	// Grants: what the sandbox may reach (its egress rules; "any" is 0.0.0.0/0 and ::/0).
	Grants []Grant `json:"grants"`
	// DNS: allow UDP and TCP port 53 to the pod's resolvers (from /etc/resolv.conf).
	DNS bool `json:"dns"`
	// Proxy: Hangar's egress proxy (host:port) for hostname grants: reachable even when it lies in
	// a never or private range (it is Hangar's own listener, which checks every CONNECT).
	Proxy string `json:"proxy,omitempty"`
	// Inbound: the sandbox's service ports (PRIVATE services): new connections to them are accepted.
	// Anything else inbound is dropped, as without them.
	Inbound []PortRange `json:"inbound,omitempty"`
	// Discover: also add the pod's default gateway (its node, on bridge CNIs), the kubernetes
	// Service address (KUBERNETES_SERVICE_HOST) and the node's address (HANGAR_NODE_IP) to Never.
	Discover bool `json:"discover"`
}

// Grant is one egress rule: a range minus its exceptions, optionally only on some ports.
type Grant struct {
	CIDR   string      `json:"cidr"`
	Except []string    `json:"except,omitempty"`
	Ports  []PortRange `json:"ports,omitempty"`
}

// PortRange is a destination port range of one protocol (tcp, udp or sctp).
type PortRange struct {
	Protocol string `json:"protocol"`
	Port     int    `json:"port"`
	EndPort  int    `json:"endPort,omitempty"`
}

// plan is a validated policy: every string parsed, nothing left to fail while rules are built.
type plan struct {
	never, private, grantable, resolvers []netip.Prefix
	grants                               []planGrant
	proxy                                *netip.AddrPort
	inbound                              []planPorts
}

type planGrant struct {
	cidr   netip.Prefix
	except []netip.Prefix
	ports  []planPorts
}

type planPorts struct {
	proto    byte
	from, to uint16
}

var protocols = map[string]byte{"tcp": 6, "udp": 17, "sctp": 132}

func parsePrefix(s string) (netip.Prefix, error) {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("%q is neither an address nor a CIDR", s)
	}
	return netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), nil
}

func parseAll(what string, in []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(in))
	for i, s := range in {
		p, err := parsePrefix(s)
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", what, i, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// compile validates a policy; extraNever and resolvers come from the pod (discover, dns).
func compile(p Policy, extraNever, resolvers []netip.Prefix) (*plan, error) {
	var err error
	pl := &plan{}
	if pl.never, err = parseAll("never", p.Never); err != nil {
		return nil, err
	}
	pl.never = append(pl.never, extraNever...)
	if pl.private, err = parseAll("private", p.Private); err != nil {
		return nil, err
	}
	if pl.grantable, err = parseAll("grantable", p.Grantable); err != nil {
		return nil, err
	}
	if p.DNS {
		pl.resolvers = resolvers
	}
	if p.Proxy != "" {
		ap, err := netip.ParseAddrPort(p.Proxy)
		if err != nil || ap.Port() == 0 {
			return nil, fmt.Errorf("proxy: %q is not an address:port", p.Proxy)
		}
		ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
		pl.proxy = &ap
	}
	for i, r := range p.Inbound {
		pp, err := parsePorts(r)
		if err != nil {
			return nil, fmt.Errorf("inbound[%d]: %w", i, err)
		}
		pl.inbound = append(pl.inbound, pp)
	}
	for i, g := range p.Grants {
		var pg planGrant
		if pg.cidr, err = parsePrefix(g.CIDR); err != nil {
			return nil, fmt.Errorf("grants[%d].cidr: %w", i, err)
		}
		if pg.except, err = parseAll(fmt.Sprintf("grants[%d].except", i), g.Except); err != nil {
			return nil, err
		}
		for j, r := range g.Ports {
			pp, err := parsePorts(r)
			if err != nil {
				return nil, fmt.Errorf("grants[%d].ports[%d]: %w", i, j, err)
			}
			pg.ports = append(pg.ports, pp)
		}
		pl.grants = append(pl.grants, pg)
	}
	return pl, nil
}

// parsePorts validates one port range (protocol tcp when unset).
func parsePorts(r PortRange) (planPorts, error) {
	proto, ok := protocols[strings.ToLower(r.Protocol)]
	if r.Protocol == "" {
		proto, ok = 6, true
	}
	end := r.EndPort
	if end == 0 {
		end = r.Port
	}
	if !ok || r.Port < 1 || r.Port > 65535 || end < r.Port || end > 65535 {
		return planPorts{}, fmt.Errorf("protocol tcp/udp/sctp and 1 <= port <= endPort <= 65535")
	}
	return planPorts{proto: proto, from: uint16(r.Port), to: uint16(end)}, nil
}

// defaultGateway reads the IPv4 default route's gateway from /proc/net/route.
func defaultGateway(r io.Reader) (netip.Prefix, bool) {
	s := bufio.NewScanner(r)
	for s.Scan() {
		f := strings.Fields(s.Text())
		if len(f) < 3 || f[1] != "00000000" {
			continue
		}
		v, err := strconv.ParseUint(f[2], 16, 32)
		if err != nil || v == 0 {
			continue
		}
		// /proc/net/route prints the address in host (little-endian) order.
		a := netip.AddrFrom4([4]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)})
		return netip.PrefixFrom(a, 32), true
	}
	return netip.Prefix{}, false
}

// nameservers reads the nameserver lines of a resolv.conf.
func nameservers(r io.Reader) []netip.Prefix {
	var out []netip.Prefix
	s := bufio.NewScanner(r)
	for s.Scan() {
		f := strings.Fields(s.Text())
		if len(f) >= 2 && f[0] == "nameserver" {
			if p, err := parsePrefix(f[1]); err == nil {
				out = append(out, p)
			}
		}
	}
	return out
}

func decodePolicy(text string) (Policy, error) {
	var p Policy
	d := json.NewDecoder(strings.NewReader(text))
	d.DisallowUnknownFields()
	if err := d.Decode(&p); err != nil {
		return p, fmt.Errorf("the policy is not valid JSON for this netinit: %w", err)
	}
	return p, nil
}
