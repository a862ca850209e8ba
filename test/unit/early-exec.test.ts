/** When a cold start may try exec before the pod's status says main runs (mayExecEarly, ADR 0041). */
import type { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { mayExecEarly } from "../../runtime/kubernetes/pod/state.js";
import { probeShellOnce } from "../../runtime/kubernetes/exec/path.js";

type Over = {
  node?: string;
  inits?: { name: string; restartPolicy?: string }[];
  initStatus?: Record<string, number | "running" | undefined>;
  main?: { waiting?: string; running?: boolean; terminated?: number };
  probe?: boolean;
  deleting?: boolean;
  noIp?: boolean;
};
const pod = (o: Over = {}): V1Pod => ({
  metadata: { name: "sbx-1", ...(o.deleting ? { deletionTimestamp: new Date(0) } : {}) },
  spec: {
    ...(o.node === "" ? {} : { nodeName: o.node ?? "n1" }),
    initContainers: (o.inits ?? [{ name: "hangar-netinit" }]).map((c) => ({ image: "x", ...c })),
    containers: [{ name: "main", image: "python", ...(o.probe ? { startupProbe: { exec: { command: ["true"] } } } : {}) }],
  },
  status: {
    ...(o.noIp ? {} : { podIP: "10.0.0.7" }),
    initContainerStatuses: Object.entries(o.initStatus ?? { "hangar-netinit": 0 }).map(([name, s]) => ({
      name,
      image: "x",
      imageID: "",
      ready: false,
      restartCount: 0,
      state:
        s === "running" ? { running: {} } : s === undefined ? { waiting: { reason: "PodInitializing" } } : { terminated: { exitCode: s } },
    })),
    containerStatuses: o.main
      ? [
          {
            name: "main",
            image: "python",
            imageID: "",
            ready: false,
            restartCount: 0,
            state: o.main.running
              ? { running: {} }
              : o.main.terminated !== undefined
                ? { terminated: { exitCode: o.main.terminated } }
                : { waiting: { reason: o.main.waiting } },
          },
        ]
      : [],
  },
});

describe("mayExecEarly", () => {
  const cases: [string, Over, boolean][] = [
    ["netinit exited 0, main being created: try exec", { main: { waiting: "PodInitializing" } }, true],
    ["main ContainerCreating", { main: { waiting: "ContainerCreating" } }, true],
    ["no status for main yet", {}, true],
    ["no init containers (NetworkPolicy enforcement), scheduled", { inits: [], initStatus: {} }, true],
    ["not scheduled", { node: "" }, false],
    ["no address in its status yet (the direct link and the egress proxy need it)", { noIp: true }, false],
    ["netinit still running", { initStatus: { "hangar-netinit": "running" } }, false],
    ["netinit not started", { initStatus: { "hangar-netinit": undefined } }, false],
    ["netinit failed", { initStatus: { "hangar-netinit": 1 } }, false],
    ["the kubelet already says main runs (the ordinary path)", { main: { running: true } }, false],
    ["main exited", { main: { terminated: 0 } }, false],
    ["main's image cannot be pulled", { main: { waiting: "ErrImagePull" } }, false],
    ["a startup probe gates it", { probe: true, main: { waiting: "PodInitializing" } }, false],
    ["sidecars gate it", { inits: [{ name: "hangar-netinit" }, { name: "db", restartPolicy: "Always" }] }, false],
    ["being deleted", { deleting: true }, false],
  ];
  for (const [name, o, want] of cases) it(name, () => expect(mayExecEarly(pod(o))).toBe(want));
  it("not for a sandbox with service ports (their endpoints follow the kubelet's Ready condition)", () => {
    expect(mayExecEarly(pod({ main: { waiting: "PodInitializing" } }), 1)).toBe(false);
    expect(mayExecEarly(pod({ main: { waiting: "PodInitializing" } }), 0)).toBe(true);
  });
});

describe("probeShellOnce (one early try)", () => {
  const once = (r: number | Error) => probeShellOnce(() => (r instanceof Error ? Promise.reject(r) : Promise.resolve(r)), "sbx-1");
  it("a shell that ran exit 0: true", async () => expect(await once(0)).toBe(true));
  it("the runtime says there is no such program: false", async () =>
    expect(await once(new Error('exec: "/bin/sh": stat /bin/sh: no such file or directory'))).toBe(false));
  it("another exit code (a container not started yet: 126) is no answer, never 'no shell'", async () => {
    expect(await once(126)).toBeUndefined();
    expect(await once(1)).toBeUndefined();
  });
  it("exec not reaching the container yet: no answer", async () => expect(await once(new Error("container not found"))).toBeUndefined());
});
