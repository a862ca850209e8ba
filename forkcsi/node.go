package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// node serves CSI's Node service for inline ephemeral volumes: each volume is a copy-on-write
// clone of a snapshot's layer, unpacked once per node into the pool.
type node struct {
	csi.UnimplementedNodeServer
	cfg config

	mu    sync.Mutex
	locks map[string]*sync.Mutex // per layer
	vols  map[string]*sync.Mutex // per volume id
}

type volMeta struct {
	Layer  string `json:"layer"`
	Target string `json:"target"`
	Size   uint64 `json:"size"`
}

var (
	safeName  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)
	layerName = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

const (
	attrArchive   = "hangar.dev/archive"
	attrLayer     = "hangar.dev/layer"
	attrSize      = "hangar.dev/size"
	attrNamespace = "csi.storage.k8s.io/pod.namespace"
	attrEphemeral = "csi.storage.k8s.io/ephemeral"
)

func newNode(cfg config) (*node, error) {
	n := &node{cfg: cfg, locks: map[string]*sync.Mutex{}, vols: map[string]*sync.Mutex{}}
	for _, d := range []string{n.layersDir(), n.volumesDir()} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	// Half-made layers (the plugin ended mid-unpack) are not layers.
	entries, _ := os.ReadDir(n.layersDir())
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(n.layersDir(), e.Name(), "ready")); err != nil {
			if mnt := filepath.Join(n.layersDir(), e.Name(), "mnt"); mounted(mnt) {
				_ = unmount(mnt)
			}
			_ = os.RemoveAll(filepath.Join(n.layersDir(), e.Name()))
		}
	}
	// A volume directory without a meta is a publish refused or cut short before it reserved.
	vols, _ := os.ReadDir(n.volumesDir())
	for _, e := range vols {
		if _, err := n.readMeta(e.Name()); err != nil {
			_ = os.RemoveAll(filepath.Join(n.volumesDir(), e.Name()))
		}
	}
	return n, nil
}

func (n *node) layersDir() string  { return filepath.Join(n.cfg.pool, "layers") }
func (n *node) volumesDir() string { return filepath.Join(n.cfg.pool, "volumes") }

func (n *node) lockFor(m map[string]*sync.Mutex, k string) *sync.Mutex {
	n.mu.Lock()
	defer n.mu.Unlock()
	l, ok := m[k]
	if !ok {
		l = &sync.Mutex{}
		m[k] = l
	}
	return l
}

func (n *node) readMeta(vol string) (volMeta, error) {
	var m volMeta
	b, err := os.ReadFile(filepath.Join(n.volumesDir(), vol, "meta.json"))
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	return m, err
}

func mounted(target string) bool {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 64*1024), 1024*1024)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) > 4 && unescapeMount(fields[4]) == target {
			return true
		}
	}
	return false
}

