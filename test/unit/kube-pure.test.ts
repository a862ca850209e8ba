import type { V1Pod } from "@kubernetes/client-node";
import { allowsEgress } from "../../core/egress.js";
import { describe, expect, it } from "vitest";
import { tightenedDeadline } from "../../runtime/kubernetes/pod/deadline.js";
import { isForbidden, isTransient, podCreateError, retryStartWrite, retryWhile } from "../../runtime/kubernetes/kube-errors.js";
import { NO_PROGRAM } from "../../runtime/kubernetes/exec/path.js";
import { readableLabel, sandboxLabels, tagLabelKey, tagSelector, TAGS_ANNOTATION } from "../../runtime/kubernetes/pod/labels.js";
import { buildPod, ephemeralStorageLimit, KEPT_CAPABILITIES } from "../../runtime/kubernetes/pod/spec.js";
import { observePod } from "../../runtime/kubernetes/pod/state.js";
import { spec } from "./fixtures.js";

const ID = "0f0e0d0c-0b0a-4000-8000-000000000001";

describe("tags as labels", () => {
  it("any tag becomes a valid label key, the same tag always the same key", () => {
    for (const t of ["simple", "with space", "ünïcødé", "a:b", "x".repeat(256), "slash/and=equals,comma"]) {
      expect(tagLabelKey(t)).toMatch(/^t\.hangar\.dev\/[0-9a-f]{40}$/);
      expect(tagLabelKey(t)).toBe(tagLabelKey(t));
    }
    expect(tagLabelKey("a")).not.toBe(tagLabelKey("b"));
  });
  const readable: [string, [string, string] | undefined][] = [
    ["team:ml", ["tag.hangar.dev/team", "ml"]],
    ["run:2024-01.a_b", ["tag.hangar.dev/run", "2024-01.a_b"]],
    ["k:", ["tag.hangar.dev/k", ""]],
    ["no-colon", undefined],
    [":novalue", undefined],
    ["bad key:v", undefined],
    ["k:bad value", undefined],
  ];
  for (const [tag, want] of readable) it(`readable label for ${JSON.stringify(tag)}`, () => expect(readableLabel(tag)).toEqual(want));
  it("one selector finds all requested tags", () => {
    expect(tagSelector(["a", "b", "a"])).toBe(`app.kubernetes.io/managed-by=hangar,${tagLabelKey("a")},${tagLabelKey("b")}`);
    expect(sandboxLabels(ID, ["team:ml"])).toMatchObject({
      "hangar.dev/sandbox-id": ID,
      [tagLabelKey("team:ml")]: "1",
      "tag.hangar.dev/team": "ml",
    });
  });
  it("the exact tag list round-trips through the annotation", () => {
    const tags = ["b", "a", "b", "with space", "é"];
    const pod = buildPod(ID, spec({ tags }), { namespace: "ns", egress: false });
    expect(JSON.parse(pod.metadata?.annotations?.[TAGS_ANNOTATION] ?? "")).toEqual(tags);
  });
});

