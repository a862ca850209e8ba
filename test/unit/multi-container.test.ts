import { describe, expect, it } from "vitest";
import { toDomainSpec } from "../../api/spec.js";
import { chooseRunner } from "../../controller/placement.js";
import { containerTarget, type RunnerInfo } from "../../core/types.js";
import { buildPod, KEPT_CAPABILITIES } from "../../runtime/kubernetes/pod-spec.js";
import { poolFor } from "../../runtime/kubernetes/warm-pool.js";

const keep = (o: object) => ({ image: "python:3.11", command: "sleep", args: ["infinity"], resources: { cpu: "500m", memory: "256Mi" }, ...o });
const create = (containers: object[], volumes: object[] = []) => toDomainSpec({ containers, volumes } as never, { maxLifetimeSeconds: 60 });

describe("multi-container sandboxes", () => {
  it("one primary, the others sidecars sharing the volumes", () => {
    const s = create([keep({ name: "helper", volume_mounts: [{ volume: "ws", mount_path: "/ws" }] }), keep({ name: "main", primary: true, volume_mounts: [{ volume: "ws", mount_path: "/ws" }] })], [{ name: "ws", scratch: { size: "1Gi" } }]);
    expect(s.primaryName).toBe("main");
    expect(s.argv).toEqual(["sleep", "infinity"]);
    expect(s.sidecars).toEqual([{ name: "helper", image: "python:3.11", argv: ["sleep", "infinity"], env: {}, requests: { cpu: "500m", memory: "256Mi" }, limits: { cpu: "500m", memory: "256Mi" }, volumes: [{ name: "ws", mountPath: "/ws", size: "1Gi" }] }]);
    expect(containerTarget(s, undefined)).toEqual({});
    expect(containerTarget(s, "main")).toEqual({});
    expect(containerTarget(s, "helper")).toEqual({ sidecar: "helper" });
    expect(containerTarget(s, "nope")).toBeUndefined();
  });
  const bad: [string, object[], RegExp][] = [
    ["no primary", [keep({ name: "a" }), keep({ name: "b" })], /containers: exactly one container must be primary \(got 0 of 2\)/],
    ["two primaries", [keep({ name: "a", primary: true }), keep({ name: "b", primary: true })], /exactly one container must be primary \(got 2 of 2\)/],
    ["a name used twice", [keep({ name: "a", primary: true }), keep({ name: "a" })], /containers\[1\]\.name: a is used twice/],
    ["no name", [keep({ name: "a", primary: true }), keep({})], /containers\[1\]\.name: required with more than one container/],
    ["files on a sidecar", [keep({ name: "a", primary: true }), keep({ name: "b", files: [{ path: "/f", content: Buffer.from("x") }] })], /containers\[1\]\.files: only the primary container takes this/],
    ["GPUs on a sidecar", [keep({ name: "a", primary: true }), keep({ name: "b", resources: { gpu: { count: 1 } } })], /containers\[1\]\.resources\.gpu: GPUs go to the primary container only/],
    ["a sidecar named main", [keep({ name: "a", primary: true }), keep({ name: "main" })], /containers\[1\]\.name: "main" is the primary container's name here/],
  ];
  for (const [what, containers, re] of bad) it(`refuses ${what}, naming the field`, () => expect(() => create(containers)).toThrow(re));

  it("runs only where a runner offers several containers (the local runtime refuses, as the SDK's tests expect)", () => {
    const runner: RunnerInfo = { runnerId: "r", runnerGroupId: "g", organizationId: "o", architectures: [], healthy: true, connectedAtMs: 0, maxCpuMillicores: 1, maxMemoryBytes: 1, availableCpuMillicores: 1, availableMemoryBytes: 1, runningSandboxes: 0, runtimeClasses: [] };
    const s = create([keep({ name: "main", primary: true }), keep({ name: "helper" })]);
    expect(chooseRunner(s, [runner])).toMatchObject({ field: "sandbox.spec.containers", refused: expect.stringMatching(/only one container is supported/) });
    expect(chooseRunner(s, [{ ...runner, multiContainer: true }])).toHaveProperty("runner");
  });
  it("one pod: each sidecar confined as the primary, every volume once; never from a warm pool", () => {
    const s = create([keep({ name: "main", primary: true }), keep({ name: "helper", volume_mounts: [{ volume: "only-helper", mount_path: "/h" }] })], [{ name: "only-helper", scratch: {} }]);
    const pod = buildPod("abc", s, { namespace: "ns", defaultDenyEgress: true });
    const [main, helper] = pod.spec?.containers ?? [];
    expect(main?.name).toBe("main");
    expect(helper).toMatchObject({ name: "helper", image: "python:3.11", command: ["sleep"], args: ["infinity"], securityContext: { allowPrivilegeEscalation: false, privileged: false, capabilities: { drop: ["ALL"], add: KEPT_CAPABILITIES } } });
    expect(pod.spec?.volumes?.map((v) => v.name)).toEqual(["vol-only-helper"]);
    expect(poolFor(s, [{ image: "python:3.11", size: 1 } as never], false)).toBeUndefined();
  });
});
