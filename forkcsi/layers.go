package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Layers: one ext4 image per (snapshot, size) on this node, the source of every clone of it; and the
// pool's accounting, so that the volumes served never hold more than the pool.

// reserve writes the volume's meta (its size counts from here) if the pool can hold it: the live
// volumes' sizes and the layers' blocks never exceed the pool, so no sandbox can fill the pool under
// another's volume (a clone shares its layer's blocks and can add at most its own size).
func (n *node) reserve(vol string, m volMeta) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	var fs unix.Statfs_t
	if err := unix.Statfs(n.cfg.pool, &fs); err != nil {
		return err
	}
	total := fs.Blocks * uint64(fs.Bsize)
	var used uint64
	vols, _ := os.ReadDir(n.volumesDir())
	for _, e := range vols {
		if o, err := n.readMeta(e.Name()); err == nil && e.Name() != vol {
			used += o.Size
		}
	}
	layers, _ := os.ReadDir(n.layersDir())
	for _, e := range layers {
		var st unix.Stat_t
		if unix.Stat(filepath.Join(n.layersDir(), e.Name(), "image.ext4"), &st) == nil {
			used += uint64(st.Blocks) * 512
		}
	}
	if used+m.Size > total {
		used -= n.evictUnused(used + m.Size - total)
	}
	if used+m.Size > total {
		return status.Errorf(codes.ResourceExhausted, "this node's fork pool (%d bytes) cannot hold another %d-byte volume: %d bytes are held by volumes and layers", total, m.Size, used)
	}
	b, _ := json.Marshal(m)
	return os.WriteFile(filepath.Join(n.volumesDir(), vol, "meta.json"), b, 0o600)
}

// evictUnused drops layers no volume uses, oldest first, until want bytes are freed (n.mu held);
// it returns what it freed. A layer being unpacked or cloned (its lock held) is skipped.
func (n *node) evictUnused(want uint64) uint64 {
	users := n.layerUsers()
	type cand struct {
		name  string
		at    time.Time
		bytes uint64
	}
	var cs []cand
	layers, _ := os.ReadDir(n.layersDir())
	for _, e := range layers {
		var st unix.Stat_t
		info, err := os.Stat(filepath.Join(n.layersDir(), e.Name(), "ready"))
		if users[e.Name()] > 0 || err != nil || unix.Stat(filepath.Join(n.layersDir(), e.Name(), "image.ext4"), &st) != nil {
			continue
		}
		cs = append(cs, cand{e.Name(), info.ModTime(), uint64(st.Blocks) * 512})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].at.Before(cs[j].at) })
	var freed uint64
	for _, c := range cs {
		if freed >= want {
			break
		}
		ll, ok := n.locks[c.name]
		if ok && !ll.TryLock() {
			continue
		}
		n.dropLayer(c.name, "the pool needs its room and no volume uses it")
		freed += c.bytes
		if ok {
			ll.Unlock()
		}
	}
	return freed
}

// ensureLayer unpacks the archive into layers/<layer>/tree once (the caller holds the layer's lock).
func (n *node) ensureLayer(layer, rel string, size uint64) error {
	dir := filepath.Join(n.layersDir(), layer)
	if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
		return nil
	}
	_ = os.RemoveAll(dir)
	if err := os.MkdirAll(filepath.Join(dir, "mnt"), 0o700); err != nil {
		return err
	}
	snaps, err := os.OpenRoot(n.cfg.snapshots)
	if err != nil {
		return err
	}
	defer snaps.Close()
	f, err := snaps.Open(rel)
	if err != nil {
		return status.Errorf(codes.NotFound, "the snapshot's archive: %v", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return status.Errorf(codes.InvalidArgument, "the snapshot's archive is not a file")
	}
	t0 := time.Now()
	// The archive is unpacked straight into the layer's file system, mounted here a moment.
	image, mnt := filepath.Join(dir, "image.ext4"), filepath.Join(dir, "mnt")
	fail := func(err error) error {
		if mounted(mnt) {
			_ = unmount(mnt)
		}
		_ = os.RemoveAll(dir)
		return err
	}
	if err := makeImage(image, "", size); err != nil {
		return fail(err)
	}
	if err := mountImage(image, mnt, false); err != nil {
		return fail(err)
	}
	_ = os.Remove(filepath.Join(mnt, "lost+found"))
	if err := unpack(f, mnt, st.Size()); err != nil {
		if errors.Is(err, syscall.ENOSPC) {
			return fail(status.Errorf(codes.ResourceExhausted, "the snapshot does not fit the volume's %d bytes: %v", size, err))
		}
		return fail(status.Errorf(codes.InvalidArgument, "the snapshot's archive cannot be a volume: %v", err))
	}
	if err := unix.Unmount(mnt, 0); err != nil {
		return fail(fmt.Errorf("unmount the layer: %w", err))
	}
	if err := os.Remove(mnt); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "archive"), []byte(rel), 0o600); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ready"), nil, 0o600); err != nil {
		return fail(err)
	}
	log.Printf("layer %s: unpacked %d bytes in %s", layer[:12], st.Size(), time.Since(t0).Round(time.Millisecond))
	return nil
}

// layerUsers counts the volumes whose meta names each layer.
func (n *node) layerUsers() map[string]int {
	users := map[string]int{}
	vols, _ := os.ReadDir(n.volumesDir())
	for _, e := range vols {
		if o, err := n.readMeta(e.Name()); err == nil {
			users[o.Layer]++
		}
	}
	return users
}

// archiveGone: the layer's archive is no longer in the store (its snapshot was deleted), so no
// volume will ask for the layer again. A layer is kept while its snapshot lives: the next restore
// of it on this node is a clone, not an unpack.
func (n *node) archiveGone(layer string) bool {
	rel, err := os.ReadFile(filepath.Join(n.layersDir(), layer, "archive"))
	if err != nil {
		return true
	}
	snaps, err := os.OpenRoot(n.cfg.snapshots)
	if err != nil {
		return false
	}
	defer snaps.Close()
	_, err = snaps.Stat(string(rel))
	return errors.Is(err, os.ErrNotExist)
}

func (n *node) dropLayer(layer, why string) {
	if err := os.RemoveAll(filepath.Join(n.layersDir(), layer)); err != nil {
		log.Printf("drop layer %s: %v", layer[:12], err)
		return
	}
	log.Printf("layer %s dropped: %s", layer[:12], why)
}

// sweep drops the unused layers of deleted snapshots (a snapshot deleted while none of its
// volumes ran leaves no unpublish to notice it).
func (n *node) sweep() {
	users := n.layerUsers()
	layers, _ := os.ReadDir(n.layersDir())
	for _, e := range layers {
		l := e.Name()
		if users[l] > 0 || !layerName.MatchString(l) {
			continue
		}
		ll := n.lockFor(n.locks, l)
		if !ll.TryLock() {
			continue
		}
		if n.layerUsers()[l] == 0 && n.archiveGone(l) {
			if _, err := os.Stat(filepath.Join(n.layersDir(), l, "ready")); err == nil {
				n.dropLayer(l, "its snapshot is deleted")
			}
		}
		ll.Unlock()
	}
}