describe("buildPod", () => {
  const pod = buildPod(
    ID,
    spec({
      argv: ["/bin/sh", "-c", "sleep 1"],
      env: { A: "1" },
      requests: { cpu: "500m", memory: "512Mi" },
      limits: { cpu: "1", memory: "1Gi", gpuCount: 2 },
      volumes: [
        { name: "ws", mountPath: "/workspace", size: "1Gi" },
        { name: "ws", mountPath: "/data", size: "1Gi", readOnly: true, subPath: "out" },
      ],
    }),
    {
      namespace: "ns",
      activeDeadlineSeconds: 120,
      runtimeClassName: "gvisor",
      egress: false,
      gpu: {
        resource: "nvidia.com/gpu",
        count: 2,
        affinity: [{ matchExpressions: [{ key: "nvidia.com/gpu.product", operator: "In", values: ["NVIDIA-H100-80GB-HBM3"] }] }],
      },
    },
  );
  const c = pod.spec?.containers[0];
  it("is locked down by default", () => {
    expect(pod.spec).toMatchObject({
      restartPolicy: "Never",
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      activeDeadlineSeconds: 120,
      runtimeClassName: "gvisor",
      shareProcessNamespace: true,
    });
    expect(c?.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      privileged: false,
      capabilities: { drop: ["ALL"], add: KEPT_CAPABILITIES },
      seccompProfile: { type: "RuntimeDefault" },
    });
    expect(pod.metadata?.labels?.["hangar.dev/egress"]).toBe("deny");
  });
  it("carries command, env and the caller's quantity strings verbatim, GPUs as the configured resource (requests = limits) with their node affinity", () => {
    expect(c).toMatchObject({ name: "main", command: ["/bin/sh"], args: ["-c", "sleep 1"], env: [{ name: "A", value: "1" }] });
    expect(c?.resources).toEqual({
      requests: { cpu: "500m", memory: "512Mi", "nvidia.com/gpu": "2" },
      limits: { cpu: "1", memory: "1Gi", "nvidia.com/gpu": "2" },
    });
    expect(pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: "nvidia.com/gpu.product", operator: "In", values: ["NVIDIA-H100-80GB-HBM3"] }] },
    ]);
    expect(buildPod(ID, spec(), { namespace: "ns", egress: false }).spec?.affinity).toBeUndefined();
    expect(pod.spec?.volumes).toEqual([{ name: "vol-ws", emptyDir: { sizeLimit: "1Gi" } }]);
    expect(c?.volumeMounts).toEqual([
      { name: "vol-ws", mountPath: "/workspace" },
      { name: "vol-ws", mountPath: "/data", readOnly: true, subPath: "out" },
    ]);
  });
  it("egress follows the request over the default", () => {
    expect(
      buildPod(ID, spec({ denyEgress: false }), { namespace: "ns", egress: allowsEgress(spec({ denyEgress: false }), true) }).metadata
        ?.labels?.["hangar.dev/egress"],
    ).toBe("allow");
  });
});

describe("pod tolerations", () => {
  it("carries the configured tolerations, and none when none are configured", () => {
    const t = [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }];
    expect(buildPod(ID, spec(), { namespace: "ns", egress: false, tolerations: t }).spec?.tolerations).toEqual(t);
    expect(buildPod(ID, spec(), { namespace: "ns", egress: false, tolerations: [] }).spec?.tolerations).toBeUndefined();
  });
});

