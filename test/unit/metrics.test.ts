import { describe, expect, it } from "vitest";
import { createMetrics } from "../../api/metrics.js";

describe("metrics", () => {
  it("report sandboxes by state, and the pod watch's relists where the runtime has a watch", async () => {
    let relists = 0;
    const m = createMetrics(() => ({ RUNNING: 2 }), () => ({ relists }));
    relists = 3;
    const text = await m.registry.metrics();
    expect(text).toContain('hangar_sandboxes{state="RUNNING"} 2');
    expect(text).toMatch(/^hangar_kube_pod_watch_relists 3$/m);
    // A runtime without a watch (the local one): no such series.
    expect(await createMetrics(() => ({})).registry.metrics()).not.toContain("hangar_kube_pod_watch_relists");
  });
});
