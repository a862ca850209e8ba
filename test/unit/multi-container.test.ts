import { describe, expect, it } from "vitest";
import { toDomainSpec } from "../../api/spec.js";
import { chooseRunner } from "../../controller/placement.js";
import { containerTarget, type RunnerInfo } from "../../core/types.js";
import { buildPod, KEPT_CAPABILITIES } from "../../runtime/kubernetes/pod/spec.js";
import { poolFor } from "../../runtime/kubernetes/pool/warm-pool.js";
import { observePod, slimPod } from "../../runtime/kubernetes/pod/state.js";
import { subject } from "./subjects.js";

const keep = (o: object) => ({
  image: "python:3.11",
  command: "sleep",
  args: ["infinity"],
  resources: { cpu: "500m", memory: "256Mi" },
  ...o,
});
const create = (containers: object[], volumes: object[] = []) => toDomainSpec({ containers, volumes } as never, { maxLifetimeSeconds: 60 });

describe("multi-container sandboxes", () => {
  it("one primary, the others sidecars sharing the volumes", () => {
    const s = create(
      [
        keep({ name: "helper", volume_mounts: [{ volume: "ws", mount_path: "/ws" }] }),
        keep({ name: "main", primary: true, volume_mounts: [{ volume: "ws", mount_path: "/ws" }] }),
      ],
      [{ name: "ws", scratch: { size: "1Gi" } }],
    );
    expect(s.primaryName).toBe("main");
    expect(s.argv).toEqual(["sleep", "infinity"]);
    expect(s.sidecars).toEqual([
      {
        name: "helper",
        image: "python:3.11",
        argv: ["sleep", "infinity"],
        env: {},
        requests: { cpu: "500m", memory: "256Mi" },
        limits: { cpu: "500m", memory: "256Mi" },
        volumes: [{ name: "ws", mountPath: "/ws", size: "1Gi" }],
      },
    ]);
    expect(containerTarget(s, undefined)).toEqual({});
    expect(containerTarget(s, "main")).toEqual({});
    expect(containerTarget(s, "helper")).toEqual({ sidecar: "helper" });
    expect(containerTarget(s, "nope")).toBeUndefined();
  });
  const bad: [string, object[], RegExp][] = [
    ["no primary", [keep({ name: "a" }), keep({ name: "b" })], /containers: exactly one container must be primary \(got 0 of 2\)/],
    [
      "two primaries",
      [keep({ name: "a", primary: true }), keep({ name: "b", primary: true })],
      /exactly one container must be primary \(got 2 of 2\)/,
    ],
    ["a name used twice", [keep({ name: "a", primary: true }), keep({ name: "a" })], /containers\[1\]\.name: a is used twice/],
    ["no name", [keep({ name: "a", primary: true }), keep({})], /containers\[1\]\.name: required with more than one container/],
    [
      "files on a sidecar",
      [keep({ name: "a", primary: true }), keep({ name: "b", files: [{ path: "/f", content: Buffer.from("x") }] })],
      /containers\[1\]\.files: only the primary container takes this/,
    ],
    [
      "GPUs on a sidecar",
      [keep({ name: "a", primary: true }), keep({ name: "b", resources: { gpu: { count: 1 } } })],
      /containers\[1\]\.resources\.gpu: GPUs go to the primary container only/,
    ],
    [
      "a sidecar named main",
      [keep({ name: "a", primary: true }), keep({ name: "main" })],
      /containers\[1\]\.name: "main" is the primary container's name here/,
    ],
  ];
  for (const [what, containers, re] of bad) it(`refuses ${what}, naming the field`, () => expect(() => create(containers)).toThrow(re));

  it("runs only where a runner offers several containers (the local runtime refuses, as the SDK's tests expect)", () => {
    const runner: RunnerInfo = {
      runnerId: "r",
      runnerGroupId: "g",
      organizationId: "o",
      architectures: [],
      healthy: true,
      connectedAtMs: 0,
      maxCpuMillicores: 1,
      maxMemoryBytes: 1,
      availableCpuMillicores: 1,
      availableMemoryBytes: 1,
      runningSandboxes: 0,
      runtimeClasses: [],
    };
    const s = create([keep({ name: "main", primary: true }), keep({ name: "helper" })]);
    expect(chooseRunner(s, [runner])).toMatchObject({
      field: subject("spec.sidecars", "sandbox.spec.containers"),
      refused: expect.stringMatching(/only one container is supported/),
    });
    expect(chooseRunner(s, [{ ...runner, multiContainer: true }])).toHaveProperty("runner");
  });
  it("one pod: each sidecar a native sidecar confined as the primary, started in order before it; every volume once; never from a warm pool", () => {
    const probe = { exec: ["redis-cli", "ping"], period_seconds: 1 };
    const s = create(
      [
        keep({ name: "main", primary: true }),
        keep({ name: "helper", volume_mounts: [{ volume: "only-helper", mount_path: "/h" }] }),
        keep({ name: "db", startup_probe: probe }),
      ],
      [{ name: "only-helper", scratch: {} }],
    );
    const pod = buildPod("abc", s, {
      namespace: "ns",
      egress: false,
      netinit: { image: "netinit:1", path: "/netinit", policy: { allow: [] } as never },
    });
    expect(pod.spec?.containers?.map((c) => c.name)).toEqual(["main"]);
    const [netinit, helper, db] = pod.spec?.initContainers ?? [];
    expect(netinit?.restartPolicy).toBeUndefined();
    expect(helper).toMatchObject({
      name: "helper",
      image: "python:3.11",
      restartPolicy: "Always",
      command: ["sleep"],
      args: ["infinity"],
      securityContext: { allowPrivilegeEscalation: false, privileged: false, capabilities: { drop: ["ALL"], add: KEPT_CAPABILITIES } },
    });
    expect(helper?.startupProbe).toBeUndefined();
    expect(db).toMatchObject({
      name: "db",
      restartPolicy: "Always",
      startupProbe: { exec: { command: ["redis-cli", "ping"] }, periodSeconds: 1 },
    });
    expect(pod.spec?.volumes?.map((v) => v.name)).toEqual(["vol-only-helper"]);
    expect(pod.spec?.hostAliases).toBeUndefined();
    expect(poolFor(s, [{ image: "python:3.11", size: 1 } as never], false)).toBeUndefined();
  });
  it("host aliases resolve to loopback", () => {
    const s = { ...create([keep({ name: "main", primary: true }), keep({ name: "db" })]), hostAliases: ["db", "main"] };
    expect(buildPod("abc", s, { namespace: "ns", egress: false }).spec?.hostAliases).toEqual([
      { ip: "127.0.0.1", hostnames: ["db", "main"] },
    ]);
  });
});