describe("observePod", () => {
  const at = (over: Partial<V1Pod["status"]>, created = 0): V1Pod => ({ metadata: { creationTimestamp: new Date(created) }, status: over });
  const main = (state: object, extra: object = {}) => ({
    containerStatuses: [{ name: "main", image: "x", imageID: "", ready: false, restartCount: 0, state, ...extra }],
  });
  const cases: [string, V1Pod, number, ReturnType<typeof observePod>][] = [
    ["pending, just created", at({ phase: "Pending" }), 1000, { t: "starting", reason: "Pending" }],
    ["container running", at({ phase: "Running", ...main({ running: {} }) }), 1000, { t: "running" }],
    [
      "image missing",
      at({ phase: "Pending", ...main({ waiting: { reason: "ErrImageNeverPull", message: "no image" } }) }),
      1000,
      { t: "start-failed", reason: "ErrImageNeverPull: no image" },
    ],
    [
      "natural exit 0",
      at({ phase: "Succeeded", ...main({ terminated: { exitCode: 0, reason: "Completed" } }) }),
      1000,
      { t: "exited", exitCode: 0, reason: "Completed" },
    ],
    [
      "exit 3",
      at({ phase: "Failed", ...main({ terminated: { exitCode: 3, reason: "Error" } }) }),
      1000,
      { t: "exited", exitCode: 3, reason: "Error" },
    ],
    [
      "command not found",
      at({ phase: "Failed", ...main({ terminated: { exitCode: 128, reason: "StartError", message: "exec: nope: not found" } }) }),
      1000,
      { t: "start-failed", reason: "StartError: exec: nope: not found" },
    ],
    [
      "deadline exceeded",
      at({ phase: "Failed", reason: "DeadlineExceeded" }),
      1000,
      {
        t: "exited",
        exitCode: 137,
        reason: "max lifetime (activeDeadlineSeconds) reached",
        endedBy: "max lifetime (activeDeadlineSeconds) reached",
      },
    ],
    [
      "deleted behind Hangar's back, then exited",
      {
        ...at({ phase: "Failed", ...main({ terminated: { exitCode: 143, reason: "Error" } }) }),
        metadata: { deletionTimestamp: new Date(5) },
      },
      1000,
      { t: "exited", exitCode: 143, reason: "Error", endedBy: "the pod was deleted" },
    ],
    [
      "deleted before any node took it",
      {
        metadata: { creationTimestamp: new Date(0), deletionTimestamp: new Date(5) },
        spec: { containers: [] },
        status: { phase: "Pending" },
      },
      1000,
      { t: "exited", exitCode: 137, reason: "the pod was deleted before it started", endedBy: "the pod was deleted" },
    ],
    [
      "evicted over its disk, the container killed",
      at({
        phase: "Failed",
        reason: "Evicted",
        message: "Pod ephemeral local storage usage exceeds the total limit of containers 67108864. ",
        ...main({ terminated: { exitCode: 137, reason: "Error" } }),
      }),
      1000,
      {
        t: "exited",
        exitCode: 137,
        reason: "evicted by the kubelet: Pod ephemeral local storage usage exceeds the total limit of containers 67108864.",
        endedBy: "evicted by the kubelet: Pod ephemeral local storage usage exceeds the total limit of containers 67108864.",
      },
    ],
    [
      "evicted before any container status",
      at({ phase: "Failed", reason: "Evicted", message: "The node was low on resource: ephemeral-storage." }),
      1000,
      {
        t: "exited",
        exitCode: 137,
        reason: "evicted by the kubelet: The node was low on resource: ephemeral-storage.",
        endedBy: "evicted by the kubelet: The node was low on resource: ephemeral-storage.",
      },
    ],
    [
      "unschedulable past the timeout",
      at({ phase: "Pending", conditions: [{ type: "PodScheduled", status: "False", message: "0/1 nodes available" }] }),
      200_000,
      { t: "start-failed", reason: "not running after 120s (unschedulable: 0/1 nodes available)" },
    ],
  ];
  for (const [name, pod, now, want] of cases) it(name, () => expect(observePod(pod, now, 120_000)).toEqual(want));
});

describe("tightenedDeadline: Kubernetes' backstop counted from the sandbox's start", () => {
  const pod = (deadline: number | undefined, start: string | undefined) => ({
    spec: { containers: [], activeDeadlineSeconds: deadline },
    status: { startTime: start ? new Date(start) : undefined },
  });
  const t0 = Date.parse("2026-11-24T10:00:00Z");
  const table: [string, ReturnType<typeof pod> | undefined, number | undefined, number | undefined][] = [
    [
      "cold pod that ran 2.7 s after its start: 2 s (whole seconds, down) + lifetime 60 + margin 2",
      pod(60 + 180 + 2, "2026-11-24T10:00:00Z"),
      t0 + 2700,
      64,
    ],
    ["started the moment the pod did", pod(242, "2026-11-24T10:00:00Z"), t0, 62],
    ["never raised (Kubernetes refuses an increase)", pod(50, "2026-11-24T10:00:00Z"), t0 + 30_000, undefined],
    ["equal: no patch", pod(62, "2026-11-24T10:00:00Z"), t0, undefined],
    ["no deadline on the pod", pod(undefined, "2026-11-24T10:00:00Z"), t0, undefined],
    ["pod start unknown", pod(242, undefined), t0, undefined],
    ["not started", pod(242, "2026-11-24T10:00:00Z"), undefined, undefined],
    ["no pod seen", undefined, t0, undefined],
  ];
  for (const [name, p, started, want] of table) it(name, () => expect(tightenedDeadline(p as never, started, 60, 2)).toBe(want));
});

