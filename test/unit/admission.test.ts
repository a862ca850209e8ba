// Admission (controller/admission.ts): what is decided once about a new sandbox and stored on
// its record — runtime class, gVisor, egress, lifetime — as a pure table.
import { describe, expect, it } from "vitest";
import { admit, refusalError, type AdmissionSpec, type Admitted } from "../../controller/admission.js";
import { HangarError } from "../../core/errors.js";
import { NODE_DEFAULT_RUNTIME_CLASS, type EgressGrant, type RunnerInfo } from "../../core/types.js";
import { runnerInfo } from "./fixtures.js";
import { subject } from "./subjects.js";

const runner = (extra: Partial<RunnerInfo> = {}): RunnerInfo =>
  runnerInfo({
    runnerId: "kube",
    runtimeClasses: ["gvisor", "kata"],
    gvisorRuntimeClasses: ["gvisor"],
    egress: { privateCidrs: [], grantableCidrs: [], hostnames: false },
    ...extra,
  });
const spec = (extra: Partial<AdmissionSpec> = {}): AdmissionSpec => ({
  runnerIds: [],
  requests: {},
  limits: {},
  maxLifetimeSeconds: 0,
  ...extra,
});
const ANY: EgressGrant[] = [{ to: "any", ports: [] }];
const GRANT: EgressGrant[] = [{ to: { cidr: "198.18.0.0/15", except: [] }, ports: [{ protocol: "TCP", port: 443 }] }];
const OPTS = { defaultLifetimeSeconds: 600, maxLifetimeSeconds: 3600 };

type Row = [string, AdmissionSpec, RunnerInfo, { defaultDenyEgress?: boolean }, Partial<Omit<Admitted, "runner">>];
const rows: Row[] = [
  [
    "runtime class given",
    spec({ runtimeClass: "kata" }),
    runner({ defaultRuntimeClass: "runc" }),
    {},
    { effectiveRuntimeClass: "kata", gvisor: false },
  ],
  ["runner default", spec(), runner({ defaultRuntimeClass: "runc" }), {}, { effectiveRuntimeClass: "runc", gvisor: false }],
  ["node default", spec(), runner(), {}, { effectiveRuntimeClass: NODE_DEFAULT_RUNTIME_CLASS, gvisor: false }],
  [
    "gVisor class: gvisor, no egress",
    spec({ runtimeClass: "gvisor" }),
    runner(),
    { defaultDenyEgress: false },
    { gvisor: true, effectiveEgress: [] },
  ],
  ["default deny on: no egress", spec(), runner(), { defaultDenyEgress: true }, { effectiveEgress: [] }],
  ["default deny unset: on", spec(), runner(), {}, { effectiveEgress: [] }],
  ["default deny off: any", spec(), runner(), { defaultDenyEgress: false }, { effectiveEgress: ANY }],
  ["deny_egress=false asked", spec({ denyEgress: false }), runner(), { defaultDenyEgress: true }, { effectiveEgress: ANY }],
  ["deny_egress=true asked", spec({ denyEgress: true }), runner(), { defaultDenyEgress: false }, { effectiveEgress: [] }],
  ["egress grants", spec({ egress: GRANT }), runner(), { defaultDenyEgress: true }, { effectiveEgress: GRANT }],
  ["lifetime 0: the default", spec(), runner(), {}, { effectiveLifetimeSeconds: 600 }],
  ["lifetime asked", spec({ maxLifetimeSeconds: 120 }), runner(), {}, { effectiveLifetimeSeconds: 120 }],
  ["lifetime over the max: the max", spec({ maxLifetimeSeconds: 99_999 }), runner(), {}, { effectiveLifetimeSeconds: 3600 }],
];

describe("admit", () => {
  for (const [name, s, r, o, want] of rows)
    it(name, () => {
      const got = admit(s, [r], { ...OPTS, ...o });
      expect(got).toMatchObject({ runner: r, ...want });
    });

  it("a refusal from placement comes back as it is, naming the domain subject", () => {
    const got = admit(spec({ runtimeClass: "gvisor", egress: GRANT }), [runner()], OPTS);
    expect(got).toMatchObject({ field: subject("spec.egress", "sandbox.spec.network.egress") });
  });

  it("a refusal becomes its error: a subject's INVALID_ARGUMENT, the SDK's reason, or no runner", () => {
    const invalid = refusalError({ refused: "no", field: "spec.runtimeClass" });
    expect(invalid).toBeInstanceOf(HangarError);
    expect([invalid.code, invalid.violations[0]?.field]).toEqual(["INVALID_ARGUMENT", "spec.runtimeClass"]);
    const reasoned = refusalError({
      refused: "no TLS",
      field: "spec.services[0].endpoint.kind",
      reason: "CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED",
    });
    expect([reasoned.code, reasoned.reason, reasoned.subjects]).toEqual([
      "FAILED_PRECONDITION",
      "CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED",
      ["spec.services[0].endpoint.kind"],
    ]);
    expect(refusalError({ refused: "none" }).reason).toBe("CWSANDBOX_NO_SUITABLE_RUNNER");
  });
});