describe("native sidecars in the pod's status", () => {
  const at = new Date(0);
  const spec = {
    initContainers: [
      { name: "netinit" },
      { name: "db", restartPolicy: "Always", startupProbe: { exec: { command: ["true"] } } },
      { name: "web", restartPolicy: "Always" },
    ],
    containers: [{ name: "main" }],
  };
  const pod = (init: object[], main: object) =>
    ({
      metadata: { creationTimestamp: at },
      spec,
      status: { phase: "Pending", initContainerStatuses: init, containerStatuses: [{ name: "main", ...main }] },
    }) as never;
  const done = { name: "netinit", state: { terminated: { exitCode: 0 } } };
  const cases: [string, object[], object, object][] = [
    [
      "a sidecar still probing: starting, and says which",
      [done, { name: "db", started: false, state: { running: {} } }, { name: "web", state: { waiting: { reason: "PodInitializing" } } }],
      { state: { waiting: { reason: "PodInitializing" } } },
      { t: "starting", reason: "waiting for sidecar db to start (its startup probe)" },
    ],
    [
      "a sidecar whose probe never passed: the start failed",
      [done, { name: "db", started: false, state: { terminated: { exitCode: 137, reason: "Error" } } }],
      { state: { waiting: { reason: "PodInitializing" } } },
      { t: "start-failed", initContainer: "db", reason: "sidecar db: its startup probe did not pass (the kubelet ended it: Error 137)" },
    ],
    [
      "a sidecar that exits before the primary starts: the start failed",
      [
        done,
        { name: "db", started: true, state: { running: {} } },
        { name: "web", started: false, state: { terminated: { exitCode: 1 } } },
      ],
      { state: { waiting: { reason: "PodInitializing" } } },
      { t: "start-failed", initContainer: "web", reason: "sidecar web failed (exit 1)" },
    ],
    [
      "a sidecar that crashes after the primary started: the sandbox follows its primary",
      [done, { name: "db", started: true, state: { running: {} } }, { name: "web", started: true, state: { terminated: { exitCode: 1 } } }],
      { state: { running: {} } },
      { t: "running" },
    ],
    [
      "every sidecar started and the primary running: running",
      [done, { name: "db", started: true, state: { running: {} } }, { name: "web", started: true, state: { running: {} } }],
      { state: { running: {} } },
      { t: "running" },
    ],
  ];
  for (const [what, init, main, want] of cases) it(what, () => expect(observePod(pod(init, main), 1000, 60_000)).toEqual(want));
});

