# Hangar: every target installs what it needs first (`make setup` is idempotent).
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)
PYTHON ?= python3
SDK_VERSION := $(shell cat test/fixtures/SDK_VERSION)
VENV := .venv
STAMP := .build/stamps

.PHONY: bench-claim-config bench-cold bench-share-token bench-relay bench-burst test-scale-smoke bench-scale bench-template-pool bench-snapshots test-chaos fuzz bench-isolation images setup run build gen fields test-agent test-sdk-suite test-sdk-suite-kubernetes check-gen lint typecheck test test-unit test-e2e clean sdk-descriptors cluster-up cluster-down cluster-status test-integration test-cluster test-e2e-kubernetes bench chart-check bench-sdk image deploy kind-up kind-load deploy-test-cluster test-e2e-deployed

setup: $(STAMP)/npm $(STAMP)/venv-$(SDK_VERSION) $(STAMP)/apt .build/hangar-pty .build/hangar-guard .build/hangar-agent .build/hangar-netinit .build/hangar-forkcsi .build/hangar-pullwatch

$(STAMP)/npm: package.json package-lock.json
	@mkdir -p $(STAMP)
	npm ci --no-audit --no-fund
	npm install-scripts approve node >/dev/null 2>&1 || true
	@node --version | grep -q '^v24\.' || { echo "node_modules/.bin/node is not Node 24"; exit 1; }
	@touch $@

$(STAMP)/venv-$(SDK_VERSION): test/e2e/requirements.txt
	@mkdir -p $(STAMP)
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r test/e2e/requirements.txt
	@touch $@

# Debian packages the local runtime uses: bubblewrap (isolation), util-linux (nsenter), gcc (pty helper),
# libseccomp-dev (the seccomp filter, at build time), skopeo and umoci (images), passt and iptables
# (egress: pasta relays, a host chain confines it), debootstrap (the offline
# images), tini (pid 1 of Hangar's image; the e2e suite runs Hangar under it as the image does),
# e2fsprogs (mkfs.ext4: the file system of each sized scratch volume).
APT_PACKAGES := bubblewrap util-linux gcc libc6-dev libseccomp-dev skopeo umoci passt iptables debootstrap tini e2fsprogs xfsprogs
$(STAMP)/apt:
	@mkdir -p $(STAMP)
	@if ! dpkg -s $(APT_PACKAGES) >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES); \
	  else echo "install $(APT_PACKAGES) (apt-get install ...)"; exit 1; fi; fi
	@touch $@

# What only the e2e suite uses: Debian's Chromium, driven headless by Playwright (the console's browser
# test), and a registry on loopback (docker-registry: pull progress on the local runtime).
E2E_APT_PACKAGES := chromium docker-registry curl
$(STAMP)/apt-e2e:
	@mkdir -p $(STAMP)
	@if ! dpkg -s $(E2E_APT_PACKAGES) >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(E2E_APT_PACKAGES); \
	  else echo "install $(E2E_APT_PACKAGES) (apt-get install ...)"; exit 1; fi; fi
	@touch $@

.build/hangar-pty: runtime/local/pty-helper.c
	@mkdir -p .build
	gcc -O2 -Wall -Wextra -static -o $@ $< -lutil

# The seccomp filter of every local sandbox process (runtime/local/seccomp-gen.c) and the guard that
# applies it to commands joining a sandbox (runtime/local/guard.c embeds the same program).
.build/seccomp.bpf .build/seccomp-bpf.h: runtime/local/seccomp-gen.c $(STAMP)/apt
	@mkdir -p .build
	gcc -O2 -Wall -Wextra -o .build/hangar-seccomp-gen $< -lseccomp
	.build/hangar-seccomp-gen .build/seccomp.bpf .build/seccomp-bpf.h

.build/hangar-guard: runtime/local/guard.c .build/seccomp-bpf.h
	gcc -O2 -Wall -Wextra -static -I.build -o $@ $<

# Offline images (docker-archive tarballs): python:3.11 (debootstrap), noshell, pause. The local runtime
# reads them from $(IMAGES) in `make run` and the e2e suite; the test cluster imports the same files.
IMAGES := $(or $(HANGAR_TEST_CACHE),/var/cache/hangar-test)/images-v1
images: $(STAMP)/apt
	bash test/cluster/build-images.sh