describe("isTransient: one reading of Kubernetes API failures", () => {
  const table: [string, unknown, boolean][] = [
    [
      "connection refused (apiserver restarting)",
      Object.assign(new Error("request to https://127.0.0.1:6443/api failed, reason: connect ECONNREFUSED 127.0.0.1:6443"), {
        code: "ECONNREFUSED",
      }),
      true,
    ],
    ["refused, in the message only", new Error("connect ECONNREFUSED 127.0.0.1:6443"), true],
    ["watch cut", Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" }), true],
    ["503 from the apiserver", { code: 503, body: "etcdserver: leader changed" }, true],
    ["429 throttled", { statusCode: 429 }, true],
    ["cause chain", Object.assign(new Error("fetch failed"), { cause: { code: "ECONNRESET" } }), true],
    ["no list yet", new Error("could not list the sandbox pods (apiserver is unreachable?)"), true],
    ["403 forbidden", { code: 403, body: "forbidden" }, false],
    ["404 namespace missing", { code: 404 }, false],
    ["422 invalid", { code: 422 }, false],
    ["a configuration error", new Error("HANGAR_KUBE_USER_NAMESPACES=required, but ..."), false],
    ["nothing", undefined, false],
  ];
  for (const [name, e, want] of table) it(name, () => expect(isTransient(e)).toBe(want));
});

describe("podCreateError: a refused pod create as the caller sees it", () => {
  const status = (code: number, message: string) => ({ code, body: JSON.stringify({ kind: "Status", message }) });
  const table: [string, unknown, string, string | undefined, RegExp][] = [
    [
      "apiserver away: retryable",
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6443"), { code: "ECONNREFUSED" }),
      "UNAVAILABLE",
      "CWSANDBOX_BACKEND_UNAVAILABLE",
      /Kubernetes API is not answering/,
    ],
    ["apiserver overloaded", status(503, "etcd leader changed"), "UNAVAILABLE", "CWSANDBOX_BACKEND_UNAVAILABLE", /etcd leader changed/],
    [
      "quota used up: capacity, retry later",
      status(403, 'pods "sbx-1" is forbidden: exceeded quota: q, requested: pods=1, used: pods=10, limited: pods=10'),
      "RESOURCE_EXHAUSTED",
      "CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED",
      /quota is used up: .*exceeded quota/,
    ],
    [
      "admission policy: refused for good, its message passed on",
      status(422, "ValidatingAdmissionPolicy 'hangar-sandbox-shape' denied request: no host namespaces"),
      "FAILED_PRECONDITION",
      undefined,
      /cluster refused the sandbox's pod: ValidatingAdmissionPolicy/,
    ],
    ["forbidden otherwise", status(403, "forbidden: User cannot create pods"), "FAILED_PRECONDITION", undefined, /User cannot create pods/],
  ];
  for (const [name, e, code, reason, msg] of table)
    it(name, () => {
      const err = podCreateError(e);
      expect(err.code).toBe(code);
      expect(err.reason).toBe(reason);
      expect(err.message).toMatch(msg);
    });
});

describe("pod creates denied by RBAC are retried for a few seconds (an apiserver that just restarted)", () => {
  const status = (code: number, message: string) => ({ code, body: JSON.stringify({ kind: "Status", message }) });
  const denied = status(403, 'pods is forbidden: User "system:serviceaccount:hangar-test:hangar" cannot create resource "pods"');
  const quota = status(403, 'pods "sbx-1" is forbidden: exceeded quota: q, requested: pods=1, used: pods=10, limited: pods=10');
  const failing = (errs: unknown[]) => {
    let calls = 0;
    return {
      call: async () => {
        const e = errs[calls++];
        if (e) throw e;
        return "made";
      },
      calls: () => calls,
    };
  };
  it("a denial that clears: the create is made", async () => {
    const f = failing([denied, denied]);
    await expect(retryWhile(f.call, isForbidden, 5)).resolves.toBe("made");
    expect(f.calls()).toBe(3);
  });
  it("a quota, an invalid pod or a transient error is not retried here", async () => {
    for (const e of [quota, status(422, "invalid"), Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })]) {
      const f = failing([e]);
      await expect(retryWhile(f.call, isForbidden, 5)).rejects.toBe(e);
      expect(f.calls()).toBe(1);
    }
  });
  it("a denial that lasts is the configuration's answer after the attempts", async () => {
    const f = failing([denied, denied, denied]);
    await expect(retryWhile(f.call, isForbidden, 2)).rejects.toBe(denied);
    expect(f.calls()).toBe(2);
    expect(podCreateError(denied).code).toBe("FAILED_PRECONDITION");
  });
  it("the start's other writes (Secrets, Service, routes) retry a denial and an unanswering apiserver, not a quota or an invalid object", async () => {
    const down = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const f = failing([denied, down]);
    await expect(retryStartWrite(f.call)).resolves.toBe("made");
    expect(f.calls()).toBe(3);
    for (const e of [quota, status(422, "invalid")]) {
      const g = failing([e]);
      await expect(retryStartWrite(g.call)).rejects.toBe(e);
      expect(g.calls()).toBe(1);
    }
  });
});

