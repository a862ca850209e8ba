package main

// The exec agent's delivery (ADR 0023): Hangar's image holds hangar-agent, and this init container,
// which already runs from that image in every sandbox pod, copies it into an emptyDir that the
// sandbox's container mounts read-only. Hangar then starts the agent with one exec instead of
// streaming megabytes of it through the apiserver into every pod.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// AgentEnv names hangar-agent's path in this image; AgentDirEnv the directory to copy it into.
const (
	AgentEnv    = "HANGAR_NETINIT_AGENT"
	AgentDirEnv = "HANGAR_NETINIT_AGENT_DIR"
)

// agentName is the file name the copy gets: the binary's hash, the same name Hangar computes from
// its own copy, so a Hangar of another version finds no file and installs its own.
func agentName(b []byte) string {
	sum := sha256.Sum256(b)
	return "hangar-agent-" + hex.EncodeToString(sum[:])[:16]
}

// installAgent copies src into dir under agentName, atomically (a half-written file never has the
// name), executable by every user and writable by none.
func installAgent(src, dir string) (string, error) {
	b, err := os.ReadFile(src)
	if err != nil {
		return "", fmt.Errorf("reading the agent: %w", err)
	}
	dst := filepath.Join(dir, agentName(b))
	tmp, err := os.CreateTemp(dir, ".agent-*")
	if err != nil {
		return "", fmt.Errorf("writing the agent: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return "", fmt.Errorf("writing the agent: %w", err)
	}
	if err := tmp.Chmod(0o555); err != nil {
		tmp.Close()
		return "", fmt.Errorf("writing the agent: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("writing the agent: %w", err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return "", fmt.Errorf("writing the agent: %w", err)
	}
	return dst, nil
}

// copyAgent runs installAgent when Hangar asked for it. A failure is reported, not fatal: Hangar
// then installs the agent through exec, as it does in pods without this init container.
func copyAgent() {
	src, dir := os.Getenv(AgentEnv), os.Getenv(AgentDirEnv)
	if src == "" || dir == "" {
		return
	}
	if dst, err := installAgent(src, dir); err != nil {
		fmt.Fprintln(os.Stderr, "hangar-netinit: the exec agent was not copied (Hangar installs it through exec instead):", err)
	} else {
		fmt.Println("hangar-netinit: exec agent at", dst)
	}
}