# The in-sandbox agent of the persistent exec path (ADR 0008): static, no dependencies.
.build/hangar-agent: $(wildcard agent/*.go) agent/go.mod
	@mkdir -p .build
	@command -v go >/dev/null || { echo "building .build/hangar-agent needs Go >= 1.20 (https://go.dev/dl)"; exit 1; }
	cd agent && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -trimpath -ldflags='-s -w' -o ../.build/hangar-agent .

# The init container of every Kubernetes sandbox pod: loads the egress policy (default deny) into the
# pod's network namespace with nftables (netinit/main.go; google/nftables, ADR 0012). Static.
.build/hangar-netinit: netinit/*.go netinit/go.mod netinit/go.sum
	@mkdir -p .build
	cd netinit && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -trimpath -ldflags='-s -w' -o ../.build/hangar-netinit .

# The node plugin that makes restored snapshot volumes copy-on-write clones on Kubernetes (ADR 0029):
# a CSI driver for inline ephemeral volumes, run on each node (test/cluster/cluster-up.sh, the chart's DaemonSet).
# The node reporter of image pulls in progress (ADR 0038): reads containerd's content store, read only.
.build/hangar-pullwatch: pullwatch/*.go pullwatch/go.mod
	@mkdir -p .build
	cd pullwatch && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -trimpath -ldflags='-s -w' -o ../.build/hangar-pullwatch .

.build/hangar-forkcsi: forkcsi/*.go forkcsi/go.mod forkcsi/go.sum
	@mkdir -p .build
	cd forkcsi && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -trimpath -ldflags='-s -w' -o ../.build/hangar-forkcsi .

# The Go tests: the exec agent (frames split anywhere, exit codes, stdin EOF, kill, output credit) and
# netinit (the rule plan, and the rules loaded by the kernel in a fresh network namespace deciding
# real connections; that part needs root).
test-agent:
	cd agent && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod go test -count=1 ./...
	cd netinit && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod go test -count=1 ./...
	cd forkcsi && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod go test -count=1 ./...
	cd pullwatch && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod go test -count=1 ./...

build: setup
	tsc -p tsconfig.build.json

gen: $(STAMP)/npm
	node scripts/gen-types.mjs

# docs/fields.md: every request field, honoured or refused (api/field-policy.ts); a unit test checks it is current.
fields: build
	node scripts/gen-field-table.mjs

# CI: fails when api/generated/ is not what `make gen` produces from proto/.
check-gen: gen
	@git diff --exit-code --stat -- api/generated || { echo "api/generated is stale: run 'make gen' and commit"; exit 1; }
	@test -z "$$(git status --porcelain -- api/generated)" || { echo "api/generated has untracked changes: run 'make gen' and commit"; exit 1; }

# Lint: Prettier's layout (.prettierrc.json), ESLint (eslint.config.js: layering, import circles,
# function and file length) and the type check.
lint: $(STAMP)/npm
	prettier --check --log-level warn '{api,console,controller,runtime,core,cmd,test,bench,scripts}/**/*.{ts,mjs,js,css,html}' '*.{js,ts}'
	eslint .
	tsc -p tsconfig.json --noEmit

typecheck: $(STAMP)/npm
	tsc -p tsconfig.json --noEmit

# Re-extract the pinned SDK's descriptors from its wheel (after changing test/fixtures/SDK_VERSION).
sdk-descriptors: $(STAMP)/venv-$(SDK_VERSION)
	$(VENV)/bin/python scripts/extract_sdk_descriptors.py test/fixtures/cwsandbox-$(SDK_VERSION).binpb

run: build images
	HANGAR_LOCAL_IMAGE_DIRS=$${HANGAR_LOCAL_IMAGE_DIRS-$(IMAGES)} node --max-semi-space-size=4 dist/cmd/main.js

test-unit: setup
	vitest run --project unit

# The gRPC surface fuzzed longer than test-unit does (ADR 0013): HANGAR_FUZZ_RUNS messages per unary method.
fuzz: setup
	HANGAR_FUZZ_RUNS=$${HANGAR_FUZZ_RUNS:-2000} vitest run --project unit test/unit/fuzz.test.ts

test-e2e: build images $(STAMP)/apt-e2e
	$(VENV)/bin/python -m pytest -q test/e2e

test: setup check-gen lint build test-unit test-agent chart-check test-e2e test-sdk-suite test-cluster

# The Helm chart: helm lint and template tests with the real helm, and its dashboards' and
# alerts' PromQL under promtool check/test rules (both built from their Go modules).
chart-check: $(STAMP)/npm .build/hangar-pty .build/hangar-guard .build/seccomp.bpf
	HANGAR_HELM=$$(bash test/cluster/build-helm.sh) HANGAR_PROMTOOL=$$(bash test/cluster/build-promtool.sh) vitest run --project chart

# Hangar's image without Docker (debootstrap base + Node 24 from npm): .build/hangar-image.tar,
# tagged $(HANGAR_IMAGE). Users with Docker can `docker build -t ... .` (same layout).
HANGAR_IMAGE ?= localhost/hangar:dev
image: build
	HANGAR_IMAGE=$(HANGAR_IMAGE) bash scripts/build-image.sh

# Install the chart into the cluster of $$KUBECONFIG (helm and kubectl from PATH; the image must be
# where the nodes find it: make kind-load for kind). scripts/deploy.sh lists its knobs.
deploy:
	bash scripts/deploy.sh

# kind, for users with internet and Docker (not available on the offline CI machine).
KIND_CLUSTER ?= hangar
kind-up:
	kind create cluster --name $(KIND_CLUSTER)
kind-load: image
	kind load image-archive .build/hangar-image.tar --name $(KIND_CLUSTER)

# On the offline test cluster: image -> containerd, chart installed with the cluster's own
# helm/kubectl builds, then the real-SDK suite against the in-cluster Hangar (Service IP via
# kube-proxy), including a replica killed mid-suite.
TEST_KUBECTL = $$(bash test/cluster/lib.sh --print-bin)/kubectl
deploy-test-cluster: image
	bash test/cluster/import-image.sh
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} HANGAR_HELM=$$(bash test/cluster/build-helm.sh) \
	  KUBECTL=$(TEST_KUBECTL) HANGAR_DEPLOY_VALUES=test/cluster/deploy-values.yaml bash scripts/deploy.sh