func unescapeMount(s string) string {
	r := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`)
	return r.Replace(s)
}

func (n *node) NodeGetCapabilities(context.Context, *csi.NodeGetCapabilitiesRequest) (*csi.NodeGetCapabilitiesResponse, error) {
	return &csi.NodeGetCapabilitiesResponse{}, nil
}

func (n *node) NodeGetInfo(context.Context, *csi.NodeGetInfoRequest) (*csi.NodeGetInfoResponse, error) {
	return &csi.NodeGetInfoResponse{NodeId: n.cfg.nodeID}, nil
}

// NodePublishVolume clones the layer the volume names onto target_path (a bind mount, nosuid,
// nodev). Refused: a pod outside the sandbox namespace, a volume that is not inline ephemeral, an
// archive outside the snapshot directory.
func (n *node) NodePublishVolume(ctx context.Context, req *csi.NodePublishVolumeRequest) (*csi.NodePublishVolumeResponse, error) {
	vc := req.GetVolumeContext()
	if n.cfg.namespace != "" && vc[attrNamespace] != n.cfg.namespace {
		return nil, status.Errorf(codes.PermissionDenied, "this driver serves pods of namespace %s only (the pod is in %q)", n.cfg.namespace, vc[attrNamespace])
	}
	if vc[attrEphemeral] != "true" {
		return nil, status.Error(codes.InvalidArgument, "only inline ephemeral volumes are served")
	}
	vol, target := req.GetVolumeId(), req.GetTargetPath()
	if !safeName.MatchString(vol) || !filepath.IsAbs(target) {
		return nil, status.Errorf(codes.InvalidArgument, "volume id %q / target %q", vol, target)
	}
	archive := filepath.Clean(vc[attrArchive])
	rel, err := filepath.Rel(n.cfg.snapshots, archive)
	if err != nil || !filepath.IsAbs(vc[attrArchive]) || !filepath.IsLocal(rel) || !strings.HasSuffix(rel, ".tar") {
		return nil, status.Errorf(codes.InvalidArgument, "%s: %q is not an archive under %s", attrArchive, vc[attrArchive], n.cfg.snapshots)
	}
	if !layerName.MatchString(vc[attrLayer]) {
		return nil, status.Errorf(codes.InvalidArgument, "%s: 64 hex digits", attrLayer)
	}
	size := n.cfg.defaultSize
	if s := vc[attrSize]; s != "" {
		if size, err = strconv.ParseUint(s, 10, 64); err != nil || size < 1<<20 {
			return nil, status.Errorf(codes.InvalidArgument, "%s: %q: bytes, at least 1Mi", attrSize, s)
		}
	}
	// One layer per snapshot, archive and size: forks of one snapshot at one size share it.
	sum := sha256.Sum256([]byte(vc[attrLayer] + "\x00" + archive + "\x00" + strconv.FormatUint(size, 10)))
	layer := hex.EncodeToString(sum[:])

	vl := n.lockFor(n.vols, vol)
	vl.Lock()
	defer vl.Unlock()
	if m, err := n.readMeta(vol); err == nil {
		if m.Target == target && mounted(target) {
			return &csi.NodePublishVolumeResponse{}, nil
		}
		n.removeVolume(vol, m) // a publish cut short: start again
	}
	t0 := time.Now()
	if err := n.publish(vol, target, layer, rel, size, req.GetReadonly()); err != nil {
		log.Printf("publish %s (layer %s): %v", vol, layer[:12], err)
		if m, merr := n.readMeta(vol); merr == nil {
			n.removeVolume(vol, m)
		} else {
			_ = os.RemoveAll(filepath.Join(n.volumesDir(), vol)) // refused before its meta was written
		}
		var st interface{ GRPCStatus() *status.Status }
		if errors.As(err, &st) {
			return nil, err
		}
		return nil, status.Error(codes.Internal, err.Error())
	}
	log.Printf("published %s at %s from layer %s in %s", vol, target, layer[:12], time.Since(t0).Round(time.Millisecond))
	return &csi.NodePublishVolumeResponse{}, nil
}

func (n *node) publish(vol, target, layer, rel string, size uint64, readonly bool) error {
	dir := filepath.Join(n.volumesDir(), vol)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	m := volMeta{Layer: layer, Target: target, Size: size}
	if err := n.reserve(vol, m); err != nil {
		return err
	}
	ll := n.lockFor(n.locks, layer)
	ll.Lock()
	err := n.ensureLayer(layer, rel, size)
	ll.Unlock()
	if err != nil {
		return err
	}
	image := filepath.Join(dir, "image.ext4")
	if err := cloneFile(filepath.Join(n.layersDir(), layer, "image.ext4"), image); err != nil {
		return err
	}
	if err := os.MkdirAll(target, 0o750); err != nil {
		return err
	}
	return mountImage(image, target, readonly)
}

// removeVolume deletes a volume's clone, frees its project and drops its layer when no volume uses it.
func (n *node) removeVolume(vol string, m volMeta) {
	dir := filepath.Join(n.volumesDir(), vol)
	if err := os.RemoveAll(dir); err != nil {
		log.Printf("remove %s: %v", vol, err)
	}
	if !layerName.MatchString(m.Layer) {
		return
	}
	ll := n.lockFor(n.locks, m.Layer)
	ll.Lock()
	defer ll.Unlock()
	if n.layerUsers()[m.Layer] == 0 && n.archiveGone(m.Layer) {
		n.dropLayer(m.Layer, "its snapshot is deleted and no volume uses it")
	}
}

func (n *node) NodeUnpublishVolume(ctx context.Context, req *csi.NodeUnpublishVolumeRequest) (*csi.NodeUnpublishVolumeResponse, error) {
	vol, target := req.GetVolumeId(), req.GetTargetPath()
	if !safeName.MatchString(vol) || !filepath.IsAbs(target) {
		return nil, status.Errorf(codes.InvalidArgument, "volume id %q / target %q", vol, target)
	}
	vl := n.lockFor(n.vols, vol)
	vl.Lock()
	defer vl.Unlock()
	if mounted(target) {
		if err := unmount(target); err != nil {
			return nil, status.Errorf(codes.Internal, "unmount %s: %v", target, err)
		}
	}
	if err := os.Remove(target); err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Printf("remove %s: %v", target, err)
	}
	if m, err := n.readMeta(vol); err == nil {
		n.removeVolume(vol, m)
		log.Printf("unpublished %s", vol)
	}
	return &csi.NodeUnpublishVolumeResponse{}, nil
}
