// The direct link (docs/adr/0022-direct-exec-link.md): command frames over a TLS connection
// from Hangar straight to this agent, instead of through the kube-apiserver, the kubelet and
// containerd. Hangar asks for it on the exec channel ('L' with a fresh 32-byte token and a port
// range); the agent makes a key and a self-signed certificate that exist only in its memory,
// listens on the first free port of the range, and answers with the port and the certificate
// (which Hangar then trusts alone: nobody else holds the key). A connection must finish the TLS
// handshake and present the token within authTimeout, or it is closed having seen nothing.
// The listener lives as long as the exec channel: when that ends, the agent exits.
package main

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"sync"
	"time"
)

const (
	tokenBytes = 32
	// At most this many connections may be between accept and the token at once (others wait).
	maxPending = 4
)

// A connection that has not presented the token by then is closed (a variable for the tests).
var authTimeout = 5 * time.Second

type listenRequest struct {
	Token string `json:"token"`
	First int    `json:"first"`
	Count int    `json:"count"`
}

type listenReply struct {
	Port  int    `json:"port,omitempty"`
	Cert  string `json:"cert,omitempty"`
	Error string `json:"error,omitempty"`
}

var direct struct {
	mu        sync.Mutex
	listening bool
	links     map[*agent]struct{}
}

func (a *agent) listen(payload []byte) {
	reply := func(r listenReply) {
		b, _ := json.Marshal(r)
		a.send('L', 0, b)
	}
	port, cert, err := openListener(payload)
	if err != nil {
		reply(listenReply{Error: err.Error()})
		return
	}
	reply(listenReply{Port: port, Cert: cert})
}

func openListener(payload []byte) (int, string, error) {
	var req listenRequest
	if err := json.Unmarshal(payload, &req); err != nil {
		return 0, "", errors.New("bad listen request")
	}
	token, err := hex.DecodeString(req.Token)
	if err != nil || len(token) != tokenBytes {
		return 0, "", fmt.Errorf("the token must be %d bytes in hex", tokenBytes)
	}
	if req.First < 1 || req.Count < 1 || req.First+req.Count-1 > 65535 {
		return 0, "", errors.New("bad port range")
	}
	direct.mu.Lock()
	defer direct.mu.Unlock()
	if direct.listening {
		return 0, "", errors.New("already listening")
	}
	cfg, certPEM, err := selfSigned()
	if err != nil {
		return 0, "", err
	}
	var ln net.Listener
	port := req.First
	for ; port < req.First+req.Count; port++ {
		if ln, err = net.Listen("tcp", fmt.Sprintf(":%d", port)); err == nil {
			break
		}
	}
	if ln == nil {
		return 0, "", fmt.Errorf("no free port in %d-%d", req.First, req.First+req.Count-1)
	}
	direct.listening = true
	direct.links = map[*agent]struct{}{}
	go acceptLinks(tls.NewListener(ln, cfg), token)
	return port, certPEM, nil
}

// selfSigned makes a P-256 key and a certificate for it that only this process ever holds.
func selfSigned() (*tls.Config, string, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, "", err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return nil, "", err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "hangar-agent"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"hangar-agent"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, "", err
	}
	cfg := &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}},
		MinVersion:   tls.VersionTLS13,
	}
	return cfg, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), nil
}

func acceptLinks(ln net.Listener, token []byte) {
	pending := make(chan struct{}, maxPending)
	for {
		pending <- struct{}{}
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			ok := authenticate(c, token)
			<-pending
			if ok {
				serveLink(c)
			}
			c.Close()
		}()
	}
}

// authenticate completes the handshake and reads the token, all within authTimeout.
func authenticate(c net.Conn, token []byte) bool {
	c.SetDeadline(time.Now().Add(authTimeout))
	got := make([]byte, tokenBytes)
	if _, err := io.ReadFull(c, got); err != nil || subtle.ConstantTimeCompare(got, token) != 1 {
		return false
	}
	return c.SetDeadline(time.Time{}) == nil
}

// serveLink runs the frame protocol on one authenticated connection; its commands die with it.
func serveLink(c net.Conn) {
	a := &agent{out: make(chan frame, 256), procs: map[uint32]*proc{}, done: make(chan struct{})}
	direct.mu.Lock()
	direct.links[a] = struct{}{}
	direct.mu.Unlock()
	go func() {
		if a.writer(c) != nil {
			c.Close()
		}
	}()
	a.send('H', 0, []byte(version))
	a.reader(bufio.NewReaderSize(c, 64<<10))
	close(a.done)
	a.killAll()
	direct.mu.Lock()
	delete(direct.links, a)
	direct.mu.Unlock()
}

// killDirect kills the commands of every direct link (the exec channel ended: the agent exits).
func killDirect() {
	direct.mu.Lock()
	defer direct.mu.Unlock()
	for a := range direct.links {
		a.killAll()
	}
}
