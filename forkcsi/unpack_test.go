package main

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type entry struct {
	h    tar.Header
	body string
}

func archive(t *testing.T, es ...entry) *bytes.Buffer {
	t.Helper()
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for _, e := range es {
		h := e.h
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(e.body))
		}
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if err := w.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if e.body != "" {
			if _, err := w.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &b
}

func TestUnpackKeepsATreeWithLinksAndModes(t *testing.T) {
	dir := t.TempDir()
	a := archive(t,
		entry{h: tar.Header{Name: "./", Typeflag: tar.TypeDir, Mode: 0o755}},
		entry{h: tar.Header{Name: "./src/", Typeflag: tar.TypeDir, Mode: 0o555, Uid: 1000, Gid: 1000}},
		entry{h: tar.Header{Name: "./src/main.py", Typeflag: tar.TypeReg, Mode: 0o755, Uid: 1000, Gid: 1000}, body: "print(1)\n"},
		entry{h: tar.Header{Name: "./src/again.py", Typeflag: tar.TypeLink, Linkname: "./src/main.py"}},
		entry{h: tar.Header{Name: "./latest", Typeflag: tar.TypeSymlink, Linkname: "src/main.py"}},
		entry{h: tar.Header{Name: "./abs", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}},
	)
	if err := unpack(a, dir, int64(a.Len())); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "src/again.py"))
	if err != nil || string(b) != "print(1)\n" {
		t.Fatalf("hard link: %q %v", b, err)
	}
	st, _ := os.Stat(filepath.Join(dir, "src"))
	if st.Mode().Perm() != 0o555 {
		t.Fatalf("dir mode %v", st.Mode())
	}
	if l, _ := os.Readlink(filepath.Join(dir, "abs")); l != "/etc/passwd" {
		t.Fatalf("a symlink is kept as it is (it resolves inside the sandbox): %q", l)
	}
}

func TestUnpackRefusesWhatCouldLeaveTheVolumeOrMakeADevice(t *testing.T) {
	outside := t.TempDir()
	cases := map[string][]entry{
		"device": {{h: tar.Header{Name: "./mem", Typeflag: tar.TypeChar, Devmajor: 1, Devminor: 1, Mode: 0o666}}},
		"fifo":   {{h: tar.Header{Name: "./p", Typeflag: tar.TypeFifo}}},
		"dotdot": {{h: tar.Header{Name: "../escaped", Typeflag: tar.TypeReg}, body: "x"}},
		"abs":    {{h: tar.Header{Name: filepath.Join(outside, "escaped"), Typeflag: tar.TypeReg}, body: "x"}},
		"through a symlink": {
			{h: tar.Header{Name: "./out", Typeflag: tar.TypeSymlink, Linkname: outside}},
			{h: tar.Header{Name: "./out/escaped", Typeflag: tar.TypeReg}, body: "x"},
		},
		"through a relative symlink": {
			{h: tar.Header{Name: "./up", Typeflag: tar.TypeSymlink, Linkname: "../../../../../../../../" + strings.TrimPrefix(outside, "/")}},
			{h: tar.Header{Name: "./up/escaped", Typeflag: tar.TypeReg}, body: "x"},
		},
		"hard link out":      {{h: tar.Header{Name: "./pw", Typeflag: tar.TypeLink, Linkname: "../../../../etc/passwd"}}},
		"owner past the ids": {{h: tar.Header{Name: "./f", Typeflag: tar.TypeReg, Uid: 70000}, body: "x"}},
	}
	for name, es := range cases {
		t.Run(name, func(t *testing.T) {
			a := archive(t, es...)
			if err := unpack(a, t.TempDir(), int64(a.Len())); err == nil {
				t.Fatal("unpacked")
			}
			if _, err := os.Lstat(filepath.Join(outside, "escaped")); err == nil {
				t.Fatal("a file was written outside the volume")
			}
		})
	}
}

func TestUnpackDropsSetuidBits(t *testing.T) {
	dir := t.TempDir()
	a := archive(t, entry{h: tar.Header{Name: "./su", Typeflag: tar.TypeReg, Mode: 0o6755}, body: "x"})
	if err := unpack(a, dir, int64(a.Len())); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(filepath.Join(dir, "su"))
	if st.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0 || st.Mode().Perm() != 0o755 {
		t.Fatalf("mode %v", st.Mode())
	}
}

func TestUnpackWritesNoMoreThanTheArchiveHolds(t *testing.T) {
	a := archive(t, entry{h: tar.Header{Name: "./big", Typeflag: tar.TypeReg}, body: strings.Repeat("x", 4096)})
	if err := unpack(a, t.TempDir(), 1024); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("%v", err)
	}
}
