package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/sys/unix"
)

// A volume is an ext4 file system in a file: the layer's image, made once per snapshot and size
// from the unpacked tree, and each volume's image a reflink clone of it (FICLONE: the pool's XFS
// shares the blocks until one side writes). Its size is the file system's: a sandbox that fills
// it gets ENOSPC there and nowhere else. ext4 takes the runtime's idmapped mount, which overlayfs
// does not on the kernels we run (ADR 0029).

// makeImage builds an ext4 file system of size bytes in file, holding tree (empty: none).
func makeImage(file, tree string, size uint64) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	err = f.Truncate(int64(size))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	// No journal (a scratch volume ends with its sandbox), no reserved blocks, no room to grow.
	args := []string{"-q", "-F", "-O", "^has_journal,^resize_inode", "-m", "0", "-E", "lazy_itable_init=1,root_owner=0:0"}
	if tree != "" {
		args = append(args, "-d", tree)
	}
	cmd := exec.Command("mkfs.ext4", append(args, file)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("mkfs.ext4: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// cloneFile makes dst a reflink copy of src.
func cloneFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	err = unix.IoctlFileClone(int(out.Fd()), int(in.Fd()))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("FICLONE %s: %w (the pool must be a file system with reflinks: XFS or btrfs)", dst, err)
	}
	return nil
}

// mountImage mounts an image on target (loop, nosuid, nodev; read-only when asked).
func mountImage(image, target string, readonly bool) error {
	opts := []string{"loop", "nosuid", "nodev", "noatime"}
	if readonly {
		opts = append(opts, "ro")
	}
	if out, err := exec.Command("mount", "-t", "ext4", "-o", strings.Join(opts, ","), image, target).CombinedOutput(); err != nil {
		return fmt.Errorf("mount %s: %v: %s", target, err, strings.TrimSpace(string(out)))
	}
	return nil
}

func unmount(target string) error {
	if err := unix.Unmount(target, 0); err != nil {
		return unix.Unmount(target, unix.MNT_DETACH)
	}
	return nil
}
