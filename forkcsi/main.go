// hangar-forkcsi: a CSI node plugin (inline ephemeral volumes only) that makes a restored
// snapshot volume a copy-on-write clone. The kubelet asks it to publish a volume whose attributes
// name a snapshot's archive; it unpacks that archive once per node into an XFS pool (as a layer)
// and gives each volume a reflink clone of the layer under its own project quota, bind-mounted at
// the kubelet's target path. A fork of N sandboxes from one snapshot is one unpack and N clones.
// ADR 0029 records why (overlayfs cannot be idmapped for user-namespaced pods on this kernel).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc"
	registerapi "k8s.io/kubelet/pkg/apis/pluginregistration/v1"
)

type config struct {
	driver, kubeletDir, pool, snapshots, namespace, nodeID string
	defaultSize                                            uint64
}

type identity struct {
	csi.UnimplementedIdentityServer
	name string
}

func (i identity) GetPluginInfo(context.Context, *csi.GetPluginInfoRequest) (*csi.GetPluginInfoResponse, error) {
	return &csi.GetPluginInfoResponse{Name: i.name, VendorVersion: "1"}, nil
}
func (identity) GetPluginCapabilities(context.Context, *csi.GetPluginCapabilitiesRequest) (*csi.GetPluginCapabilitiesResponse, error) {
	return &csi.GetPluginCapabilitiesResponse{}, nil
}
func (identity) Probe(context.Context, *csi.ProbeRequest) (*csi.ProbeResponse, error) {
	return &csi.ProbeResponse{}, nil
}

type registration struct {
	name, endpoint string
}

func (r registration) GetInfo(context.Context, *registerapi.InfoRequest) (*registerapi.PluginInfo, error) {
	return &registerapi.PluginInfo{Type: registerapi.CSIPlugin, Name: r.name, Endpoint: r.endpoint, SupportedVersions: []string{"1.0.0"}}, nil
}
func (r registration) NotifyRegistrationStatus(_ context.Context, s *registerapi.RegistrationStatus) (*registerapi.RegistrationStatusResponse, error) {
	if s.PluginRegistered {
		log.Printf("registered with the kubelet as %s", r.name)
	} else {
		log.Printf("the kubelet refused the registration: %s", s.Error)
	}
	return &registerapi.RegistrationStatusResponse{}, nil
}

func listen(path string) (net.Listener, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, err
	}
	_ = os.Remove(path)
	return net.Listen("unix", path)
}

// selfTest: the pool must clone (reflink) and mkfs.ext4 must run, or no volume could be served.
func selfTest(pool string) error {
	dir, err := os.MkdirTemp(pool, ".selftest-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	tree := filepath.Join(dir, "tree")
	if err := os.Mkdir(tree, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tree, "a"), []byte("hangar"), 0o600); err != nil {
		return err
	}
	if err := makeImage(filepath.Join(dir, "a.ext4"), tree, 8<<20); err != nil {
		return err
	}
	return cloneFile(filepath.Join(dir, "a.ext4"), filepath.Join(dir, "b.ext4"))
}

func main() {
	var c config
	flag.StringVar(&c.driver, "driver-name", "fork.csi.hangar.dev", "the CSI driver's name (the CSIDriver object's)")
	flag.StringVar(&c.kubeletDir, "kubelet-dir", "/var/lib/kubelet", "the kubelet's root directory")
	flag.StringVar(&c.pool, "pool", "/var/lib/hangar-fork", "a directory on a file system with reflinks (XFS, btrfs): layers and volume images")
	flag.StringVar(&c.snapshots, "snapshots", "/var/lib/hangar-snapshots", "Hangar's snapshot directory (HANGAR_SNAPSHOT_DIR), at the same path Hangar sees it")
	flag.StringVar(&c.namespace, "namespace", "", "the only namespace whose pods may mount these volumes (Hangar's sandbox namespace); required")
	flag.StringVar(&c.nodeID, "node-id", "", "this node's name (default: the host name)")
	flag.Uint64Var(&c.defaultSize, "default-size", 10<<30, "bytes a volume without a size may hold")
	flag.Parse()
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	if c.namespace == "" {
		log.Fatal("--namespace is required: the sandbox namespace is the only one whose pods may mount snapshot clones")
	}
	if c.nodeID == "" {
		c.nodeID, _ = os.Hostname()
	}
	for _, p := range []*string{&c.pool, &c.snapshots, &c.kubeletDir} {
		abs, err := filepath.Abs(*p)
		if err != nil {
			log.Fatal(err)
		}
		*p = abs
	}
	if err := selfTest(c.pool); err != nil {
		log.Fatalf("the pool %s cannot serve clones: %v", c.pool, err)
	}
	n, err := newNode(c)
	if err != nil {
		log.Fatal(err)
	}
	endpoint := filepath.Join(c.kubeletDir, "plugins", c.driver, "csi.sock")
	csiL, err := listen(endpoint)
	if err != nil {
		log.Fatal(err)
	}
	regL, err := listen(filepath.Join(c.kubeletDir, "plugins_registry", c.driver+"-reg.sock"))
	if err != nil {
		log.Fatal(err)
	}
	csiS := grpc.NewServer()
	csi.RegisterIdentityServer(csiS, identity{name: c.driver})
	csi.RegisterNodeServer(csiS, n)
	regS := grpc.NewServer()
	registerapi.RegisterRegistrationServer(regS, registration{name: c.driver, endpoint: endpoint})
	serve := func(s *grpc.Server, l net.Listener) {
		if err := s.Serve(l); err != nil {
			log.Fatal(err)
		}
	}
	go func() {
		for range time.Tick(30 * time.Second) {
			n.sweep()
		}
	}()
	go serve(csiS, csiL)
	go serve(regS, regL)
	fmt.Fprintf(os.Stderr, "hangar-forkcsi %s: pool %s, snapshots %s, namespace %s, node %s\n", c.driver, c.pool, c.snapshots, c.namespace, c.nodeID)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	regS.Stop()
	csiS.Stop()
	_ = os.Remove(filepath.Join(c.kubeletDir, "plugins_registry", c.driver+"-reg.sock"))
}
