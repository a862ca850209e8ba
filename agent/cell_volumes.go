package main

// Scratch volumes given to a cell at claim (docs/adr/0042-hostname-grants-warm.md, "Scratch volumes"):
// the sandbox's own, which the pool pod was not made with. A sized one is a tmpfs of exactly that
// size (writes past it fail with ENOSPC; it is memory of the pod); one without a size is a directory
// of the cell's own directory (on the pod's hangar-cell volume). Each mount binds the volume (or a
// subPath of it) at its path in the cell's root, read-only where asked. They live in the cell's
// mount namespace and directory: the next cell has none of them.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// cellVolume is one mount of a scratch volume, as Hangar sends it (runtime/kubernetes/lifecycle/cell-volumes.ts).
type cellVolume struct {
	Name     string `json:"name"`
	Path     string `json:"path"`
	Bytes    int64  `json:"bytes,omitempty"`
	ReadOnly bool   `json:"readOnly,omitempty"`
	SubPath  string `json:"subPath,omitempty"`
}

// parseCellVolumes reads and checks the list (pure, table-tested): clean absolute paths that are not
// the root nor under /proc, /sys or /dev, a relative subPath without "..", names that are one path
// element, sizes not negative, one size per volume.
func parseCellVolumes(text string) ([]cellVolume, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	var vs []cellVolume
	if err := json.Unmarshal([]byte(text), &vs); err != nil {
		return nil, fmt.Errorf("volumes: %w", err)
	}
	sizes := map[string]int64{}
	for _, v := range vs {
		if v.Name == "" || strings.ContainsAny(v.Name, "/\x00") || v.Name == "." || v.Name == ".." {
			return nil, fmt.Errorf("volume name %q", v.Name)
		}
		if !filepath.IsAbs(v.Path) || filepath.Clean(v.Path) != v.Path || v.Path == "/" || cellSkipped(v.Path, nil) {
			return nil, fmt.Errorf("volume %s: mount path %q", v.Name, v.Path)
		}
		if v.SubPath != "" && (filepath.IsAbs(v.SubPath) || filepath.Clean(v.SubPath) != v.SubPath || v.SubPath == ".." || strings.HasPrefix(v.SubPath, "../")) {
			return nil, fmt.Errorf("volume %s: subPath %q", v.Name, v.SubPath)
		}
		if v.Bytes < 0 {
			return nil, fmt.Errorf("volume %s: size %d", v.Name, v.Bytes)
		}
		if s, ok := sizes[v.Name]; ok && s != v.Bytes {
			return nil, fmt.Errorf("volume %s: two sizes", v.Name)
		}
		sizes[v.Name] = v.Bytes
	}
	return vs, nil
}

// noSymlinkBelow refuses a path whose existing components under root include a link (the image's
// links would point the mount somewhere else than the path asked).
func noSymlinkBelow(root, path string) error {
	cur := root
	for _, part := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		cur = filepath.Join(cur, part)
		st, err := os.Lstat(cur)
		if os.IsNotExist(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if st.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link in the image", strings.TrimPrefix(cur, root))
		}
	}
	return nil
}

// mountCellVolumes makes each volume under dir/vol and binds its mounts into root (before the
// root is entered).
func mountCellVolumes(dir, root string, vs []cellVolume) error {
	made := map[string]string{}
	for _, v := range vs {
		src, ok := made[v.Name]
		if !ok {
			src = filepath.Join(dir, "vol", v.Name)
			if err := os.MkdirAll(src, 0o777); err != nil {
				return err
			}
			if v.Bytes > 0 {
				if err := mount("tmpfs", src, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "mode=1777,size="+strconv.FormatInt(v.Bytes, 10)); err != nil {
					return err
				}
			}
			if err := os.Chmod(src, 0o777); err != nil {
				return err
			}
			made[v.Name] = src
		}
		if v.SubPath != "" {
			src = filepath.Join(src, v.SubPath)
			if err := os.MkdirAll(src, 0o777); err != nil {
				return err
			}
		}
		if err := noSymlinkBelow(root, v.Path); err != nil {
			return fmt.Errorf("volume %s at %s: %w", v.Name, v.Path, err)
		}
		dst := root + v.Path
		if err := ensure(dst, true); err != nil {
			return err
		}
		if err := mount(src, dst, "", syscall.MS_BIND, ""); err != nil {
			return err
		}
		// Read-only keeping the flags the source mount has (a locked one cannot be dropped).
		if v.ReadOnly {
			if err := readOnlyUnder(dst); err != nil {
				return err
			}
		}
	}
	return nil
}
