// Domain subjects to wire fields (api/wire-fields.ts), and the error the SDK is answered with.
import { describe, expect, it } from "vitest";
import { toWire, wireField, wireText, wireStateReason } from "../../api/wire-fields.js";
import { errors } from "../../core/errors.js";

describe("wireField", () => {
  const cases: [string, string][] = [
    ["spec.egress", "sandbox.spec.network.egress"],
    ["spec.egress[0].cidr", "sandbox.spec.network.egress[0].cidr"],
    ["spec.egress[3].cidr", "sandbox.spec.network.egress[3].cidr"],
    ["spec.egress[1].hostname", "sandbox.spec.network.egress[1].https_hostname"],
    ["spec.denyEgress", "sandbox.spec.network.deny_egress"],
    ["spec.runtimeClass", "sandbox.spec.runtime_class"],
    ["spec.command", "sandbox.spec.containers[0].command"],
    ["spec.image", "sandbox.spec.containers[0].image"],
    ["spec.imagePull", "sandbox.spec.containers[0].image_pull_credentials"],
    ["spec.sidecars", "sandbox.spec.containers"],
    ["spec.hostAliases", "sandbox.spec.containers"],
    ["spec.services", "sandbox.spec.services"],
    ["spec.services[2].endpoint.kind", "sandbox.spec.services[2].endpoint.kind"],
    ["spec.services[0].endpoint.auth", "sandbox.spec.services[0].endpoint.auth"],
    ["spec.services[1].public", "sandbox.spec.services[1].visibility"],
    ["exec.env", "init.env"],
    // Wire paths and names that are not subjects pass through unchanged.
    ["sandbox.spec.network.egress[0].cidr", "sandbox.spec.network.egress[0].cidr"],
    ["sandbox.spec.containers[0].volume_mounts[0]", "sandbox.spec.containers[0].volume_mounts[0]"],
    ["sandbox.spec.containers[0].secret_stores[0].secrets[1]", "sandbox.spec.containers[0].secret_stores[0].secrets[1]"],
    ["init.env", "init.env"],
    ["tags", "tags"],
    ["container", "container"],
    ["scratch.size", "scratch.size"],
    ["spec.imageEntrypointX", "spec.imageEntrypointX"],
    ["spec.unknown", "spec.unknown"],
  ];
  for (const [subject, wire] of cases) it(`${subject} -> ${wire}`, () => expect(wireField(subject)).toBe(wire));
});

describe("wireText", () => {
  it("replaces the subjects given where they stand whole", () => {
    expect(wireText("invalid request: spec.egress[0].cidr: no", ["spec.egress[0].cidr"])).toBe(
      "invalid request: sandbox.spec.network.egress[0].cidr: no",
    );
    expect(wireText("spec.egress: x; spec.egress[1].cidr: y", ["spec.egress"])).toBe(
      "sandbox.spec.network.egress: x; spec.egress[1].cidr: y",
    );
  });
  it("leaves a wire path that contains a subject alone", () => {
    expect(wireText("see sandbox.spec.services[0].endpoint.kind", ["spec.services[0].endpoint.kind"])).toBe(
      "see sandbox.spec.services[0].endpoint.kind",
    );
  });
  it("without subjects, finds the known ones in free text (a state_reason)", () => {
    expect(wireText("failed to start: invalid request: spec.command: the sandbox exited while starting")).toBe(
      "failed to start: invalid request: sandbox.spec.containers[0].command: the sandbox exited while starting",
    );
    expect(wireText("nothing here; sandbox.spec.runtime_class stays")).toBe("nothing here; sandbox.spec.runtime_class stays");
  });
});

describe("toWire", () => {
  it("an invalid field: the violation's field and the message", () => {
    const e = toWire(errors.invalidField("spec.denyEgress", "this Hangar cannot give local sandboxes egress"));
    expect(e.message).toBe("invalid request: sandbox.spec.network.deny_egress: this Hangar cannot give local sandboxes egress");
    expect(e.violations).toEqual([
      { field: "sandbox.spec.network.deny_egress", description: "this Hangar cannot give local sandboxes egress" },
    ]);
    expect(e.code).toBe("INVALID_ARGUMENT");
  });
  it("a reason's message names its subject as the wire field, the rest as it was", () => {
    const e = toWire(
      errors.endpointNotSupported(
        "CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED",
        "no TLS listener (HANGAR_PUBLIC_TLS_GATEWAY; field spec.services[0].endpoint.kind)",
        "spec.services[0].endpoint.kind",
      ),
    );
    expect([e.code, e.reason, e.message]).toEqual([
      "FAILED_PRECONDITION",
      "CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED",
      "no TLS listener (HANGAR_PUBLIC_TLS_GATEWAY; field sandbox.spec.services[0].endpoint.kind)",
    ]);
  });
  it("an error that names wire fields already is the same error", () => {
    const e = errors.volumeInUse("sandbox.spec.containers[0].volume_mounts[0]", "in use");
    expect(toWire(e)).toBe(e);
    const f = errors.capacityExhausted("full", 2000);
    expect(toWire(f)).toBe(f);
  });
  it("keeps reason, metadata and retry", () => {
    const e = toWire(errors.secretUnavailable("spec.image", "gone"));
    expect([e.code, e.message, e.violations[0]?.field]).toEqual([
      "FAILED_PRECONDITION",
      "sandbox.spec.containers[0].image: gone",
      "sandbox.spec.containers[0].image",
    ]);
  });
});

describe("wireStateReason", () => {
  const rows: [string, string, string][] = [
    [
      "a start that failed on a field names the wire field",
      "failed to start: invalid request: spec.command: the sandbox exited while starting: oops",
      "failed to start: invalid request: sandbox.spec.containers[0].command: the sandbox exited while starting: oops",
    ],
    [
      "what the sandbox printed is never rewritten",
      "failed to start: invalid request: spec.command: the sandbox exited while starting: spec.image missing",
      "failed to start: invalid request: sandbox.spec.containers[0].command: the sandbox exited while starting: spec.image missing",
    ],
    ["a reason that names no subject is as it was", "main process exited with code 3", "main process exited with code 3"],
    ["a subject later in free text is as it was", "killed: spec.image was gone", "killed: spec.image was gone"],
  ];
  for (const [name, from, want] of rows) it(name, () => expect(wireStateReason(from)).toBe(want));
});
