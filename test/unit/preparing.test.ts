import { describe, expect, it } from "vitest";
import { toProtoSandbox } from "../../api/sandbox-view.js";
import type { SandboxRecord } from "../../core/types.js";
import { canonicalImage, nodeHasImage } from "../../runtime/kubernetes/pod/image-ref.js";
import { spec } from "./fixtures.js";

describe("STATE_PREPARING", () => {
  const rows: [string, string][] = [
    ["python:3.11", "docker.io/library/python:3.11"],
    ["library/python", "docker.io/library/python:latest"],
    ["org/app:1", "docker.io/org/app:1"],
    ["ghcr.io/org/app", "ghcr.io/org/app:latest"],
    ["127.0.0.1:5000/p/x:1", "127.0.0.1:5000/p/x:1"],
    ["localhost/hangar-test/noshell:1", "localhost/hangar-test/noshell:1"],
    ["ghcr.io/org/app@sha256:abc", "ghcr.io/org/app@sha256:abc"],
  ];
  for (const [ref, want] of rows) it(`${ref} is ${want}`, () => expect(canonicalImage(ref)).toBe(want));
  it("a node holds an image under any of its names", () => {
    const node = { status: { images: [{ names: ["docker.io/library/python:3.11", "docker.io/library/python@sha256:1"] }] } };
    expect(nodeHasImage(node, "python:3.11")).toBe(true);
    expect(nodeHasImage(node, "python:3.12")).toBe(false);
    expect(nodeHasImage(undefined, "python:3.11")).toBeUndefined();
  });
  const rec = (state: SandboxRecord["state"], preparing?: boolean): SandboxRecord => ({
    id: "a",
    tenant: "t",
    spec: spec(),
    echo: { containers: [{}] },
    state,
    stateReason: "",
    createdAtMs: 0,
    runnerId: "r",
    runnerGroupId: "g",
    effectiveLifetimeSeconds: 60,
    imageNote: "",
    ...(preparing ? { preparing } : {}),
  });
  it("CREATING while the image is pulled shows as PREPARING, unless the operator turned it off", () => {
    expect(toProtoSandbox(rec("CREATING", true)).status?.state).toBe("STATE_PREPARING");
    expect(toProtoSandbox(rec("CREATING", true), false).status?.state).toBe("STATE_CREATING");
    expect(toProtoSandbox(rec("CREATING")).status?.state).toBe("STATE_CREATING");
    expect(toProtoSandbox(rec("RUNNING", true)).status?.state).toBe("STATE_RUNNING");
  });
});
