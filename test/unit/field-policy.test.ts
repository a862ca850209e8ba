// Every request field of every RPC is honoured or refused, never ignored: the descriptors of
// proto/ are walked, and a field without a rule (a new SDK field, say) fails this test.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import {
  FIELD_RULES,
  GUARDED_SERVICES,
  guardRequest,
  METHOD_RULES,
  refusedFields,
  SERVICE_RULES,
  type Rule,
} from "../../api/field-policy.js";
import { fieldTable } from "../../api/field-table.js";
import { loadContractRoot, PROTO_DIR } from "../../api/proto.js";

const root = loadContractRoot(PROTO_DIR);
const PKG = "coreweave.sandbox.v1";
const kind = (r: Rule) => Object.keys(r)[0];
const REPO = path.join(PROTO_DIR, "..");

/** The it/test titles of a vitest file (a template literal's `${...}` parts kept as written). */
const TITLE = /\b(?:it|test)(?:\.\w+)*\(\s*(["'`])((?:\\.|(?!\1)[^\\])*)\1/g;

/**
 * What is wrong with a test reference (api/field-policy.ts TestRef), or "" when it names one
 * test that exists: `<file>.py::<function>` needs `def <function>(` in the file;
 * `<file>.ts::<text>` needs exactly one it/test title of the file containing the text.
 */
function refProblem(
  ref: string,
  read = (f: string) => (existsSync(path.join(REPO, f)) ? readFileSync(path.join(REPO, f), "utf8") : undefined),
): string {
  const m = /^(test\/[\w./-]+\.(py|ts))::(.+)$/.exec(ref);
  if (!m) return "not <test file>::<test name>";
  const [, file, ext, name] = m as unknown as [string, string, string, string];
  const text = read(file);
  if (text === undefined) return `no file ${file}`;
  if (ext === "py") return /^test_\w+$/.test(name) && text.includes(`def ${name}(`) ? "" : `no def ${name}( in ${file}`;
  const hits = [...text.matchAll(TITLE)].filter((t) => (t[2] as string).includes(name)).length;
  return hits === 1 ? "" : hits ? `${hits} titles of ${file} contain it: name one` : `no it/test title of ${file} contains it`;
}

/** Fields reachable from the guarded methods' requests, as the guard and the docs see them. */
function reachable() {
  const seen = new Map<string, { rule: Rule | undefined; underChecked: boolean }>();
  const walk = (t: protobuf.Type, underChecked: boolean, stack: Set<string>) => {
    if (stack.has(t.fullName)) return;
    stack.add(t.fullName);
    for (const f of t.fieldsArray) {
      f.resolve();
      const key = `${t.name}.${f.name}`;
      const rule = FIELD_RULES[key];
      seen.set(key, { rule, underChecked: underChecked || (seen.get(key)?.underChecked ?? false) });
      const nested = f.resolvedType;
      if (!rule || !(nested instanceof protobuf.Type) || nested.fullName.startsWith(".google.")) continue;
      if ("honoured" in rule || "checked" in rule) walk(nested, underChecked || "checked" in rule, stack);
    }
    stack.delete(t.fullName);
  };
  for (const s of GUARDED_SERVICES) {
    const svc = root.lookupService(s);
    for (const m of svc.methodsArray) {
      if (METHOD_RULES[`${svc.name}.${m.name}`]) continue;
      m.resolve();
      walk(m.resolvedRequestType as protobuf.Type, false, new Set());
    }
  }
  return seen;
}

describe("field policy", () => {
  const fields = reachable();

  it("gives every service a rule: walked field by field, or refused as a whole", () => {
    const services = root.lookup(PKG) as protobuf.Namespace;
    const names = services.nestedArray.filter((x) => x instanceof protobuf.Service).map((x) => `${PKG}.${x.name}`);
    expect(names.filter((n) => !GUARDED_SERVICES.includes(n) && !SERVICE_RULES[n])).toEqual([]);
    for (const key of Object.keys(METHOD_RULES)) {
      const [svc, m] = key.split(".");
      expect(root.lookupService(`${PKG}.${svc}`).methods[m as string], key).toBeDefined();
    }
  });

  it("classifies every field a served request can carry", () => {
    const missing = [...fields].filter(([, v]) => !v.rule).map(([k]) => k);
    expect(missing).toEqual([]);
    expect(fields.size).toBeGreaterThan(140);
  });

  it("has no rule for a field that does not exist", () => {
    expect(Object.keys(FIELD_RULES).filter((k) => !fields.has(k))).toEqual([]);
  });

  it("refuses nothing below a checked field (the handler owns that subtree, the guard does not look)", () => {
    expect([...fields].filter(([, v]) => v.underChecked && v.rule && kind(v.rule) === "refused").map(([k]) => k)).toEqual([]);
  });

  it("leaves StreamExec's messages nothing to refuse (the guard never sees them)", () => {
    const exec = [...fields].filter(([k]) => /^Exec(Stream|StreamInit|StreamResize)\w*\./.test(k) || k.startsWith("ExecStreamRequest."));
    expect(exec.length).toBeGreaterThan(8);
    expect(exec.filter(([, v]) => v.rule && kind(v.rule) === "refused").map(([k]) => k)).toEqual([]);
  });

  it("every honoured rule names a test that shows its effect, and every test a rule names exists", () => {
    const rules = Object.entries(FIELD_RULES);
    expect(rules.filter(([, r]) => "honoured" in r && !(r.tests.length && r.tests.every((t) => t.trim()))).map(([k]) => k)).toEqual([]);
    const bad = rules.flatMap(([k, r]) =>
      ("tests" in r ? (r.tests ?? []) : []).map((t) => [k, t, refProblem(t)]).filter(([, , why]) => why),
    );
    expect(bad).toEqual([]);
    expect(rules.filter(([, r]) => "honoured" in r).length).toBeGreaterThan(140);
  });

  it("a test reference is checked: a file, a function or a title that is not there is caught", () => {
    const files: Record<string, string> = {
      "test/e2e/test_a.py": "def test_one(x):\n    pass\n",
      "test/unit/a.test.ts": 'it("does one thing", () => 0);\nit(`does ${"two"} things`, () => 0);\n',
    };
    const read = (f: string) => files[f];
    expect(refProblem("test/e2e/test_a.py::test_one", read)).toBe("");
    expect(refProblem("test/unit/a.test.ts::does one", read)).toBe("");
    expect(refProblem("test/unit/a.test.ts::things", read)).toBe("");
    expect(refProblem("test/e2e/test_a.py::test_two", read)).toMatch(/no def test_two\(/);
    expect(refProblem("test/e2e/test_b.py::test_one", read)).toMatch(/no file/);
    expect(refProblem("test/unit/a.test.ts::does", read)).toMatch(/2 titles/);
    expect(refProblem("test/unit/a.test.ts::nothing", read)).toMatch(/no it\/test title/);
    expect(refProblem("test_one", read)).toMatch(/not <test file>/);
  });

  it("docs/fields.md is the table generated from the rules (node scripts/gen-field-table.mjs)", () => {
    const doc = readFileSync(path.join(PROTO_DIR, "../docs/fields.md"), "utf8");
    expect(doc).toBe(fieldTable(root));
  });
});

describe("the guard", () => {
  const create = root.lookupType(`${PKG}.CreateSandboxRequest`);
  const container = (extra: object) => ({ sandbox: { spec: { containers: [{ name: "main", image: "python:3.11", ...extra }] } } });

  it("refuses a refused field by its full path, with INVALID_ARGUMENT", () => {
    const req = container({ security_context: { run_as_user: 1000, capabilities_add: ["SYS_ADMIN"] } });
    expect(refusedFields(create, req).map((t) => t.field)).toEqual([
      "sandbox.spec.containers[0].security_context.run_as_user",
      "sandbox.spec.containers[0].security_context.capabilities_add",
    ]);
    expect(() => guardRequest(create, req)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });

  it("answers UNIMPLEMENTED where the rule says the feature is not implemented", () => {
    const req = { sandbox: { spec: { containers: [{ image: "x" }], network_ids: ["n1"] } } };
    expect(() => guardRequest(create, req)).toThrow(
      expect.objectContaining({ code: "UNIMPLEMENTED", reason: "CWSANDBOX_NOT_IMPLEMENTED" }),
    );
  });

  it("lets defaults, honoured fields, output-only fields and checked subtrees through", () => {
    const req = {
      sandbox: {
        status: { state: "STATE_RUNNING" },
        spec: {
          containers: [
            {
              image: "x",
              primary: true,
              security_context: { privileged: false, run_as_user: 0 },
              resources: { gpu: { count: "1", memory_gb: "80" } },
            },
          ],
          network: { deny_egress: false, dns_egress: "DNS_EGRESS_MODE_UNSPECIFIED", egress: [{ cidr: { cidr: "10.0.0.0/8" } }] },
          runtime_class: "",
        },
      },
      request_id: "r",
    };
    expect(refusedFields(create, req)).toEqual([]);
  });

  it("walks maps and lists of messages, and treats a field it has no rule for as refused", () => {
    const list = root.lookupType(`${PKG}.ListSandboxesRequest`);
    expect(refusedFields(list, { tags: ["a"], sort_direction: "SORT_DIRECTION_DESCENDING" })).toEqual([]);
    const unknown = new protobuf.Type("Novel").add(new protobuf.Field("knob", 1, "string"));
    expect(refusedFields(unknown, { knob: "on" })).toEqual([{ field: "knob", rule: { refused: "Hangar does not know this field" } }]);
  });
});
