package main

// Scratch volumes given to a cell at claim (cell_volumes.go): the list's checks, and a cell made
// with them on this machine (root, as the supervisor is in its pod).

import (
	"os"
	"strings"
	"testing"
)

func TestParseCellVolumes(t *testing.T) {
	ok := []string{
		``,
		`[]`,
		`[{"name":"data","path":"/data","bytes":1048576}]`,
		`[{"name":"data","path":"/data","bytes":1048576},{"name":"data","path":"/ro","bytes":1048576,"readOnly":true,"subPath":"a/b"}]`,
		`[{"name":"tmp2","path":"/var/scratch"}]`,
	}
	for _, text := range ok {
		if _, err := parseCellVolumes(text); err != nil {
			t.Errorf("%s: %v", text, err)
		}
	}
	bad := map[string]string{
		`[{"name":"x","path":"data"}]`:                                            "mount path",
		`[{"name":"x","path":"/a/../etc"}]`:                                       "mount path",
		`[{"name":"x","path":"/"}]`:                                               "mount path",
		`[{"name":"x","path":"/proc/x"}]`:                                         "mount path",
		`[{"name":"x","path":"/dev/shm"}]`:                                        "mount path",
		`[{"name":"x","path":"/sys"}]`:                                            "mount path",
		`[{"name":"x","path":"/d","subPath":"../up"}]`:                            "subPath",
		`[{"name":"x","path":"/d","subPath":"/abs"}]`:                             "subPath",
		`[{"name":"a/b","path":"/d"}]`:                                            "volume name",
		`[{"name":"..","path":"/d"}]`:                                             "volume name",
		`[{"name":"x","path":"/d","bytes":-1}]`:                                   "size",
		`[{"name":"x","path":"/d","bytes":1},{"name":"x","path":"/e","bytes":2}]`: "two sizes",
		`{"name":"x"}`: "volumes",
	}
	for text, want := range bad {
		if _, err := parseCellVolumes(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error naming %q", text, err, want)
		}
	}
}

func TestCellVolumes(t *testing.T) {
	b := newCellBed(t)
	ans := b.resetWith([]byte(`[{"name":"data","path":"/hangar-test/data","bytes":1048576},` +
		`{"name":"data","path":"/hangar-test/ro","bytes":1048576,"readOnly":true,"subPath":"sub"},` +
		`{"name":"free","path":"/hangar-test/free"}]`))
	if r, _ := ans["ready_ms"].(float64); r <= 0 {
		t.Fatalf("a cell made with volumes answers how long it took: %v", ans)
	}
	r := b.sh(`set -e
mkdir -p /hangar-test/data/sub && echo hi > /hangar-test/data/sub/f
cat /hangar-test/ro/f
touch /hangar-test/ro/g 2>/dev/null && echo "ro writable"
dd if=/dev/zero of=/hangar-test/data/big bs=64k count=64 2>/dev/null && echo "no limit"
echo free > /hangar-test/free/f && cat /hangar-test/free/f
awk '$2 ~ "^/hangar-test" {print $2, $3}' /proc/mounts | sort | tr '\n' ';'`)
	want := "hi\nfree\n/hangar-test/data tmpfs;/hangar-test/free "
	if !strings.HasPrefix(r.stdout, want) || strings.Contains(r.stdout, "ro writable") || strings.Contains(r.stdout, "no limit") {
		t.Fatalf("volumes in the cell: %+v", r)
	}
	if _, err := parseCellVolumes(`[]`); err != nil {
		t.Fatal(err)
	}
	// The next sandbox's cell has none of them.
	b.reset()
	r = b.sh(`ls /hangar-test 2>&1; awk '$2 ~ "^/hangar-test"' /proc/mounts`)
	if !strings.Contains(r.stdout, "No such file") {
		t.Fatalf("the volumes carried over to the next cell: %+v", r)
	}
	// A path through a link of the image is refused (the mount would land elsewhere), and the pod
	// is not left without a cell.
	link := "/hangar-cell-link-test"
	if err := os.Symlink("/tmp", link); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(link)
	b.next++
	b.a.handle('R', b.next, []byte(`[{"name":"x","path":"`+link+`/v"}]`))
	for f := range b.a.out {
		if f.kind == 'R' && f.id == b.next {
			if !strings.Contains(string(f.payload), "symbolic link") {
				t.Fatalf("a volume through a link: %s", f.payload)
			}
			break
		}
	}
	if r := b.sh(`echo alive`); strings.TrimSpace(r.stdout) != "alive" {
		t.Fatalf("no cell after a refused one: %+v", r)
	}
}
