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
});
