// Tests of the direct link (direct.go): only a connection that trusts the agent's own certificate
// and presents the token gets to run commands; anything else is closed having run nothing.
package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

func readFrame(t *testing.T, r io.Reader) (byte, uint32, []byte) {
	t.Helper()
	hdr := make([]byte, 9)
	if _, err := io.ReadFull(r, hdr); err != nil {
		t.Fatalf("reading a frame: %v", err)
	}
	p := make([]byte, binary.BigEndian.Uint32(hdr[5:]))
	if _, err := io.ReadFull(r, p); err != nil {
		t.Fatalf("reading a payload: %v", err)
	}
	return hdr[0], binary.BigEndian.Uint32(hdr[1:]), p
}

func TestDirectLinkNeedsTheTokenAndTheAgentsCertificate(t *testing.T) {
	authTimeout = 300 * time.Millisecond
	// A port taken by someone else is skipped: the agent listens on the next one of the range.
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	first := busy.Addr().(*net.TCPAddr).Port
	token := strings.Repeat("ab", tokenBytes)

	// Only the exec channel may open the listener.
	other := newAgent()
	other.handle('L', 0, []byte(fmt.Sprintf(`{"token":%q,"first":%d,"count":4}`, token, first)))
	select {
	case f := <-other.out:
		t.Fatalf("a direct link's 'L' was answered: %q", f.payload)
	case <-time.After(100 * time.Millisecond):
	}

	a := newAgent()
	a.control = true
	a.handle('L', 0, []byte(`{"token":"00","first":1,"count":1}`))
	var bad listenReply
	json.Unmarshal((<-a.out).payload, &bad)
	if !strings.Contains(bad.Error, "token") {
		t.Fatalf("a short token: %+v", bad)
	}
	a.handle('L', 0, []byte(fmt.Sprintf(`{"token":%q,"first":%d,"count":4}`, token, first)))
	f := <-a.out
	var rep listenReply
	if err := json.Unmarshal(f.payload, &rep); err != nil || f.kind != 'L' || rep.Error != "" {
		t.Fatalf("listen reply %c %q", f.kind, f.payload)
	}
	if rep.Port <= first || rep.Port >= first+4 {
		t.Fatalf("port %d, want the first free one after %d", rep.Port, first)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(rep.Cert)) {
		t.Fatalf("the reply's certificate does not parse: %q", rep.Cert)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", rep.Port)
	dial := func(cfg *tls.Config) (*tls.Conn, error) {
		return tls.DialWithDialer(&net.Dialer{Timeout: 2 * time.Second}, "tcp", addr, cfg)
	}
	trusted := &tls.Config{RootCAs: pool, ServerName: "hangar-agent"}

	// A client that trusts the system roots refuses the agent's certificate (nobody else vouches for it).
	if c, err := dial(&tls.Config{ServerName: "hangar-agent"}); err == nil {
		c.Close()
		t.Fatal("the agent's self-signed certificate verified against the system roots")
	}
	// The wrong token: closed, nothing runs, no hello.
	wrong, _ := hex.DecodeString(strings.Repeat("cd", tokenBytes))
	c, err := dial(trusted)
	if err != nil {
		t.Fatal(err)
	}
	c.Write(wrong)
	c.Write(encode('S', 1, start("/bin/sh", "-c", "echo ran")))
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if n, err := c.Read(make([]byte, 64)); err == nil {
		t.Fatalf("a wrong token got %d bytes back", n)
	}
	c.Close()
	// Silence: closed after authTimeout.
	c, err = dial(trusted)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(3 * time.Second))
	t0 := time.Now()
	if _, err := c.Read(make([]byte, 1)); err == nil || time.Since(t0) > 2*time.Second {
		t.Fatalf("a silent connection stayed open (%v after %s)", err, time.Since(t0))
	}
	c.Close()

	// The token: hello, then commands with their output and exit codes.
	good, _ := hex.DecodeString(token)
	c, err = dial(trusted)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(good)
	r := bufio.NewReader(c)
	if k, _, p := readFrame(t, r); k != 'H' || string(p) != version {
		t.Fatalf("hello: %c %q", k, p)
	}
	c.Write(encode('S', 7, start("/bin/sh", "-c", "echo direct; exit 4")))
	var out string
	for {
		k, id, p := readFrame(t, r)
		if id != 7 {
			continue
		}
		if k == 'O' {
			out += string(p)
		}
		if k == 'X' {
			if code := int32(binary.BigEndian.Uint32(p)); code != 4 || out != "direct\n" {
				t.Fatalf("exit %d output %q", code, out)
			}
			break
		}
	}
	// A second listen on the same agent is refused (one listener per agent).
	a.handle('L', 0, []byte(fmt.Sprintf(`{"token":%q,"first":%d,"count":4}`, token, first)))
	var again listenReply
	json.Unmarshal((<-a.out).payload, &again)
	if !strings.Contains(again.Error, "already") {
		t.Fatalf("second listen: %+v", again)
	}
}

func TestADirectLinksCommandsDieWithIt(t *testing.T) {
	// serveLink over an in-memory pipe: closing Hangar's end kills what the link started.
	h, agentEnd := net.Pipe()
	direct.mu.Lock()
	if direct.links == nil {
		direct.links = map[*agent]struct{}{}
	}
	direct.mu.Unlock()
	done := make(chan struct{})
	go func() { serveLink(agentEnd); close(done) }()
	r := bufio.NewReader(h)
	if k, _, _ := readFrame(t, r); k != 'H' {
		t.Fatalf("no hello")
	}
	h.Write(encode('S', 1, start("/bin/sh", "-c", "echo $$; exec sleep 30")))
	_, _, p := readFrame(t, r)
	pid := strings.TrimSpace(string(p))
	h.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("serveLink did not return when its connection closed")
	}
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("pid %s outlived its link", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive: the process exists and is not a zombie.
func alive(pid string) bool {
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	return err == nil && !strings.Contains(string(stat), ") Z ")
}
