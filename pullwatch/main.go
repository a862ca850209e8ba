// hangar-pullwatch reports the image pulls in progress on its node (ADR 0038): read-only, from
// containerd's content store. A download in progress is an ingest directory
// (ingest/<id>/{ref,total,data}); a pull fetches its manifest first, so the manifest naming the layer
// being downloaded is already a blob (blobs/sha256/<hex>). GET /pulls answers, per manifest with a
// layer still coming in, its layers and bytes done and in total. It never opens containerd's socket
// and writes nothing.
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"time"
)

func main() {
	content := flag.String("content", "/var/lib/containerd/io.containerd.content.v1.content", "containerd's content store (read only)")
	listen := flag.String("listen", "0.0.0.0:9470", "address of GET /pulls")
	flag.Parse()
	mux := http.NewServeMux()
	mux.HandleFunc("/pulls", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			http.Error(w, "GET only", http.StatusMethodNotAllowed)
			return
		}
		pulls, err := Scan(*content, time.Now())
		if err != nil {
			http.Error(w, "cannot read the content store", http.StatusInternalServerError)
			log.Printf("scan: %v", err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"pulls": pulls})
	})
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	srv := &http.Server{Addr: *listen, Handler: mux, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 10 * time.Second}
	log.Printf("hangar-pullwatch: %s on %s", *content, *listen)
	log.Fatal(srv.ListenAndServe())
}
