package main

import (
	"encoding/binary"
	"fmt"
	"net/netip"

	"github.com/google/nftables"
	"github.com/google/nftables/binaryutil"
	"github.com/google/nftables/expr"
	"golang.org/x/sys/unix"
)

// TableName is the table netinit owns in the pod's network namespace.
const TableName = "hangar_sandbox"

// rule is one nftables rule with a readable description (what the tests compare).
type rule struct {
	desc  string
	exprs []expr.Any
}

// chain is a chain of the table; hook is "" for a regular chain (a jump target).
type chain struct {
	name  string
	hook  string
	rules []rule
}

func verdict(k expr.VerdictKind, target string) expr.Any {
	return &expr.Verdict{Kind: k, Chain: target}
}

// dst matches the destination address against a prefix (and its family).
func dst(p netip.Prefix) []expr.Any {
	family, off, n := byte(unix.NFPROTO_IPV4), uint32(16), 4
	if p.Addr().Is6() {
		family, off, n = byte(unix.NFPROTO_IPV6), 24, 16
	}
	out := []expr.Any{
		&expr.Meta{Key: expr.MetaKeyNFPROTO, Register: 1},
		&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: []byte{family}},
	}
	if p.Bits() == 0 {
		return out
	}
	out = append(out, &expr.Payload{DestRegister: 1, Base: expr.PayloadBaseNetworkHeader, Offset: off, Len: uint32(n)})
	if p.Bits() < n*8 {
		mask := make([]byte, n)
		for i := 0; i < p.Bits(); i++ {
			mask[i/8] |= 0x80 >> (i % 8)
		}
		out = append(out, &expr.Bitwise{SourceRegister: 1, DestRegister: 1, Len: uint32(n), Mask: mask, Xor: make([]byte, n)})
	}
	return append(out, &expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: p.Addr().AsSlice()})
}

func ports(p planPorts) []expr.Any {
	be := func(v uint16) []byte { b := make([]byte, 2); binary.BigEndian.PutUint16(b, v); return b }
	out := []expr.Any{
		&expr.Meta{Key: expr.MetaKeyL4PROTO, Register: 1},
		&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: []byte{p.proto}},
		&expr.Payload{DestRegister: 1, Base: expr.PayloadBaseTransportHeader, Offset: 2, Len: 2},
	}
	if p.from == p.to {
		return append(out, &expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: be(p.from)})
	}
	return append(out, &expr.Cmp{Op: expr.CmpOpGte, Register: 1, Data: be(p.from)}, &expr.Cmp{Op: expr.CmpOpLte, Register: 1, Data: be(p.to)})
}

func ifname(key expr.MetaKey, name string) []expr.Any {
	b := make([]byte, 16)
	copy(b, name)
	return []expr.Any{&expr.Meta{Key: key, Register: 1}, &expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: b}}
}

func established() []expr.Any {
	return []expr.Any{
		&expr.Ct{Register: 1, Key: expr.CtKeySTATE},
		&expr.Bitwise{SourceRegister: 1, DestRegister: 1, Len: 4,
			Mask: binaryutil.NativeEndian.PutUint32(expr.CtStateBitESTABLISHED | expr.CtStateBitRELATED), Xor: make([]byte, 4)},
		&expr.Cmp{Op: expr.CmpOpNeq, Register: 1, Data: make([]byte, 4)},
	}
}

