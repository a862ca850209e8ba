package main

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"
)

// maxID: a sandbox pod's user namespace maps 65536 ids; a file owned past them would show as
// nobody inside and is refused rather than shifted.
const maxID = 65535

// unpack writes a snapshot archive (tar, as `tar -C vol -cf - .` makes it) into dir, which must be
// empty. The archive is tenant data: nothing in it may reach outside dir (every path goes through
// os.Root, which refuses `..`, absolute names and symlinks that leave the root), make a device or
// a fifo, keep a setuid/setgid bit, own a file past the pod's id range, or write more bytes than
// the archive holds (a sparse entry cannot expand into the pool).
func unpack(r io.Reader, dir string, limit int64) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	tr := tar.NewReader(r)
	var written int64
	type dirMeta struct {
		name  string
		mode  fs.FileMode
		mtime time.Time
	}
	var dirs []dirMeta
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("reading the archive: %w", err)
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if name != "." && !fs.ValidPath(name) {
			return fmt.Errorf("archive entry %q: a path outside the volume", h.Name)
		}
		if h.Uid < 0 || h.Uid > maxID || h.Gid < 0 || h.Gid > maxID {
			return fmt.Errorf("archive entry %q: owner %d:%d is outside the sandbox's ids (0-%d)", h.Name, h.Uid, h.Gid, maxID)
		}
		mode := fs.FileMode(h.Mode) & fs.ModePerm
		switch h.Typeflag {
		case tar.TypeDir:
			if name != "." {
				if err := root.Mkdir(name, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
					return fmt.Errorf("archive entry %q: %w", h.Name, err)
				}
			}
			if h.Mode&01000 != 0 {
				mode |= fs.ModeSticky
			}
			dirs = append(dirs, dirMeta{name, mode, h.ModTime})
		case tar.TypeReg:
			if written += h.Size; written > limit {
				return fmt.Errorf("archive entry %q: the entries hold more than the archive's %d bytes", h.Name, limit)
			}
			f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if err != nil {
				return fmt.Errorf("archive entry %q: %w", h.Name, err)
			}
			_, err = io.Copy(f, io.LimitReader(tr, h.Size))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("archive entry %q: %w", h.Name, err)
			}
			if err := root.Chmod(name, mode); err != nil {
				return err
			}
			_ = root.Chtimes(name, h.ModTime, h.ModTime)
		case tar.TypeSymlink:
			if err := root.Symlink(h.Linkname, name); err != nil {
				return fmt.Errorf("archive entry %q: %w", h.Name, err)
			}
		case tar.TypeLink:
			old := path.Clean(strings.TrimPrefix(h.Linkname, "./"))
			if !fs.ValidPath(old) {
				return fmt.Errorf("archive entry %q: a hard link to %q outside the volume", h.Name, h.Linkname)
			}
			if err := root.Link(old, name); err != nil {
				return fmt.Errorf("archive entry %q: %w", h.Name, err)
			}
			continue // owner and mode are the target's
		default:
			return fmt.Errorf("archive entry %q: type %q is not allowed in a volume (files, directories and links only)", h.Name, string(h.Typeflag))
		}
		if err := root.Lchown(name, h.Uid, h.Gid); err != nil {
			return fmt.Errorf("archive entry %q: %w", h.Name, err)
		}
	}
	// Directories last, deepest first: a read-only directory is filled before it is made read-only.
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		if err := root.Chmod(d.name, d.mode); err != nil {
			return err
		}
		_ = root.Chtimes(d.name, d.mtime, d.mtime)
	}
	return nil
}