test-e2e-deployed:
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig}; export KUBECONFIG; \
	  ip=$$($(TEST_KUBECTL) -n hangar-system get svc hangar -o jsonpath='{.spec.clusterIP}'); \
	  HANGAR_E2E_TARGET=http://$$ip:50051 HANGAR_E2E_KEYS_FILE=$(CURDIR)/.build/deploy-keys HANGAR_E2E_RUNTIME=kubernetes \
	  HANGAR_TEST_NAMESPACE=hangar-sandboxes $(VENV)/bin/python -m pytest -q test/e2e

# The SDK's own integration suite (its sdist's tests/integration, unmodified) against a local
# Hangar, and against the Kubernetes runtime (cluster up; part of make test-cluster). The tests in
# test/sdk-suite/known-failures.txt are deselected, each with why; any other failure fails.
# Counts and failures: .build/sdk-suite/<runtime>.json, reported in docs/sdk-suite.md.
$(STAMP)/sdk-suite: test/sdk-suite/requirements.txt $(STAMP)/venv-$(SDK_VERSION)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r test/sdk-suite/requirements.txt
	@touch $@
test-sdk-suite: build images $(STAMP)/sdk-suite
	$(VENV)/bin/python test/sdk-suite/run.py
test-sdk-suite-kubernetes: build $(STAMP)/sdk-suite
	bash test/cluster/netinit-image.sh >/dev/null
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} HANGAR_E2E_KUBECONFIG=$(CURDIR)/.cluster/hangar-sa.kubeconfig \
	  HANGAR_E2E_RUNTIME=kubernetes $(VENV)/bin/python test/sdk-suite/run.py

# The offline single-node Kubernetes for the integration tier (docs/test-cluster.md).

