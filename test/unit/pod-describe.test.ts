import type * as k8s from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { describePod } from "../../runtime/kubernetes/stores/pod-describe.js";

describe("describePod", () => {
  it("lists init containers first, each with its state and reason, and the events oldest first", () => {
    const pod: k8s.V1Pod = {
      status: {
        initContainerStatuses: [
          {
            name: "netinit",
            image: "hangar:dev",
            imageID: "",
            ready: false,
            restartCount: 0,
            state: { terminated: { exitCode: 0, reason: "Completed" } },
          },
        ],
        containerStatuses: [
          {
            name: "main",
            image: "python:3.11",
            imageID: "",
            ready: true,
            restartCount: 1,
            state: { running: { startedAt: new Date(5000) } },
          },
          {
            name: "side",
            image: "busybox",
            imageID: "",
            ready: false,
            restartCount: 0,
            state: { waiting: { reason: "ImagePullBackOff" } },
          },
        ],
      },
    };
    const events = [
      {
        metadata: {},
        involvedObject: {},
        type: "Normal",
        reason: "Started",
        message: "Started container main",
        lastTimestamp: new Date(4000),
      },
      {
        metadata: {},
        involvedObject: {},
        type: "Normal",
        reason: "Scheduled",
        message: "<b>assigned</b>",
        eventTime: new Date(1000),
        count: 2,
      },
    ] as k8s.CoreV1Event[];
    const d = describePod(pod, events);
    expect(d.containers).toEqual([
      { name: "netinit", image: "hangar:dev", state: "terminated", reason: "Completed exit 0", restarts: 0 },
      { name: "main", image: "python:3.11", state: "running", reason: "ready", restarts: 1, startedAtMs: 5000 },
      { name: "side", image: "busybox", state: "waiting", reason: "ImagePullBackOff", restarts: 0 },
    ]);
    expect(d.events.map((e) => [e.atMs, e.reason, e.count])).toEqual([
      [1000, "Scheduled", 2],
      [4000, "Started", 1],
    ]);
    expect(d.events[0]?.message).toBe("<b>assigned</b>"); // as text: the console shows it as text
  });

  it("describes a pod with no status yet as no containers", () => {
    expect(describePod({}, [])).toEqual({ containers: [], events: [] });
  });
});