describe("the informer's slim pods (slimPod)", () => {
  // A whole pod as Hangar builds it: a primary with a startup probe, two sidecars, netinit, env, volumes.
  const s = create(
    [keep({ name: "main", primary: true, env: { A: "1" } }), keep({ name: "db" }), keep({ name: "web" })],
    [{ name: "scratch", mount_path: "/w" }],
  );
  const full = buildPod(
    "abc",
    { ...s, startupProbe: { exec: ["true"], periodSeconds: 1, timeoutSeconds: 1, failureThreshold: 3, initialDelaySeconds: 0 } } as never,
    { namespace: "ns", egress: false, hostUsers: false, netinit: { image: "netinit:1", path: "/netinit" } } as never,
  );
  full.metadata = { ...full.metadata, creationTimestamp: new Date(0), managedFields: [{ manager: "kubelet", operation: "Update" }] };
  full.spec = { ...full.spec!, nodeName: "n1", activeDeadlineSeconds: 90 };
  const statuses: [object[], object][] = [
    [[], { state: { waiting: { reason: "PodInitializing" } } }],
    [[{ name: "db", started: false, state: { running: {} } }], { state: { waiting: { reason: "PodInitializing" } } }],
    [[{ name: "db", started: false, state: { terminated: { exitCode: 137, reason: "Error" } } }], { state: { waiting: {} } }],
    [
      [
        { name: "db", started: true, state: { running: {} } },
        { name: "web", started: true, state: { running: {} } },
      ],
      { started: false, state: { running: {} } },
    ],
    [
      [
        { name: "db", started: true, state: { running: {} } },
        { name: "web", started: true, state: { running: {} } },
      ],
      { started: true, state: { running: {} } },
    ],
    [[], { state: { terminated: { exitCode: 0, reason: "Completed", startedAt: new Date(5) } } }],
    [[], { started: false, state: { terminated: { exitCode: 137, reason: "Error" } } }],
  ];
  it("every status reads the same as on the whole pod", () => {
    for (const [init, main] of statuses) {
      const pod = {
        ...structuredClone(full),
        status: { phase: "Pending", initContainerStatuses: init, containerStatuses: [{ name: "main", ...main }] },
      } as never;
      expect(observePod(slimPod(structuredClone(pod)), 1000, 60_000)).toEqual(observePod(pod, 1000, 60_000));
    }
  });
  it("keeps what Hangar reads and drops the rest", () => {
    const p = slimPod(structuredClone(full));
    expect(p.metadata?.managedFields).toBeUndefined();
    expect(p.metadata?.labels).toEqual(full.metadata?.labels);
    expect(p.metadata?.annotations).toEqual(full.metadata?.annotations);
    expect(full.spec?.hostUsers).toBe(false);
    expect(p.spec).toMatchObject({ nodeName: "n1", activeDeadlineSeconds: 90, hostUsers: false });
    expect(p.spec?.containers.map((c) => c.name)).toEqual(full.spec?.containers.map((c) => c.name));
    expect(p.spec?.containers.find((c) => c.name === "main")?.startupProbe).toEqual(
      full.spec?.containers.find((c) => c.name === "main")?.startupProbe,
    );
    expect(p.spec?.initContainers?.map((c) => [c.name, c.restartPolicy])).toEqual(
      full.spec?.initContainers?.map((c) => [c.name, c.restartPolicy]),
    );
    expect(JSON.stringify(p.spec)).not.toMatch(/securityContext|volumeMounts|"env"/);
    expect(p.spec?.volumes).toBeUndefined();
    expect(JSON.stringify(p).length).toBeLessThan(JSON.stringify(full).length / 2);
  });
});
