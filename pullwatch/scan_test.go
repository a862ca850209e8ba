package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func hex(c byte) string { return strings.Repeat(string(c), 64) }

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A content store as containerd leaves it mid-pull: a manifest of three layers, one whole, one
// downloading (an ingest), one not started; and an older image's manifest with no layer coming in.
func TestScanReportsThePullInProgress(t *testing.T) {
	c := t.TempDir()
	m := map[string]any{
		"schemaVersion": 2,
		"config":        map[string]any{"digest": "sha256:" + hex('c'), "size": 10},
		"layers": []map[string]any{
			{"digest": "sha256:" + hex('a'), "size": 1000},
			{"digest": "sha256:" + hex('b'), "size": 3000},
			{"digest": "sha256:" + hex('d'), "size": 500},
		},
	}
	mb, _ := json.Marshal(m)
	write(t, filepath.Join(c, "blobs/sha256", hex('1')), mb)
	write(t, filepath.Join(c, "blobs/sha256", hex('a')), make([]byte, 1000))
	write(t, filepath.Join(c, "ingest/x1/ref"), []byte("default/1/layer-sha256:"+hex('b')))
	write(t, filepath.Join(c, "ingest/x1/total"), []byte("3000"))
	write(t, filepath.Join(c, "ingest/x1/data"), make([]byte, 1200))
	old, _ := json.Marshal(map[string]any{"config": map[string]any{"digest": "sha256:" + hex('e'), "size": 1}, "layers": []map[string]any{{"digest": "sha256:" + hex('f'), "size": 7}}})
	write(t, filepath.Join(c, "blobs/sha256", hex('2')), old)
	write(t, filepath.Join(c, "blobs/sha256", hex('3')), []byte("not json"))

	pulls, err := Scan(c, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	want := Pull{Manifest: "sha256:" + hex('1'), LayersDone: 1, LayersTotal: 3, BytesDone: 2200, BytesTotal: 4500}
	if len(pulls) != 1 || pulls[0] != want {
		t.Fatalf("got %+v, want [%+v]", pulls, want)
	}
}

func TestScanWithNothingComingInReportsNothing(t *testing.T) {
	c := t.TempDir()
	pulls, err := Scan(c, time.Now())
	if err != nil || len(pulls) != 0 {
		t.Fatalf("got %v %v", pulls, err)
	}
	write(t, filepath.Join(c, "ingest/x/ref"), []byte("garbage"))
	pulls, err = Scan(c, time.Now())
	if err != nil || len(pulls) != 0 {
		t.Fatalf("got %v %v", pulls, err)
	}
}

func TestScanIgnoresOldManifests(t *testing.T) {
	c := t.TempDir()
	mb, _ := json.Marshal(map[string]any{"config": map[string]any{"digest": "sha256:" + hex('c'), "size": 1}, "layers": []map[string]any{{"digest": "sha256:" + hex('b'), "size": 9}}})
	p := filepath.Join(c, "blobs/sha256", hex('1'))
	write(t, p, mb)
	past := time.Now().Add(-3 * time.Hour)
	_ = os.Chtimes(p, past, past)
	write(t, filepath.Join(c, "ingest/x/ref"), []byte("layer-sha256:"+hex('b')))
	write(t, filepath.Join(c, "ingest/x/data"), []byte("abc"))
	pulls, _ := Scan(c, time.Now())
	if len(pulls) != 0 {
		t.Fatalf("an old manifest was reported: %+v", pulls)
	}
}