describe("NO_PROGRAM: only a missing program means 'no shell'; an unreachable pod is no answer", () => {
  const table: [string, boolean][] = [
    [
      'exec failed: OCI runtime exec failed: exec failed: unable to start container process: exec: "/bin/sh": stat /bin/sh: no such file or directory: unknown',
      true,
    ],
    ['exec failed: exec: "/bin/sh": executable file not found in $PATH', true],
    ["could not open the exec websocket: connect ECONNREFUSED 127.0.0.1:6443", false],
    ["could not open the exec websocket: Unexpected server response: 500", false],
    ["exec failed: error dialing backend: dial tcp 192.0.2.2:10250: connect: connection refused", false],
    ["the exec websocket closed without an exit status (the pod may have stopped)", false],
  ];
  for (const [message, none] of table) it(message, () => expect(NO_PROGRAM.test(message)).toBe(none));
});

describe("a sandbox pod's own disk (ADR 0028)", () => {
  const GI = 1024 ** 3;
  it("caps the main container at the base plus each sized scratch volume once; requests none, so scheduling is unchanged", () => {
    const s = {
      ...spec(),
      volumes: [
        { name: "ws", mountPath: "/ws", size: "1Gi" },
        { name: "ws", mountPath: "/again", subPath: "x", size: "1Gi" },
        { name: "cache", mountPath: "/cache" },
      ],
    };
    expect(ephemeralStorageLimit(s, 10 * GI)).toBe(String(11 * GI));
    expect(ephemeralStorageLimit(s, undefined)).toBeUndefined();
    const pod = buildPod(ID, s, { namespace: "ns", egress: false, ephemeralStorageBytes: 10 * GI });
    const main = pod.spec?.containers[0];
    expect(main?.resources?.limits?.["ephemeral-storage"]).toBe(String(11 * GI));
    expect(main?.resources?.requests?.["ephemeral-storage"]).toBe("0");
    expect(
      buildPod(ID, s, { namespace: "ns", egress: false }).spec?.containers[0]?.resources?.limits?.["ephemeral-storage"],
    ).toBeUndefined();
  });
});
