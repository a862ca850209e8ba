package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReserveNeverOvercommitsThePool(t *testing.T) {
	n, err := newNode(config{pool: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	mk := func(vol string) {
		if err := os.MkdirAll(filepath.Join(n.volumesDir(), vol), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	mk("a")
	if err := n.reserve("a", volMeta{Layer: "x", Size: 1 << 20}); err != nil {
		t.Fatalf("a 1 MiB volume: %v", err)
	}
	if m, err := n.readMeta("a"); err != nil || m.Size != 1<<20 {
		t.Fatalf("meta %+v %v", m, err)
	}
	mk("b")
	err = n.reserve("b", volMeta{Layer: "x", Size: 1 << 62})
	if err == nil || !strings.Contains(err.Error(), "cannot hold") {
		t.Fatalf("a volume past the pool: %v", err)
	}
	if _, err := n.readMeta("b"); err == nil {
		t.Fatal("a refused volume left its meta (it would count as reserved)")
	}
}
