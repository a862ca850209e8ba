import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node", testTimeout: 20_000 } },
      // Needs a real cluster: KUBECONFIG from `make cluster-up` (make test-integration sets it).
      { test: { name: "integration", include: ["test/integration/**/*.test.ts"], environment: "node", testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false } },
    ],
  },
});
