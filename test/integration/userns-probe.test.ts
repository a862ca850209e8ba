/**
 * The user-namespace probe on the test cluster (ADR 0047): the real probe pod answers supported,
 * and a probe that learns nothing (its image cannot be pulled) answers unknown, which keeps user
 * namespaces on — never "unsupported", which would run every sandbox pod as the node's root.
 */
import { readFileSync } from "node:fs";
import * as k8s from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { DEFAULT_EGRESS_CONFIG } from "../../runtime/kubernetes/egress/policy.js";
import { probeUserNamespaces } from "../../runtime/kubernetes/nodes/userns-probe.js";
import { usernsDecision } from "../../runtime/kubernetes/pod/userns.js";
import { kubeConfig, NAMESPACE } from "./kube.js";

const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
const path = DEFAULT_EGRESS_CONFIG.netinitPath;

describe("the user-namespace probe", () => {
  it("the netinit image's probe: supported, with a shifted uid_map", async () => {
    const image = readFileSync(".cluster/netinit-image", "utf8").trim();
    const v = await probeUserNamespaces(core, NAMESPACE, image, path, 45_000, `it-${Date.now() % 100000}`);
    expect(v).toMatchObject({ t: "supported", uidMap: expect.not.stringMatching(/^0 0 /) });
    expect(usernsDecision(v)).toMatchObject({ on: true, proven: true });
  }, 60_000);

  it("an image that cannot be pulled (a registry on a closed loopback port): unknown, user namespaces stay on", async () => {
    const v = await probeUserNamespaces(core, NAMESPACE, "127.0.0.1:1/hangar-test/none:1", path, 45_000, `it-${Date.now() % 100000}`);
    expect(v).toMatchObject({ t: "unknown", reason: expect.stringMatching(/ErrImagePull|ImagePullBackOff/) });
    expect(usernsDecision(v)).toMatchObject({ on: true, proven: false });
  }, 60_000);
});
