//go:build tools

// Package tools pins the Kubernetes binaries the test cluster builds, so `go mod tidy`
// keeps their dependencies in go.sum. The build tag keeps it out of every build.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubelet"
)
