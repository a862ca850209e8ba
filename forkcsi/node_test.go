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

func TestALayerStaysWhileItsSnapshotLivesAndGoesAfter(t *testing.T) {
	snaps := t.TempDir()
	n, err := newNode(config{pool: t.TempDir(), snapshots: snaps})
	if err != nil {
		t.Fatal(err)
	}
	layer := strings.Repeat("a", 64)
	dir := filepath.Join(n.layersDir(), layer)
	for name, body := range map[string]string{"archive": "t/s.tar", "ready": "", "image.ext4": "x"} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(snaps, "t"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(snaps, "t/s.tar"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	n.sweep()
	if _, err := os.Stat(dir); err != nil {
		t.Fatal("a layer whose snapshot lives was dropped")
	}
	// In use: kept even when its snapshot is gone.
	if err := os.MkdirAll(filepath.Join(n.volumesDir(), "v"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := n.reserve("v", volMeta{Layer: layer, Size: 1 << 20}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(snaps, "t/s.tar")); err != nil {
		t.Fatal(err)
	}
	n.sweep()
	if _, err := os.Stat(dir); err != nil {
		t.Fatal("a layer a volume uses was dropped")
	}
	m, _ := n.readMeta("v")
	n.removeVolume("v", m)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatal("the last volume of a deleted snapshot's layer ended and the layer stayed")
	}
}