func cat(parts ...[]expr.Any) []expr.Any {
	var out []expr.Any
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var protoNames = map[byte]string{6: "tcp", 17: "udp", 132: "sctp"}

func portDesc(p planPorts) string {
	if p.from == p.to {
		return fmt.Sprintf(" %s dport %d", protoNames[p.proto], p.from)
	}
	return fmt.Sprintf(" %s dport %d-%d", protoNames[p.proto], p.from, p.to)
}

// chains turns a plan into the table's chains, in the order they must be created (jump targets first).
//
//	output (policy drop): lo, established, DNS to the resolvers, never -> deny, private (unless
//	grantable) -> deny, each grant (minus its exceptions) -> accept, the rest -> deny
//	input (policy drop): lo, established, and the service ports (Policy.Inbound) only
func chains(pl *plan) []chain {
	deny := chain{name: "deny", rules: []rule{
		{"tcp reject with tcp reset", cat([]expr.Any{&expr.Meta{Key: expr.MetaKeyL4PROTO, Register: 1}, &expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: []byte{unix.IPPROTO_TCP}}},
			[]expr.Any{&expr.Reject{Type: unix.NFT_REJECT_TCP_RST}})},
		{"reject with icmpx admin-prohibited", []expr.Any{&expr.Reject{Type: unix.NFT_REJECT_ICMPX_UNREACH, Code: unix.NFT_REJECT_ICMPX_ADMIN_PROHIBITED}}},
	}}
	private := chain{name: "private"}
	for _, g := range pl.grantable {
		private.rules = append(private.rules, rule{"daddr " + g.String() + " return", cat(dst(g), []expr.Any{verdict(expr.VerdictReturn, "")})})
	}
	for _, p := range pl.private {
		private.rules = append(private.rules, rule{"daddr " + p.String() + " jump deny", cat(dst(p), []expr.Any{verdict(expr.VerdictJump, "deny")})})
	}
	out := chain{name: "output", hook: "output", rules: []rule{
		{"oif lo accept", cat(ifname(expr.MetaKeyOIFNAME, "lo"), []expr.Any{verdict(expr.VerdictAccept, "")})},
		{"ct state established,related accept", cat(established(), []expr.Any{verdict(expr.VerdictAccept, "")})},
	}}
	for _, r := range pl.resolvers {
		for _, proto := range []byte{unix.IPPROTO_UDP, unix.IPPROTO_TCP} {
			pp := planPorts{proto: proto, from: 53, to: 53}
			out.rules = append(out.rules, rule{"daddr " + r.String() + portDesc(pp) + " accept", cat(dst(r), ports(pp), []expr.Any{verdict(expr.VerdictAccept, "")})})
		}
	}
	if pl.proxy != nil {
		a := netip.PrefixFrom(pl.proxy.Addr(), pl.proxy.Addr().BitLen())
		pp := planPorts{proto: unix.IPPROTO_TCP, from: pl.proxy.Port(), to: pl.proxy.Port()}
		out.rules = append(out.rules, rule{"daddr " + a.String() + portDesc(pp) + " accept (egress proxy)", cat(dst(a), ports(pp), []expr.Any{verdict(expr.VerdictAccept, "")})})
	}
	for _, n := range pl.never {
		out.rules = append(out.rules, rule{"daddr " + n.String() + " jump deny", cat(dst(n), []expr.Any{verdict(expr.VerdictJump, "deny")})})
	}
	out.rules = append(out.rules, rule{"jump private", []expr.Any{verdict(expr.VerdictJump, "private")}})
	all := []chain{deny, private}
	for i, g := range pl.grants {
		c := chain{name: fmt.Sprintf("grant%d", i)}
		for _, e := range g.except {
			c.rules = append(c.rules, rule{"daddr " + e.String() + " return", cat(dst(e), []expr.Any{verdict(expr.VerdictReturn, "")})})
		}
		if len(g.ports) == 0 {
			c.rules = append(c.rules, rule{"daddr " + g.cidr.String() + " accept", cat(dst(g.cidr), []expr.Any{verdict(expr.VerdictAccept, "")})})
		}
		for _, p := range g.ports {
			c.rules = append(c.rules, rule{"daddr " + g.cidr.String() + portDesc(p) + " accept", cat(dst(g.cidr), ports(p), []expr.Any{verdict(expr.VerdictAccept, "")})})
		}
		all = append(all, c)
		out.rules = append(out.rules, rule{"jump " + c.name, []expr.Any{verdict(expr.VerdictJump, c.name)}})
	}
	out.rules = append(out.rules, rule{"jump deny", []expr.Any{verdict(expr.VerdictJump, "deny")}})
	in := chain{name: "input", hook: "input", rules: []rule{
		{"iif lo accept", cat(ifname(expr.MetaKeyIIFNAME, "lo"), []expr.Any{verdict(expr.VerdictAccept, "")})},
		{"ct state established,related accept", cat(established(), []expr.Any{verdict(expr.VerdictAccept, "")})},
	}}
	for _, p := range pl.inbound {
		in.rules = append(in.rules, rule{"service" + portDesc(p) + " accept", cat(ports(p), []expr.Any{verdict(expr.VerdictAccept, "")})})
	}
	return append(all, out, in)
}

// apply replaces the table in the namespace of conn with the plan's chains, in one transaction.
func apply(conn *nftables.Conn, pl *plan) error {
	tables, err := conn.ListTablesOfFamily(nftables.TableFamilyINet)
	if err != nil {
		return fmt.Errorf("listing nftables tables: %w", err)
	}
	t := &nftables.Table{Family: nftables.TableFamilyINet, Name: TableName}
	for _, old := range tables {
		if old.Name == TableName {
			conn.DelTable(t)
		}
	}
	conn.AddTable(t)
	drop := nftables.ChainPolicyDrop
	for _, c := range chains(pl) {
		nc := &nftables.Chain{Name: c.name, Table: t}
		switch c.hook {
		case "output":
			nc.Type, nc.Hooknum, nc.Priority, nc.Policy = nftables.ChainTypeFilter, nftables.ChainHookOutput, nftables.ChainPriorityFilter, &drop
		case "input":
			nc.Type, nc.Hooknum, nc.Priority, nc.Policy = nftables.ChainTypeFilter, nftables.ChainHookInput, nftables.ChainPriorityFilter, &drop
		}
		conn.AddChain(nc)
		for _, r := range c.rules {
			conn.AddRule(&nftables.Rule{Table: t, Chain: nc, Exprs: r.exprs})
		}
	}
	if err := conn.Flush(); err != nil {
		return fmt.Errorf("loading the ruleset: %w", err)
	}
	return nil
}
