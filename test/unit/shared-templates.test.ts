import { describe, expect, it } from "vitest";
import { PROTO_DIR } from "../../api/proto.js";
import { parseSharedTemplates } from "../../api/shared-templates.js";
import { toProtoTemplate } from "../../api/template-view.js";
import { createTemplates } from "../../controller/templates.js";
import type { TemplateRecord, TemplateStore } from "../../core/templates.js";

const limits = { maxLifetimeSeconds: 3600 };
const FILE = `
- id: swe-python
  display_name: SWE tasks, Python 3.11
  spec:
    containers:
      - name: main
        image: python:3.11
        environment_variables: { PIP_NO_INPUT: "1" }
        resources: { cpu: "1", memory: 1Gi }
    max_lifetime_seconds: 600
`;

const memoryStore = (): TemplateStore => {
  const m = new Map<string, TemplateRecord>();
  return {
    list: async (t) => [...m.values()].filter((x) => x.tenant === t),
    get: async (_t, id) => m.get(id),
    put: async (t) => void m.set(t.id, t),
  };
};

describe("shared templates (HANGAR_SHARED_TEMPLATES_FILE)", () => {
  it("reads the operator's file, normalised as the API reads requests", () => {
    const [t] = parseSharedTemplates(FILE, PROTO_DIR, limits, 5);
    expect(t).toMatchObject({ id: "swe-python", tenant: "", displayName: "SWE tasks, Python 3.11", revision: 1, createdAtMs: 5 });
    expect(t?.spec).toMatchObject({
      containers: [
        { name: "main", image: "python:3.11", environment_variables: { PIP_NO_INPUT: "1" }, resources: { cpu: "1", memory: "1Gi" } },
      ],
      max_lifetime_seconds: 600,
    });
    expect(toProtoTemplate(t as TemplateRecord).create_user_id).toBe("operator (shared)");
  });
  const bad: [string, string, RegExp][] = [
    [
      "a key the spec does not have",
      "- id: a\n  display_name: A\n  spec: { containers: [{ image: x, imagee: y }] }\n",
      /\[0\]\.spec\.containers\[0\]\.imagee: not a field of PartialSandboxSpec/,
    ],
    [
      "a spec Hangar refuses",
      "- id: a\n  display_name: A\n  spec: { containers: [{ image: x, security_context: { privileged: true } }] }\n",
      /template a: .*privileged/,
    ],
    ["an id used twice", "- id: a\n  display_name: A\n  spec: {}\n- id: a\n  display_name: B\n  spec: {}\n", /\[1\]\.id: a appears twice/],
    ["a bad id", "- id: A_1\n  display_name: A\n  spec: {}\n", /\[0\]\.id: a DNS label/],
    ["no list", "id: a\n", /expected a list of templates/],
    ["an unknown key", "- id: a\n  display_name: A\n  owner: x\n", /\[0\]: unknown key owner/],
  ];
  for (const [what, text, re] of bad)
    it(`refuses ${what} at start, naming where`, () => expect(() => parseSharedTemplates(text, PROTO_DIR, limits)).toThrow(re));

  it("every tenant runs and lists them; no tenant changes or deletes them", async () => {
    const shared = parseSharedTemplates(FILE, PROTO_DIR, limits);
    const t = createTemplates(memoryStore(), () => 1, shared);
    expect((await t.get("alpha", "swe-python")).displayName).toBe("SWE tasks, Python 3.11");
    expect((await t.get("beta", "swe-python")).id).toBe("swe-python");
    const mine = await t.create("alpha", { displayName: "mine", spec: {} }, "");
    expect((await t.list("alpha", false)).map((x) => x.id)).toEqual(["swe-python", mine.id]);
    expect((await t.list("beta", false)).map((x) => x.id)).toEqual(["swe-python"]);
    await expect(t.update("alpha", "swe-python", { displayName: "x" })).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
      message: expect.stringMatching(/shared by the operator/),
    });
    await expect(t.remove("beta", "swe-python")).rejects.toMatchObject({ code: "FAILED_PRECONDITION" });
    await expect(t.get("beta", mine.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
