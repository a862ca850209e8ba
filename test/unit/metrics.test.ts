import { describe, expect, it } from "vitest";
import { createMetrics } from "../../api/metrics.js";

describe("metrics", () => {
  it("report sandboxes by state, and the pod watch's relists where the runtime has a watch", async () => {
    let relists = 0;
    const m = createMetrics(() => ({ RUNNING: 2 }), { watch: () => ({ relists }) });
    relists = 3;
    const text = await m.registry.metrics();
    expect(text).toContain('hangar_sandboxes{state="RUNNING"} 2');
    expect(text).toMatch(/^hangar_kube_pod_watch_relists 3$/m);
    // A runtime without a watch (the local one): no such series.
    expect(await createMetrics(() => ({})).registry.metrics()).not.toContain("hangar_kube_pod_watch_relists");
  });
  it("report agent starts by how, and malloc_trim's calls, time and bytes, where the process has them", async () => {
    const m = createMetrics(() => ({}), {
      agents: () => ({ found: 5, installed: 2, unusable: 0 }),
      trim: () => ({ trims: 4, seconds: 0.02, releasedBytes: 1048576 }),
    });
    const text = await m.registry.metrics();
    expect(text).toContain('hangar_kube_agent_starts{how="found"} 5');
    expect(text).toContain('hangar_kube_agent_starts{how="installed"} 2');
    expect(text).toMatch(/^hangar_malloc_trims 4$/m);
    expect(text).toMatch(/^hangar_malloc_trim_seconds 0.02$/m);
    expect(text).toMatch(/^hangar_malloc_trim_released_bytes 1048576$/m);
    const none = await createMetrics(() => ({})).registry.metrics();
    expect(none).not.toContain("hangar_kube_agent_starts");
    expect(none).not.toContain("hangar_malloc_trim");
  });
  it("report the runtime, create-to-RUNNING seconds, warm pools, runners and how the lifecycle keeps up", async () => {
    let lag = 0;
    let pools = [{ pool: "warm-a", size: 4, idle: 3, ready: 2, hits: 7, misses: 1, refills: 9, refillFailures: 2 }];
    const m = createMetrics(() => ({}), {
      runtime: "kubernetes",
      netinit: () => ({ failures: 2 }),
      api: () => [
        { verb: "GET", resource: "pods", count: 3 },
        { verb: "GET", resource: "pods", code: "200", count: 2 },
        { verb: "GET", resource: "pods", code: "error", count: 1 },
      ],
      pods: () => ({ withoutRecord: 4 }),
      pools: () => pools,
      runners: () => [
        {
          runnerId: "gpu-a",
          maxCpuMillicores: 8000,
          availableCpuMillicores: 6000,
          maxMemoryBytes: 2048,
          availableMemoryBytes: 1024,
          runningSandboxes: 3,
          gpus: { perNodeMax: 8, total: 8, available: 5, types: [] },
        } as never,
        {
          runnerId: "cpu-b",
          maxCpuMillicores: 1,
          availableCpuMillicores: 1,
          maxMemoryBytes: 1,
          availableMemoryBytes: 1,
          runningSandboxes: 0,
        } as never,
      ],
      lifecycle: () => ({ reapLagSeconds: lag, oldestStartingSeconds: 12.5 }),
    });
    m.startDone(1.5);
    lag = 42;
    const text = await m.registry.metrics();
    expect(text).toContain('hangar_info{runtime="kubernetes"} 1');
    expect(text).toMatch(/^hangar_sandbox_start_duration_seconds_bucket\{le="2"\} 1$/m);
    expect(text).toMatch(/^hangar_sandbox_start_duration_seconds_bucket\{le="1"\} 0$/m);
    expect(text).toContain('hangar_pool_idle{pool="warm-a"} 3');
    expect(text).toContain('hangar_pool_ready{pool="warm-a"} 2');
    expect(text).toContain('hangar_pool_size{pool="warm-a"} 4');
    expect(text).toContain('hangar_pool_claims_total{pool="warm-a",outcome="hit"} 7');
    expect(text).toContain('hangar_pool_claims_total{pool="warm-a",outcome="miss"} 1');
    expect(text).toContain('hangar_pool_refills_total{pool="warm-a",outcome="failed"} 2');
    expect(text).toContain('hangar_runner_gpus{runner="gpu-a",kind="available"} 5');
    expect(text).not.toContain('hangar_runner_gpus{runner="cpu-b"');
    expect(text).toContain('hangar_runner_cpu_millicores{runner="gpu-a",kind="max"} 8000');
    expect(text).toContain('hangar_runner_sandboxes{runner="gpu-a"} 3');
    expect(text).toMatch(/^hangar_reaper_lag_seconds 42$/m);
    expect(text).toMatch(/^hangar_kube_netinit_failures_total 2$/m);
    expect(text).toContain('hangar_kube_api_calls_total{verb="GET",resource="pods"} 3');
    expect(text).toContain('hangar_kube_api_responses_total{verb="GET",resource="pods",code="error"} 1');
    expect(text).toMatch(/^hangar_kube_pods_without_record 4$/m);
    expect(text).toMatch(/^hangar_sandbox_oldest_starting_seconds 12.5$/m);
    // A pool gone from the source goes from /metrics too.
    pools = [];
    expect(await m.registry.metrics()).not.toContain('pool="warm-a"');
  });
});
