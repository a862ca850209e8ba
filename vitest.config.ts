import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node", testTimeout: 20_000 } },
      // Needs helm (HANGAR_HELM; make chart-check builds it from its Go module).
      { test: { name: "chart", include: ["test/chart/**/*.test.ts"], environment: "node", testTimeout: 30_000 } },
      // Needs a real cluster: KUBECONFIG from `make cluster-up` (make test-integration sets it).
      // HANGAR_TEST_K3S=1 runs the same tier against a k3s container (needs Docker; docs/test-cluster.md).
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          globalSetup: ["test/integration/k3s-setup.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      // make test-scale-smoke: the scale bed's CI-sized form (kwok fake nodes; KUBECONFIG from make cluster-up).
      {
        test: {
          name: "scale",
          include: ["test/scale/**/*.test.ts"],
          environment: "node",
          testTimeout: 300_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
      // make test-chaos: faults injected into replicas and the test cluster's daemons (KUBECONFIG from make cluster-up).
      {
        test: {
          name: "chaos",
          include: ["test/chaos/**/*.test.ts"],
          environment: "node",
          testTimeout: 4 * 3600_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
