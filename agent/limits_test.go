package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func v1Root(t *testing.T, mem, quota string) string {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "memory", "memory.limit_in_bytes"), mem+"\n")
	writeFile(t, filepath.Join(root, "cpu", "cpu.cfs_quota_us"), quota+"\n")
	writeFile(t, filepath.Join(root, "cpu", "cpu.cfs_period_us"), "100000\n")
	return root
}

func i64(v int64) *int64 { return &v }

func TestReadLimitsV1AndV2(t *testing.T) {
	l, err := readLimits(v1Root(t, "268435456", "50000"))
	if err != nil || l != (cgroupLimits{memory: 268435456, quota: 50000, period: 100000}) {
		t.Fatalf("v1: %+v %v", l, err)
	}
	l, _ = readLimits(v1Root(t, "9223372036854771712", "-1"))
	if l.memory != -1 || l.quota != -1 {
		t.Fatalf("v1 without limits: %+v", l)
	}
	v2 := t.TempDir()
	writeFile(t, filepath.Join(v2, "memory.max"), "max\n")
	writeFile(t, filepath.Join(v2, "cpu.max"), "200000 100000\n")
	if l, err = readLimits(v2); err != nil || l != (cgroupLimits{memory: -1, quota: 200000, period: 100000}) {
		t.Fatalf("v2: %+v %v", l, err)
	}
	writeFile(t, filepath.Join(v2, "cpu.max"), "garbage")
	if _, err = readLimits(v2); err == nil {
		t.Fatal("an unreadable cpu.max was taken")
	}
	if _, err = readLimits(t.TempDir()); err == nil {
		t.Fatal("no cgroup files was taken for limits")
	}
}

func TestLimitsHold(t *testing.T) {
	l := cgroupLimits{memory: 1000001 &^ (pageSize - 1), quota: 50000, period: 100000}
	cases := []struct {
		want limitsWant
		ok   bool
	}{
		{limitsWant{}, true},
		{limitsWant{Memory: i64(1000001)}, true}, // rounded down to a page
		{limitsWant{Memory: i64(1000001 + pageSize)}, false},
		{limitsWant{Memory: i64(999000)}, false}, // the cgroup allows more than asked
		{limitsWant{Quota: i64(50000), Period: i64(100000)}, true},
		{limitsWant{Quota: i64(100000), Period: i64(100000)}, false},
		{limitsWant{Memory: i64(1000001), Quota: i64(50000)}, true},
	}
	for i, c := range cases {
		if got := limitsHold(l, c.want); got != c.ok {
			t.Errorf("case %d: %v, want %v", i, got, c.ok)
		}
	}
	if limitsHold(cgroupLimits{memory: -1, quota: -1}, limitsWant{Memory: i64(1 << 20)}) {
		t.Error("no memory limit taken as one")
	}
}

func askLimits(t *testing.T, a *agent, payload string) map[string]any {
	t.Helper()
	a.handle('Q', 7, []byte(payload))
	select {
	case f := <-a.out:
		var ans map[string]any
		if f.kind != 'Q' || f.id != 7 || json.Unmarshal(f.payload, &ans) != nil {
			t.Fatalf("answer: %c %d %s", f.kind, f.id, f.payload)
		}
		return ans
	case <-time.After(limitsWait + 5*time.Second):
		t.Fatal("no answer")
	}
	return nil
}

// The agent answers once the cgroup shows the limits (the kubelet applying a resize), not before.
func TestAwaitLimitsWaitsForTheCgroup(t *testing.T) {
	root := v1Root(t, "67108864", "200000")
	cgroupRoot = root
	t.Cleanup(func() { cgroupRoot = "/sys/fs/cgroup" })
	a := newAgent()
	a.control = true
	go func() {
		time.Sleep(100 * time.Millisecond)
		writeFile(t, filepath.Join(root, "memory", "memory.limit_in_bytes"), "268435456\n")
		writeFile(t, filepath.Join(root, "cpu", "cpu.cfs_quota_us"), "50000\n")
	}()
	ans := askLimits(t, a, `{"memory_bytes":268435456,"cpu_quota_us":50000,"cpu_period_us":100000}`)
	if w, ok := ans["waited_ms"].(float64); !ok || w < 90 {
		t.Fatalf("answered before the cgroup changed: %v", ans)
	}
	// Never applied: an error naming what the cgroup shows, after the bound.
	ans = askLimits(t, a, `{"memory_bytes":536870912}`)
	if e, _ := ans["error"].(string); e == "" {
		t.Fatalf("limits never applied, answered %v", ans)
	}
	// Not on a direct connection: only the control channel takes Q.
	d := newAgent()
	d.handle('Q', 1, []byte(`{}`))
	select {
	case f := <-d.out:
		t.Fatalf("a direct connection answered Q: %c", f.kind)
	case <-time.After(100 * time.Millisecond):
	}
}
