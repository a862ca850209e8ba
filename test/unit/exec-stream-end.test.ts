/** What a closed plain exec stream says (runtime/kubernetes/exec/plain.ts streamEnd): an exit, a cut, or a failed exec. Table-tested. */
import type * as k8s from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { ExitMarkFilter } from "../../runtime/kubernetes/exec/exit-marker.js";
import { streamEnd } from "../../runtime/kubernetes/exec/plain.js";

const ok: k8s.V1Status = { status: "Success" };
const exited = (code: number): k8s.V1Status => ({
  status: "Failure",
  reason: "NonZeroExitCode",
  details: { causes: [{ reason: "ExitCode", message: String(code) }] },
});
const marker = (rc?: number) => {
  const m = new ExitMarkFilter();
  if (rc !== undefined) m.push(Buffer.from(`\0hangar-rc:${rc}\0`));
  return m;
};

describe("streamEnd", () => {
  it.each([
    ["no status: cut", undefined, undefined, { cut: "the exec websocket closed without an exit status (the pod may have stopped)" }],
    ["success, not wrapped", ok, undefined, { exitCode: 0 }],
    ["success with the wrapper's marker", ok, marker(0), { exitCode: 0 }],
    [
      "success without the wrapper's marker: cut",
      ok,
      marker(),
      { cut: "the exec stream was cut before the command ended (the kubelet or apiserver went away); its result is unknown" },
    ],
    ["a non-zero exit, marker or not", exited(3), marker(), { exitCode: 3 }],
  ] as const)("%s", (_name, status, marked, want) => {
    expect(streamEnd(status, marked)).toEqual(want);
  });

  it("a failed exec is UNAVAILABLE", () => {
    expect(() => streamEnd({ status: "Failure", message: "container not found" }, undefined)).toThrow("exec failed: container not found");
  });
});
