import { describe, expect, it } from "vitest";
import { toDomainSpec } from "../../api/spec.js";
import { runStartupProbe, type StartupProbe } from "../../core/probe.js";
import { buildPod } from "../../runtime/kubernetes/pod/spec.js";
import { observePod } from "../../runtime/kubernetes/pod/state.js";
import { spec } from "./fixtures.js";

const probe = (o: Partial<StartupProbe> = {}): StartupProbe => ({
  exec: ["test", "-f", "/ready"],
  periodSeconds: 2,
  timeoutSeconds: 1,
  failureThreshold: 3,
  initialDelaySeconds: 5,
  ...o,
});

describe("startup probe", () => {
  const table: [string, (number | Error)[], StartupProbe, { ok: boolean; attempts: number; reason?: RegExp }, number[]][] = [
    ["passes at once after the initial delay", [0], probe(), { ok: true, attempts: 1 }, [5000]],
    ["passes on the third try, a period between tries", [1, 1, 0], probe(), { ok: true, attempts: 3 }, [5000, 2000, 2000]],
    [
      "fails failure_threshold times in a row",
      [1, 2, 3],
      probe(),
      { ok: false, attempts: 3, reason: /failed 3 times \(last: exit code 3\)/ },
      [5000, 2000, 2000],
    ],
    [
      "a try past its timeout is a failure",
      [124],
      probe({ failureThreshold: 1 }),
      { ok: false, attempts: 1, reason: /failed 1 time \(last: timed out after 1s\)/ },
      [5000],
    ],
    ["a try that cannot run is a failure", [new Error("no such program"), 0], probe(), { ok: true, attempts: 2 }, [5000, 2000]],
  ];
  for (const [what, codes, p, want, sleeps] of table) {
    it(what, async () => {
      const slept: number[] = [];
      const runs: number[] = [];
      const got = await runStartupProbe(
        p,
        async (_argv, timeoutMs) => {
          runs.push(timeoutMs);
          const c = codes.shift();
          if (c instanceof Error) throw c;
          return c ?? 0;
        },
        async (ms) => void slept.push(ms),
      );
      expect(got.ok).toBe(want.ok);
      expect(got.attempts).toBe(want.attempts);
      if (want.reason) expect(!got.ok && got.reason).toMatch(want.reason);
      expect(slept).toEqual(sleeps);
      expect(runs.every((t) => t === p.timeoutSeconds * 1000)).toBe(true);
    });
  }
  it("stops when the sandbox ends", async () => {
    const got = await runStartupProbe(
      probe(),
      async () => 1,
      async () => undefined,
      () => false,
    );
    expect(got).toMatchObject({ ok: false, reason: /ended/ });
  });
  const create = (p: unknown) =>
    toDomainSpec({ containers: [{ image: "python:3.11", startup_probe: p }] } as never, { maxLifetimeSeconds: 60 });
  it("fields left 0 get Kubernetes' defaults; bad values are refused naming the field", () => {
    expect(create({ exec: ["true"] }).startupProbe).toEqual({
      exec: ["true"],
      periodSeconds: 10,
      timeoutSeconds: 1,
      failureThreshold: 3,
      initialDelaySeconds: 0,
    });
    expect(() => create({})).toThrow(/startup_probe\.exec: required/);
    expect(() => create({ exec: ["true"], period_seconds: -1 })).toThrow(/startup_probe\.period_seconds: must be 1 to 3600/);
    expect(() => create({ exec: ["true"], period_seconds: 3600, failure_threshold: 10 })).toThrow(/startup_probe: may take up to/);
  });
  it("Kubernetes: the container's startupProbe; RUNNING only once the kubelet says started; killed before that is a failed start", () => {
    const pod = buildPod("abc", spec({ startupProbe: probe() }), { namespace: "ns", egress: false });
    expect(pod.spec?.containers[0]?.startupProbe).toEqual({
      exec: { command: ["test", "-f", "/ready"] },
      periodSeconds: 2,
      timeoutSeconds: 1,
      failureThreshold: 3,
      initialDelaySeconds: 5,
    });
    const now = Date.now();
    const at = (status: object) =>
      observePod({ ...pod, metadata: { ...pod.metadata, creationTimestamp: new Date(now) }, status } as never, now, 60_000);
    expect(at({ containerStatuses: [{ name: "main", started: false, state: { running: {} } }] })).toEqual({
      t: "starting",
      reason: "waiting for the startup probe to pass",
    });
    expect(at({ containerStatuses: [{ name: "main", started: true, state: { running: {} } }] })).toEqual({ t: "running" });
    expect(
      at({
        phase: "Failed",
        containerStatuses: [{ name: "main", started: false, state: { terminated: { exitCode: 137, reason: "Error" } } }],
      }),
    ).toMatchObject({ t: "start-failed", reason: expect.stringMatching(/startup probe did not pass/) });
    // Without a probe, running is running.
    const plain = buildPod("abc", spec(), { namespace: "ns", egress: false });
    expect(
      observePod(
        { ...plain, status: { containerStatuses: [{ name: "main", started: false, state: { running: {} } }] } } as never,
        now,
        60_000,
      ),
    ).toEqual({ t: "running" });
  });
});