cluster-up:
	bash test/cluster/cluster-up.sh

cluster-down:
	bash test/cluster/cluster-down.sh

cluster-status:
	bash test/cluster/cluster-status.sh

# Integration tier against the cluster KUBECONFIG names (default: the one cluster-up wrote).
test-integration: $(STAMP)/npm .build/hangar-agent .build/hangar-netinit
	bash test/cluster/netinit-image.sh >/dev/null
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} HANGAR_PROMETHEUS=$$(bash test/cluster/build-prometheus.sh) vitest run --project integration

# The real-SDK suite against the Kubernetes runtime, Hangar running as the least-privilege
# ServiceAccount; the admin kubeconfig only checks that no pod leaked.
test-e2e-kubernetes: build
	bash test/cluster/netinit-image.sh >/dev/null
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} HANGAR_E2E_KUBECONFIG=$(CURDIR)/.cluster/hangar-sa.kubeconfig \
	  HANGAR_E2E_RUNTIME=kubernetes $(VENV)/bin/python -m pytest -q test/e2e

# The chaos suite (issue 18, test/chaos/): create/write/exec/stop cycles against two replicas while
# replicas, the apiserver, etcd and the kubelet are killed; .build/chaos/result.json. CI runs
# HANGAR_CHAOS_CYCLES=60 (part of test-cluster); `HANGAR_CHAOS_CYCLES=1000 make test-chaos` is the long run.
test-chaos: build .build/hangar-agent
	bash test/cluster/netinit-image.sh >/dev/null
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} HANGAR_E2E_KUBECONFIG=$(CURDIR)/.cluster/hangar-sa.kubeconfig vitest run --project chaos

# cluster-up, the integration tier, the scale smoke (kwok), the SDK suite on Kubernetes, the deployed suite and the chaos suite
# (CI size, last: it restarts the cluster's daemons), then cluster-down always (also on failure).
test-cluster: $(STAMP)/npm
	bash test/cluster/with-cluster.sh $(MAKE) --no-print-directory test-integration test-scale-smoke test-e2e-kubernetes test-sdk-suite-kubernetes deploy-test-cluster test-e2e-deployed test-chaos

# Snapshot, restore and fork of 100 MiB and 1 GiB workspaces against tar over exec, both runtimes
# (cluster up for Kubernetes): bench/snapshot-results.json -> docs/benchmarks.md ("Snapshots").
bench-snapshots: build images
	.venv/bin/python bench/sdk_snapshots.py > .build/snap-local.json
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} HANGAR_E2E_KUBECONFIG=$${HANGAR_E2E_KUBECONFIG:-$(CURDIR)/.cluster/hangar-sa.kubeconfig} HANGAR_E2E_RUNTIME=kubernetes .venv/bin/python bench/sdk_snapshots.py > .build/snap-k8s.json
	python3 -c 'import json; json.dump({"local": json.load(open(".build/snap-local.json")), "kubernetes": json.load(open(".build/snap-k8s.json"))}, open("bench/snapshot-results.json", "w"), indent=1)'

# GETs through an HTTPS share-token endpoint against an open one, same Gateway listener, same run
# (cluster up; what the Gateway's check of each request costs): bench/share-token-results.json.
bench-share-token: build
	bash test/cluster/netinit-image.sh >/dev/null
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} HANGAR_E2E_KUBECONFIG=$${HANGAR_E2E_KUBECONFIG:-$(CURDIR)/.cluster/hangar-sa.kubeconfig} HANGAR_E2E_RUNTIME=kubernetes .venv/bin/python bench/sdk_share_token.py > bench/share-token-results.json

# A run from a shared template with a warm pool for it against the same template created cold,
# through the SDK on the Kubernetes runtime (cluster up): bench/template-pool-results.json.
bench-template-pool: build
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} HANGAR_E2E_KUBECONFIG=$${HANGAR_E2E_KUBECONFIG:-$(CURDIR)/.cluster/hangar-sa.kubeconfig} HANGAR_E2E_RUNTIME=kubernetes .venv/bin/python bench/sdk_template_pool.py > bench/template-pool-results.json

