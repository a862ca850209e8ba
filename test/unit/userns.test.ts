// Whether the cluster runs pods in user namespaces: the verdict on the probe pod (pure, by status).
import type { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { isHostMapping, probePod, refusedBy, usernsDecision, usernsVerdict } from "../../runtime/kubernetes/pod/userns.js";
import { buildPod } from "../../runtime/kubernetes/pod/spec.js";
import { spec } from "./fixtures.js";

const at = (status: V1Pod["status"]): V1Pod => ({ metadata: { creationTimestamp: new Date(0) }, status });
const done = (exitCode: number, message: string) =>
  at({
    phase: exitCode ? "Failed" : "Succeeded",
    containerStatuses: [
      { name: "probe", image: "i", imageID: "", ready: false, restartCount: 0, state: { terminated: { exitCode, message } } },
    ],
  });

describe("the user-namespace probe", () => {
  it("a host mapping is one that maps uid 0 to host uid 0", () => {
    expect(isHostMapping("         0          0 4294967295\n")).toBe(true);
    expect(isHostMapping("         0 1879048192      65536\n")).toBe(false);
  });
  const cases: [string, V1Pod, number, string][] = [
    ["a shifted uid_map", done(0, "         0 1879048192      65536\n"), 1000, "supported"],
    ["the host's uid_map: hostUsers was ignored", done(0, "0 0 4294967295\n"), 1000, "unsupported"],
    ["no answer", done(0, ""), 1000, "unsupported"],
    ["a failed probe", done(1, "boom"), 1000, "unsupported"],
    [
      "an image that cannot be pulled",
      at({
        phase: "Pending",
        containerStatuses: [
          { name: "probe", image: "i", imageID: "", ready: false, restartCount: 0, state: { waiting: { reason: "ErrImageNeverPull" } } },
        ],
      }),
      1000,
      "unknown",
    ],
    [
      "still creating",
      at({
        phase: "Pending",
        containerStatuses: [
          { name: "probe", image: "i", imageID: "", ready: false, restartCount: 0, state: { waiting: { reason: "ContainerCreating" } } },
        ],
      }),
      1000,
      "pending",
    ],
    [
      "a sandbox the kubelet refuses, past the timeout",
      at({
        phase: "Pending",
        conditions: [
          {
            type: "PodReadyToStartContainers",
            status: "False",
            message: "can't set spec.hostUsers: false, runtime does not support user namespaces",
          },
        ],
      }),
      70_000,
      "unsupported",
    ],
    ["a Failed phase", at({ phase: "Failed", message: "Pod was rejected" }), 1000, "unsupported"],
    ["no answer past the timeout (a slow or faulty cluster): not a no", at({ phase: "Pending" }), 70_000, "unknown"],
    [
      "a sandbox refused for another reason, past the timeout (the network plugin restarting)",
      at({
        phase: "Pending",
        conditions: [
          {
            type: "PodReadyToStartContainers",
            status: "False",
            message: "failed to setup network for sandbox: cni plugin not initialized",
          },
        ],
      }),
      70_000,
      "unknown",
    ],
    [
      "an image pull backing off",
      at({
        phase: "Pending",
        containerStatuses: [
          {
            name: "probe",
            image: "i",
            imageID: "",
            ready: false,
            restartCount: 0,
            state: { waiting: { reason: "ImagePullBackOff", message: "back-off" } },
          },
        ],
      }),
      1000,
      "unknown",
    ],
  ];
  for (const [name, pod, now, want] of cases) it(`${name}: ${want}`, () => expect(usernsVerdict(pod, now, 60_000).t).toBe(want));
  it("only the cluster's no turns user namespaces off; a probe that learnt nothing keeps them on", () => {
    expect(usernsDecision({ t: "supported", uidMap: "0 1879048192 65536" })).toMatchObject({ on: true, proven: true });
    expect(usernsDecision({ t: "unsupported", reason: "the node refused it" })).toMatchObject({
      on: false,
      message: expect.stringMatching(/without user namespaces.*the node refused it/),
    });
    expect(usernsDecision({ t: "unknown", reason: "the probe pod did not finish in 45s" })).toMatchObject({
      on: true,
      proven: false,
      note: expect.stringMatching(/not proven \(the probe pod did not finish in 45s\)/),
    });
  });
  it("says why when the kubelet refused the pod", () => {
    const v = usernsVerdict(cases[6]?.[1] as V1Pod, 70_000, 60_000);
    expect(v).toEqual({
      t: "unsupported",
      reason: "the probe pod did not finish in 60s (can't set spec.hostUsers: false, runtime does not support user namespaces)",
    });
  });
  it("the kubelet's refusal in the events says why at once", () => {
    expect(
      refusedBy([
        { reason: "Scheduled", message: "assigned" },
        {
          reason: "FailedCreatePodSandBox",
          message: "Failed to create pod sandbox: can't set `spec.hostUsers: false`, runtime does not support user namespaces",
        },
      ]),
    ).toBe(
      "the node refused it: Failed to create pod sandbox: can't set `spec.hostUsers: false`, runtime does not support user namespaces",
    );
    expect(refusedBy([{ reason: "FailedCreatePodSandBox", message: "network plugin not ready" }])).toBeUndefined();
  });
  it("the probe pod asks for a user namespace and nothing else", () => {
    const p = probePod("p", "ns", "hangar:1", "/app/.build/hangar-netinit");
    expect(p.spec?.hostUsers).toBe(false);
    expect(p.spec?.containers[0]?.command).toEqual(["/app/.build/hangar-netinit", "uidmap"]);
    expect(p.spec?.automountServiceAccountToken).toBe(false);
  });
  it("sandbox pods get hostUsers: false only when asked", () => {
    expect(
      buildPod("0f0e0d0c-0b0a-4000-8000-000000000001", spec({}), { namespace: "ns", egress: false, hostUsers: false }).spec?.hostUsers,
    ).toBe(false);
    expect(buildPod("0f0e0d0c-0b0a-4000-8000-000000000001", spec({}), { namespace: "ns", egress: false }).spec?.hostUsers).toBeUndefined();
  });
});
