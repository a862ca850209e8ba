/**
 * The exec agent delivered from Hangar's image (ADR 0023), on the real cluster: hangar-netinit, the
 * init container every sandbox pod already has, copies hangar-agent into an emptyDir that the
 * sandbox's container mounts read-only. Commands then run on that copy, nothing is copied through
 * exec, the sandbox (root in its container) cannot change or replace it, a Hangar whose agent is
 * another build still installs its own through exec, and warm-pool pods get it the same way.
 */
import * as k8s from "@kubernetes/client-node";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAIN_ARGV, type SandboxSpec } from "../../core/types.js";
import { agentBinary } from "../../runtime/kubernetes/exec/agent-link.js";
import { POOL_LABEL, poolName } from "../../runtime/kubernetes/pool/warm-pool.js";
import { hangarReplica } from "./replica.js";
import { kubeConfig, NAMESPACE, PYTHON_IMAGE, releaseRecords, waitFor } from "./kube.js";

const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
const sa = new k8s.KubeConfig();
sa.loadFromFile((process.env.KUBECONFIG as string).replace(/kubeconfig$/, "hangar-sa.kubeconfig"));

const bytes = readFileSync(".build/hangar-agent");
const mine = agentBinary(bytes);
const netinit = { agentImagePath: "/app/.build/hangar-agent" };
const fromImage = hangarReplica({ kubeConfig: sa, execAgent: true, netinit, maxExecsPerSandbox: 50 });
// Another build of the agent (an ELF with bytes after it runs the same): its hash names no file in the mount.
const otherBytes = Buffer.concat([bytes, Buffer.from("another build")]);
const otherBuild = hangarReplica({ kubeConfig: sa, execAgent: true, agentBytes: otherBytes });
const plain = hangarReplica({ kubeConfig: sa });
const pooled = hangarReplica({ kubeConfig: sa, execAgent: true, netinit, warmPools: [{ image: PYTHON_IMAGE, size: 1 }] });
const poolPods = async () =>
  (await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: `${POOL_LABEL}=${poolName(PYTHON_IMAGE)}` })).items;
const spec: SandboxSpec = {
  image: PYTHON_IMAGE,
  argv: [...DEFAULT_MAIN_ARGV],
  env: {},
  files: [],
  requests: {},
  limits: {},
  tags: ["agent-image"],
  maxLifetimeSeconds: 0,
  runnerIds: [],
  annotations: {},
  volumes: [],
};
/** The program that runs the command: the agent's path on the agent channel, the sh kill wrapper on plain exec. */
const PARENT = ["/bin/sh", "-c", 'tr "\\0" " " < /proc/$PPID/cmdline'];
let id = "";

beforeAll(async () => {
  await Promise.all([fromImage.start(), otherBuild.start(), plain.start()]);
  id = (await fromImage.c.create("t", { spec, echo: {}, requestId: "" })).id;
  await fromImage.until(id, ["RUNNING"]);
  await otherBuild.until(id, ["RUNNING"]);
  await plain.until(id, ["RUNNING"]);
  await waitFor("the agent channel to open", 30_000, async () =>
    (await fromImage.run(id, PARENT)).out.includes(".hangar-agent") ? true : undefined,
  );
}, 120_000);

afterAll(async () => {
  fromImage.c.remove("t", id, { graceMs: 0, allowMissing: true });
  await fromImage.until(id, ["COMPLETED", "FAILED"]).catch(() => undefined);
  await Promise.all([fromImage.c.close(), otherBuild.c.close(), plain.c.close(), pooled.c.close()]);
  for (const p of await poolPods())
    await core.deleteNamespacedPod({ name: p.metadata?.name ?? "", namespace: NAMESPACE, gracePeriodSeconds: 0 }).catch(() => undefined);
  expect(await releaseRecords(core)).toEqual([]);
}, 120_000);

describe("the exec agent from Hangar's image", () => {
  it("commands run on netinit's copy in the read-only mount, and nothing was copied through exec", async () => {
    expect((await fromImage.run(id, PARENT)).out.trim()).toBe(mine.mounted);
    expect(await fromImage.run(id, ["/bin/sh", "-c", "echo out; sleep 0.2; echo err >&2; exit 7"])).toEqual({
      out: "out\nerr\n",
      exitCode: 7,
    });
    // Asked through plain exec, so this replica's agent channel plays no part in the answer.
    expect(
      await plain.run(id, [
        "/bin/sh",
        "-c",
        `ls -A /.hangar-agent; ls -A /tmp | grep -c ${mine.mounted.slice(-16)}; sha256sum /.hangar-agent/* | cut -c1-16`,
      ]),
    ).toEqual({ out: `${mine.mounted.split("/").pop()}\n0\n${mine.mounted.slice(-16)}\n`, exitCode: 0 });
  });

  it("root in the sandbox can neither change, replace nor add to the agent's mount", async () => {
    const attack = [
      'f=$(ls /.hangar-agent); before=$(sha256sum "/.hangar-agent/$f")',
      'for t in "cat /bin/sh > /.hangar-agent/$f" "rm -f /.hangar-agent/$f" "mv /.hangar-agent/$f /.hangar-agent/x" "chmod 777 /.hangar-agent/$f" "touch /.hangar-agent/new" "mount -o remount,rw /.hangar-agent" "umount /.hangar-agent"; do',
      '  sh -c "$t" 2>/dev/null && echo "ALLOWED: $t"',
      "done",
      'echo "$before" | sha256sum -c --quiet && echo intact; id -u; ls -A /.hangar-agent | wc -l',
    ].join("\n");
    expect(await plain.run(id, ["/bin/sh", "-c", attack])).toEqual({ out: "intact\n0\n1\n", exitCode: 0 });
    expect((await fromImage.run(id, PARENT)).out.trim()).toBe(mine.mounted);
  });

  it("a Hangar with another build of the agent installs its own through exec and runs on it", async () => {
    const other = agentBinary(otherBytes);
    expect(other.mounted).not.toBe(mine.mounted);
    const out = await waitFor("the other build's channel", 30_000, async () => {
      const r = await otherBuild.run(id, PARENT);
      return r.out.includes(".hangar-agent") ? r.out.trim() : undefined;
    });
    expect(out).toBe(other.path);
    expect((await fromImage.run(id, PARENT)).out.trim()).toBe(mine.mounted);
  }, 60_000);

  it("a warm-pool pod has the copy too: the claimed sandbox's first command runs on it", async () => {
    await pooled.start();
    await waitFor("an idle pool pod with its agent", 90_000, async () =>
      (await poolPods()).some((p) => p.metadata?.annotations?.["hangar.dev/exec"] && p.status?.phase === "Running") ? true : undefined,
    );
    const r = await pooled.c.create("t", { spec, echo: {}, requestId: "" });
    const s = await pooled.until(r.id, ["RUNNING"]);
    expect(s.imageNote).toMatch(/warm pod/);
    expect((await pooled.run(r.id, PARENT)).out.trim()).toBe(mine.mounted);
    pooled.c.remove("t", r.id, { graceMs: 0, allowMissing: false });
    await pooled.until(r.id, ["COMPLETED", "FAILED"]);
  }, 120_000);
});