# What claim-time configuration costs on reused pool pods (hostname grants, scratch volumes) against cold starts (cluster up).
bench-claim-config: build
	bash test/cluster/netinit-image.sh >/dev/null
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} HANGAR_E2E_KUBECONFIG=$${HANGAR_E2E_KUBECONFIG:-$(CURDIR)/.cluster/hangar-sa.kubeconfig} HANGAR_E2E_RUNTIME=kubernetes .venv/bin/python bench/sdk_claim_config.py > bench/claim-config-results.json

# Issue 39 item 4: cold create -> RUNNING with HANGAR_KUBE_EARLY_EXEC on and off against raw pods, alternating (cluster up).
bench-cold: build
	bash test/cluster/netinit-image.sh >/dev/null
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} node bench/cold-probe.mjs > /dev/null

# Bursts of 100 claims from a settled warm pool and the RL workload, with the CPU and apiserver/etcd
# latency of each burst (cluster up; where the burst's time goes, docs/benchmarks.md).
bench-burst: build
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} node bench/burst-probe.mjs

# 1 MiB of exec output on the agent path, 40 times in one claimed pod, with the CPU each process on the
# path spent per MiB (Hangar, apiserver, kubelet, containerd, shims, the client; cluster up; ADR 0020).
bench-relay: build
	bash test/cluster/netinit-image.sh >/dev/null
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} node bench/mib-probe.mjs

# Hangar vs raw Kubernetes on the test cluster (make cluster-up first): bench/results.json,
# then the tables in docs/benchmarks.md and docs/bench.png (bench/report.py, matplotlib).
$(STAMP)/bench-venv: bench/requirements.txt $(STAMP)/venv-$(SDK_VERSION)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r bench/requirements.txt
	touch $@
bench: build $(STAMP)/bench-venv
	bash test/cluster/netinit-image.sh >/dev/null
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} node bench/k8s-bench.mjs > /dev/null
	$(VENV)/bin/python bench/report.py
	$(MAKE) --no-print-directory bench-sdk

# The scale bed's CI-sized form (in test-cluster): kwok nodes, two in-process replicas, 300 sandboxes
# (HANGAR_SCALE_SMOKE), all RUNNING, listed by both, and no pod requests from idle replicas.
test-scale-smoke: $(STAMP)/npm
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} vitest run --project scale

# The scale bed (#17, docs/benchmarks.md "Scale"): kwok fake nodes on the test cluster (make
# cluster-up first; BENCH_SCALE_NODES, 10 x 1100 pods) and Hangar's control plane, two replicas, at
# BENCH_SCALE_SIZES sandboxes (1000,5000,10000): the `scale` section of bench/results.json, then
# its tables in docs/benchmarks.md and docs/bench-scale.png (bench/scale_report.py).
bench-scale: build $(STAMP)/bench-venv
	bash test/cluster/kwok-up.sh $${BENCH_SCALE_NODES:-10}
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} node bench/scale-bench.mjs > /dev/null
	bash test/cluster/kwok-down.sh
	$(VENV)/bin/python bench/scale_report.py > /dev/null

# What the Kubernetes network boundary costs (ADR 0012): create and exec with and without the
# hangar-netinit init container, and raw pods, in one run (cluster up): bench/isolation-results.json.
bench-isolation: build
	bash test/cluster/netinit-image.sh >/dev/null
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} node bench/isolation-bench.mjs > /dev/null

# The RL reward loop through the real SDK on the local runtime, the Kubernetes runtime (when the
# cluster of KUBECONFIG is up) and raw pods, in one run: bench/sdk-results.json -> docs/benchmarks.md.
# BENCH_SDK_LABEL=before BENCH_HANGAR_DIR=<a built checkout of an older commit> measures that build.
bench-sdk: build images
	if [ -S /run/hangar-test/containerd/containerd.sock ]; then bash test/cluster/netinit-image.sh >/dev/null; fi
	KUBECONFIG=$${KUBECONFIG:-$(CURDIR)/.cluster/kubeconfig} node bench/sdk-bench.mjs > /dev/null
	$(VENV)/bin/python bench/sdk_report.py

clean:
	rm -rf dist .build
