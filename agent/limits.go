package main

// 'Q' (control channel only, docs/adr/0043-sized-pools.md): a sized pool's claim resized the pod in
// place; the agent answers once the pod's own cgroup shows the new limits, so no command of the
// sandbox runs before they hold. Payload JSON {"memory_bytes","cpu_quota_us","cpu_period_us"} (each
// optional); the answer 'Q' is {"waited_ms"} or {"error"}. cgroup v2 (memory.max, cpu.max) and v1
// (memory/memory.limit_in_bytes, cpu/cpu.cfs_quota_us, cpu/cpu.cfs_period_us) are both read.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

var cgroupRoot = "/sys/fs/cgroup"

const (
	limitsWait = 5 * time.Second
	limitsPoll = 2 * time.Millisecond
	pageSize   = 4096
)

type limitsWant struct {
	Memory *int64 `json:"memory_bytes"`
	Quota  *int64 `json:"cpu_quota_us"`
	Period *int64 `json:"cpu_period_us"`
}

type cgroupLimits struct {
	memory int64 // -1: none
	quota  int64 // -1: none
	period int64
}

func readInt(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

// readLimits reads the memory limit and CPU quota the cgroup at root enforces (v2 when memory.max is there).
func readLimits(root string) (cgroupLimits, error) {
	if b, err := os.ReadFile(filepath.Join(root, "memory.max")); err == nil {
		l := cgroupLimits{memory: -1, quota: -1, period: 100000}
		if s := strings.TrimSpace(string(b)); s != "max" {
			if l.memory, err = strconv.ParseInt(s, 10, 64); err != nil {
				return l, fmt.Errorf("memory.max: %v", err)
			}
		}
		c, err := os.ReadFile(filepath.Join(root, "cpu.max"))
		if err != nil {
			return l, err
		}
		f := strings.Fields(string(c))
		if len(f) != 2 {
			return l, fmt.Errorf("cpu.max: %q", string(c))
		}
		if f[0] != "max" {
			if l.quota, err = strconv.ParseInt(f[0], 10, 64); err != nil {
				return l, fmt.Errorf("cpu.max: %v", err)
			}
		}
		if l.period, err = strconv.ParseInt(f[1], 10, 64); err != nil {
			return l, fmt.Errorf("cpu.max: %v", err)
		}
		return l, nil
	}
	var l cgroupLimits
	var err error
	if l.memory, err = readInt(filepath.Join(root, "memory", "memory.limit_in_bytes")); err != nil {
		return l, err
	}
	if l.memory >= 1<<62 { // v1's "no limit" is the largest page-aligned value
		l.memory = -1
	}
	if l.quota, err = readInt(filepath.Join(root, "cpu", "cpu.cfs_quota_us")); err != nil {
		return l, err
	}
	if l.period, err = readInt(filepath.Join(root, "cpu", "cpu.cfs_period_us")); err != nil {
		return l, err
	}
	return l, nil
}

// limitsHold: the cgroup enforces what was asked (memory within one page: the kernel rounds it down).
func limitsHold(l cgroupLimits, w limitsWant) bool {
	if w.Memory != nil && (l.memory < 0 || l.memory > *w.Memory || *w.Memory-l.memory >= pageSize) {
		return false
	}
	if w.Quota != nil && l.quota != *w.Quota {
		return false
	}
	if w.Period != nil && l.period != *w.Period {
		return false
	}
	return true
}

func (a *agent) awaitLimits(id uint32, payload []byte) {
	reply := func(v any) {
		b, _ := json.Marshal(v)
		a.send('Q', id, b)
	}
	var w limitsWant
	if err := json.Unmarshal(payload, &w); err != nil {
		reply(map[string]string{"error": "an unreadable request: " + err.Error()})
		return
	}
	start := time.Now()
	for {
		l, err := readLimits(cgroupRoot)
		if err != nil {
			reply(map[string]string{"error": "reading the pod's cgroup: " + err.Error()})
			return
		}
		if limitsHold(l, w) {
			reply(map[string]int64{"waited_ms": time.Since(start).Milliseconds()})
			return
		}
		if time.Since(start) > limitsWait {
			reply(map[string]string{"error": fmt.Sprintf("after %s the pod's cgroup shows memory %d, cpu quota %d/%d", limitsWait, l.memory, l.quota, l.period)})
			return
		}
		time.Sleep(limitsPoll)
	}
}
