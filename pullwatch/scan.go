package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"strings"
	"time"
)

// Pull is one image pull in progress: its manifest and how far its layers are.
type Pull struct {
	Manifest    string `json:"manifest"`
	LayersDone  int    `json:"layersDone"`
	LayersTotal int    `json:"layersTotal"`
	BytesDone   int64  `json:"bytesDone"`
	BytesTotal  int64  `json:"bytesTotal"`
}

var digestRe = regexp.MustCompile(`sha256:[a-f0-9]{64}`)

// Manifests larger than this are not image manifests; older than recent are not of a pull in progress.
const (
	maxManifestBytes = 4 << 20
	recent           = 2 * time.Hour
)

type layer struct {
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// ingests: the bytes downloaded so far of each digest being downloaded.
func ingests(content string) (map[string]int64, error) {
	out := map[string]int64{}
	dirs, err := os.ReadDir(filepath.Join(content, "ingest"))
	if os.IsNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		dir := filepath.Join(content, "ingest", d.Name())
		ref, err := os.ReadFile(filepath.Join(dir, "ref"))
		if err != nil {
			continue // finishing or gone
		}
		dg := digestRe.FindString(string(ref))
		if dg == "" {
			continue
		}
		st, err := os.Stat(filepath.Join(dir, "data"))
		if err != nil {
			continue
		}
		out[dg] = st.Size()
	}
	return out, nil
}

// manifests: the recent image manifests in the blob store, by digest.
func manifests(content string, now time.Time) map[string][]layer {
	out := map[string][]layer{}
	dir := filepath.Join(content, "blobs", "sha256")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() > maxManifestBytes || now.Sub(info.ModTime()) > recent {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || len(b) == 0 || b[0] != '{' {
			continue
		}
		var m struct {
			Layers []layer `json:"layers"`
			Config *layer  `json:"config"`
		}
		if json.Unmarshal(b, &m) != nil || m.Config == nil || len(m.Layers) == 0 {
			continue
		}
		out["sha256:"+e.Name()] = m.Layers
	}
	return out
}

func blobSize(content, dg string) int64 {
	st, err := os.Stat(filepath.Join(content, "blobs", "sha256", strings.TrimPrefix(dg, "sha256:")))
	if err != nil {
		return -1
	}
	return st.Size()
}

// Scan reads the pulls in progress: every recent manifest with a layer still being downloaded.
func Scan(content string, now time.Time) ([]Pull, error) {
	active, err := ingests(content)
	if err != nil {
		return nil, err
	}
	pulls := []Pull{}
	if len(active) == 0 {
		return pulls, nil
	}
	for dg, layers := range manifests(content, now) {
		p := Pull{Manifest: dg, LayersTotal: len(layers)}
		coming := false
		for _, l := range layers {
			p.BytesTotal += l.Size
			if got, ok := active[l.Digest]; ok {
				coming = true
				p.BytesDone += min(got, l.Size)
			} else if blobSize(content, l.Digest) >= l.Size {
				p.LayersDone++
				p.BytesDone += l.Size
			}
		}
		if coming {
			pulls = append(pulls, p)
		}
	}
	sort.Slice(pulls, func(i, j int) bool { return pulls[i].Manifest < pulls[j].Manifest })
	return pulls, nil
}
