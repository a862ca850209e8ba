import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toDomainSpec } from "../../api/spec.js";
import { createController } from "../../controller/controller.js";
import { dockerConfig, parseSecretStores, registryOf, resolverOf, tenantPlace, type SecretRef } from "../../core/secrets.js";
import { chooseRunner } from "../../controller/placement.js";
import { orphanedCopies } from "../../runtime/kubernetes/stores/env-secrets.js";
import { buildPod } from "../../runtime/kubernetes/pod/spec.js";
import { envSecret, kubeSecretName, pullSecret, STORE_LABEL, valueOf } from "../../runtime/kubernetes/stores/secret-store.js";
import { bwrapArgs, setenvArgs } from "../../runtime/local/bwrap-args.js";
import { readDirSecret } from "../../runtime/local/secret-dir.js";
import { fakeRuntime } from "./fake-runtime.js";
import { spec } from "./fixtures.js";
import { subject } from "./subjects.js";

const ref = (o: Partial<SecretRef> = {}): SecretRef => ({
  store: "team",
  name: "HF_TOKEN",
  envVar: "HF_TOKEN",
  at: "sandbox.spec.containers[0].secret_stores[0].secrets[0]",
  ...o,
});

describe("HANGAR_SECRET_STORES", () => {
  const rows: [string, unknown][] = [
    ["", []],
    ["team=kubernetes:hangar-secrets-{tenant}", [{ name: "team", kind: "kubernetes", location: "hangar-secrets-{tenant}" }]],
    [
      "a=dir:/etc/hangar/{tenant}, b=kubernetes:{tenant}-secrets",
      [
        { name: "a", kind: "dir", location: "/etc/hangar/{tenant}" },
        { name: "b", kind: "kubernetes", location: "{tenant}-secrets" },
      ],
    ],
    ["team=kubernetes:shared", /hold \{tenant\} once/],
    ["team=dir:/etc/{tenant}/{tenant}", /hold \{tenant\} once/],
    ["team=dir:relative/{tenant}", /absolute/],
    ["team=kubernetes:Bad_{tenant}", /not a namespace name/],
    ["team=vault:x/{tenant}", /expected name=kubernetes/],
    ["a=dir:/x/{tenant},a=dir:/y/{tenant}", /named twice/],
  ];
  for (const [text, want] of rows) {
    it(JSON.stringify(text), () => {
      const got = parseSecretStores(text);
      if (want instanceof RegExp) expect(got).toMatch(want);
      else expect(got).toEqual(want);
    });
  }
  it("a tenant gets a place only when its name cannot collide with another's", () => {
    expect(tenantPlace("alpha")).toBe("alpha");
    expect(tenantPlace("team-1")).toBe("team-1");
    expect(tenantPlace("a.b")).toBeUndefined();
    expect(tenantPlace("a_b")).toBeUndefined();
  });
});

describe("secret_stores in a create", () => {
  const create = (secretStores: unknown, env: Record<string, string> = {}, stores = ["team"]) =>
    toDomainSpec({ containers: [{ image: "python:3.11", environment_variables: env, secret_stores: secretStores }] } as never, {
      maxLifetimeSeconds: 60,
      secretStores: stores,
    });
  it("becomes references, never values", () => {
    const s = create([
      {
        store_name: "team",
        secrets: [
          { path: "HF_TOKEN", env_var: "HF_TOKEN" },
          { path: "db", field: "password", env_var: "DB_PASS" },
        ],
      },
    ]);
    expect(s.secrets).toEqual([
      { store: "team", name: "HF_TOKEN", envVar: "HF_TOKEN", at: "sandbox.spec.containers[0].secret_stores[0].secrets[0]" },
      { store: "team", name: "db", field: "password", envVar: "DB_PASS", at: "sandbox.spec.containers[0].secret_stores[0].secrets[1]" },
    ]);
  });
  const bad: [string, unknown, Record<string, string>, string[], RegExp][] = [
    [
      "no stores configured",
      [{ store_name: "team", secrets: [{ path: "x", env_var: "X" }] }],
      {},
      [],
      /secret_stores\[0\]: no secret stores are configured/,
    ],
    [
      "an unknown store",
      [{ store_name: "other", secrets: [{ path: "x", env_var: "X" }] }],
      {},
      ["team"],
      /secret_stores\[0\]\.store_name: no store named "other" \(this Hangar has: team\)/,
    ],
    ["no secrets", [{ store_name: "team", secrets: [] }], {}, ["team"], /secret_stores\[0\]\.secrets: required/],
    [
      "a path with a slash",
      [{ store_name: "team", secrets: [{ path: "../etc/passwd", env_var: "X" }] }],
      {},
      ["team"],
      /secrets\[0\]\.path: a secret name/,
    ],
    [
      "a field with ..",
      [{ store_name: "team", secrets: [{ path: "db", field: "..", env_var: "X" }] }],
      {},
      ["team"],
      /secrets\[0\]\.field: a key/,
    ],
    [
      "a bad env var",
      [{ store_name: "team", secrets: [{ path: "db", env_var: "1X" }] }],
      {},
      ["team"],
      /secrets\[0\]\.env_var: not a valid/,
    ],
    [
      "an env var also set plainly",
      [{ store_name: "team", secrets: [{ path: "db", env_var: "X" }] }],
      { X: "1" },
      ["team"],
      /env_var: X is also in environment_variables/,
    ],
    [
      "an env var named twice",
      [
        {
          store_name: "team",
          secrets: [
            { path: "a", env_var: "X" },
            { path: "b", env_var: "X" },
          ],
        },
      ],
      {},
      ["team"],
      /secrets\[1\]\.env_var: X is named by two secrets/,
    ],
  ];
  for (const [what, st, env, stores, re] of bad)
    it(`refuses ${what}, naming the field`, () => expect(() => create(st, env, stores)).toThrow(re));
});

describe("directory store", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "hangar-secrets-"));
    await mkdir(path.join(root, "alpha", "db"), { recursive: true });
    await mkdir(path.join(root, "alpha", "one"), { recursive: true });
    await mkdir(path.join(root, "beta"), { recursive: true });
    await writeFile(path.join(root, "alpha", "HF_TOKEN"), "hf-alpha");
    await writeFile(path.join(root, "alpha", "db", "password"), "pw");
    await writeFile(path.join(root, "alpha", "db", "user"), "u");
    await writeFile(path.join(root, "alpha", "one", "only"), "single");
    await writeFile(path.join(root, "alpha", "big"), "x".repeat(64 * 1024 + 1));
    await writeFile(path.join(root, "beta", "HF_TOKEN"), "hf-beta");
    await symlink(path.join(root, "beta", "HF_TOKEN"), path.join(root, "alpha", "stolen"));
    await mkdir(path.join(root, "alpha", "linked"));
    await symlink(path.join(root, "beta", "HF_TOKEN"), path.join(root, "alpha", "linked", "k"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));
  const store = () => resolverOf([{ config: { name: "team", kind: "dir", location: `${root}/{tenant}` }, get: readDirSecret }]);

  it("reads a file, one field, and a directory's only key", async () => {
    expect(
      await store().resolve("alpha", [ref(), ref({ name: "db", field: "password", envVar: "P" }), ref({ name: "one", envVar: "O" })]),
    ).toEqual({ HF_TOKEN: "hf-alpha", P: "pw", O: "single" });
  });
  it("each tenant reads its own directory only", async () => {
    expect(await store().resolve("beta", [ref()])).toEqual({ HF_TOKEN: "hf-beta" });
    await expect(store().resolve("gamma", [ref()])).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
      message: expect.stringMatching(/secrets\[0\]: secret "HF_TOKEN" of store "team" is not there for this tenant/),
    });
  });
  it("a link to another tenant's secret is refused, as the last part or inside a secret", async () => {
    await expect(store().resolve("alpha", [ref({ name: "stolen" })])).rejects.toMatchObject({ code: "FAILED_PRECONDITION" });
    await expect(store().resolve("alpha", [ref({ name: "linked", field: "k" })])).rejects.toMatchObject({ code: "FAILED_PRECONDITION" });
    await expect(store().resolve("alpha", [ref({ name: "linked" })])).rejects.toMatchObject({ code: "FAILED_PRECONDITION" });
  });
  it("errors say what is wrong and never the value", async () => {
    const err = await store()
      .resolve("alpha", [ref({ name: "db" })])
      .catch((e: Error) => e);
    expect((err as Error).message).toMatch(/has 2 fields \(password, user\): name one in field/);
    expect((err as Error).message).not.toMatch(/pw/);
    await expect(store().resolve("alpha", [ref({ name: "big" })])).rejects.toMatchObject({
      message: expect.stringMatching(/over 65536 bytes/),
    });
    await expect(store().resolve("alpha", [ref({ name: "db", field: "missing" })])).rejects.toMatchObject({
      message: expect.stringMatching(/field "missing" of store "team" is not there/),
    });
  });
  it("a tenant whose name could collide with another's gets nothing", async () => {
    await expect(store().resolve("al.pha", [ref()])).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
      message: expect.stringMatching(/has no place in secret stores/),
    });
  });
});

describe("Kubernetes store", () => {
  const secret = (labels: Record<string, string>, data: Record<string, string>) => ({
    metadata: { name: "hf-token", labels },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString("base64")])),
  });
  it("names: lowercased, _ as -", () => {
    expect(kubeSecretName("HF_TOKEN")).toBe("hf-token");
    expect(kubeSecretName("db.creds")).toBe("db.creds");
    expect(kubeSecretName("-x")).toBeUndefined();
  });
  it("only Secrets labelled for the store are handed out; the only key or the named one", () => {
    expect(valueOf(secret({ [STORE_LABEL]: "team" }, { token: "v" }), ref(), "ns")).toBe("v");
    expect(valueOf(secret({ [STORE_LABEL]: "team" }, { a: "1", b: "2" }), ref({ field: "b" }), "ns")).toBe("2");
    expect(() => valueOf(secret({}, { token: "v" }), ref(), "ns")).toThrow(/is not there for this tenant/);
    expect(() => valueOf(secret({ [STORE_LABEL]: "other" }, { token: "v" }), ref(), "ns")).toThrow(/is not there for this tenant/);
    expect(() => valueOf(secret({ [STORE_LABEL]: "team" }, { a: "1", b: "2" }), ref(), "ns")).toThrow(
      /has 2 keys \(a, b\): name one in field/,
    );
    expect(() => valueOf(secret({ [STORE_LABEL]: "team" }, { a: "1" }), ref({ field: "z" }), "ns")).toThrow(/has no key "z"/);
  });
  it("the pod reads values from its own Secret: the pod spec holds names only", () => {
    const pod = buildPod("abc", spec({ env: { PLAIN: "1" } }), { namespace: "sb", egress: false, secretEnv: ["HF_TOKEN"] });
    const env = pod.spec?.containers[0]?.env ?? [];
    expect(env).toContainEqual({ name: "PLAIN", value: "1" });
    expect(env).toContainEqual({ name: "HF_TOKEN", valueFrom: { secretKeyRef: { name: "sbx-abc-env", key: "HF_TOKEN" } } });
    const s = envSecret("abc", "sb", { HF_TOKEN: "hf-secret" });
    expect(s.metadata?.name).toBe("sbx-abc-env");
    expect(Buffer.from(s.data?.HF_TOKEN ?? "", "base64").toString()).toBe("hf-secret");
    expect(JSON.stringify(pod)).not.toContain("hf-secret");
  });
  it("leftover copies: no owner, no pod, older than a minute", () => {
    const now = Date.parse("2026-01-01T00:10:00Z");
    const s = (name: string, id: string, created: string, owned = false) => ({
      metadata: {
        name,
        labels: { "hangar.dev/sandbox-id": id },
        creationTimestamp: new Date(created),
        ...(owned ? { ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "p", uid: "u" }] } : {}),
      },
    });
    const secrets = [
      s("old", "a", "2026-01-01T00:00:00Z"),
      s("fresh", "b", "2026-01-01T00:09:30Z"),
      s("owned", "c", "2026-01-01T00:00:00Z", true),
      s("has-pod", "d", "2026-01-01T00:00:00Z"),
    ];
    expect(orphanedCopies(secrets as never, (id) => id === "d", now)).toEqual(["old"]);
  });
});

describe("local main process", () => {
  it("secret values reach bubblewrap through --args, never on its command line", () => {
    const a = bwrapArgs({
      paths: { root: "/", rootWritable: false, tmp: "/t", home: "/h", empty: "/e", files: [], volumes: [] },
      spec: spec(),
      hostname: "h",
      uid: 0,
      maskPaths: [],
      env: { PLAIN: "1" },
      argsFd: 6,
    } as never);
    expect(a.join(" ")).toContain("--setenv PLAIN 1");
    expect(a.slice(a.indexOf("--args"), a.indexOf("--args") + 2)).toEqual(["--args", "6"]);
    expect(a.indexOf("--args")).toBeLessThan(a.indexOf("--"));
    expect(setenvArgs({ K: "v a\nl" }).toString()).toBe("--setenv\0K\0v a\nl\0");
  });
});

describe("controller", () => {
  const silent = { info() {}, warn() {}, error() {} };
  it("resolves secrets for the caller's tenant, passes the values to that start only, and stores references only", async () => {
    const rt = fakeRuntime();
    const seen: unknown[] = [];
    rt.start = async (_record, secrets) => {
      seen.push(secrets);
      return { imageNote: "fake", startedAtMs: 5 };
    };
    const asked: string[] = [];
    const secrets = {
      stores: () => ["team"],
      value: async () => "",
      resolve: async (tenant: string, refs: SecretRef[]) => (
        asked.push(tenant),
        Object.fromEntries(refs.map((r) => [r.envVar, `value-of-${tenant}`]))
      ),
    };
    const c = createController({
      runtime: rt,
      secrets,
      policy: { retentionMs: 10_000, expiryGraceMs: 0, stuckAfterMs: 1_000 },
      defaultLifetimeSeconds: 60,
      maxLifetimeSeconds: 600,
      maxSandboxes: 3,
      maxExecsPerSandbox: 1,
      maxExecs: 10,
      maxFileBytes: 1024,
      reapIntervalMs: 1000,
      log: silent,
    });
    const r = await c.create("alpha", { spec: { ...spec(), secrets: [ref()] }, echo: {}, requestId: "" });
    expect(asked).toEqual(["alpha"]);
    expect(seen).toEqual([{ env: { HF_TOKEN: "value-of-alpha" } }]);
    expect(JSON.stringify(r)).not.toContain("value-of-alpha");
    await c.close();
  });
  it("a secret the store lacks refuses the create and leaves no sandbox", async () => {
    const rt = fakeRuntime();
    const { errors } = await import("../../core/errors.js");
    const secrets = {
      stores: () => ["team"],
      value: async () => "",
      resolve: async () => {
        throw errors.secretUnavailable("f", "missing");
      },
    };
    const c = createController({
      runtime: rt,
      secrets,
      policy: { retentionMs: 10_000, expiryGraceMs: 0, stuckAfterMs: 1_000 },
      defaultLifetimeSeconds: 60,
      maxLifetimeSeconds: 600,
      maxSandboxes: 3,
      maxExecsPerSandbox: 1,
      maxExecs: 10,
      maxFileBytes: 1024,
      reapIntervalMs: 1000,
      log: silent,
    });
    await expect(c.create("alpha", { spec: { ...spec(), secrets: [ref()] }, echo: {}, requestId: "" })).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
    });
    expect(rt.calls).toEqual([]);
    expect(c.list("alpha", {} as never).items).toHaveLength(0);
    await c.close();
  });
});

describe("image pull credentials", () => {
  it("the registry an image comes from, as Docker decides it", () => {
    expect(registryOf("python:3.11")).toBe("docker.io");
    expect(registryOf("library/python:3.11")).toBe("docker.io");
    expect(registryOf("ghcr.io/org/x:1")).toBe("ghcr.io");
    expect(registryOf("127.0.0.1:5000/p/x:1")).toBe("127.0.0.1:5000");
    expect(registryOf("localhost/x")).toBe("localhost");
  });
  it("a secret becomes a Docker config: username:password, or a config document naming the registry", () => {
    const c = dockerConfig("ghcr.io", "me:tok");
    expect(JSON.parse((c as { config: string }).config)).toEqual({
      auths: { "ghcr.io": { auth: Buffer.from("me:tok").toString("base64") } },
    });
    expect(JSON.parse((dockerConfig("docker.io", "me:tok") as { config: string }).config).auths).toHaveProperty([
      "https://index.docker.io/v1/",
    ]);
    const doc = JSON.stringify({ auths: { "ghcr.io": { auth: "eA==" } } });
    expect(dockerConfig("ghcr.io", doc)).toEqual({ config: doc });
    for (const [value, problem] of [
      ["just-a-token", /username:password/],
      [":x", /username:password/],
      ["u:", /username:password/],
      ["{nope", /not a Docker config/],
      [JSON.stringify({ auths: { "quay.io": {} } }), /without an entry for ghcr.io/],
    ] as const) {
      const got = dockerConfig("ghcr.io", value);
      expect("problem" in got && got.problem, value).toMatch(problem);
      expect(JSON.stringify(got)).not.toContain(value.length > 3 ? value : "\u0000");
    }
  });
  const create = (creds: unknown, image = "ghcr.io/org/x:1", stores = ["team"]) =>
    toDomainSpec({ containers: [{ image, image_pull_credentials: creds }] } as never, { maxLifetimeSeconds: 60, secretStores: stores });
  it("becomes a reference; a registry other than the image's, or a bad reference, is refused naming the field", () => {
    expect(create({ registry: "ghcr.io", credentials: { store_name: "team", path: "regcred" } }).imagePull).toEqual({
      registry: "ghcr.io",
      secret: { store: "team", name: "regcred", envVar: "", at: "sandbox.spec.containers[0].image_pull_credentials.credentials" },
    });
    expect(() => create({ registry: "quay.io", credentials: { store_name: "team", path: "regcred" } })).toThrow(
      /image_pull_credentials\.registry: the image ghcr\.io\/org\/x:1 is pulled from ghcr\.io, not quay\.io/,
    );
    expect(() => create({ registry: "ghcr.io", credentials: { store_name: "x", path: "regcred" } })).toThrow(
      /image_pull_credentials\.credentials\.store_name: no store named "x"/,
    );
    expect(() => create({ registry: "ghcr.io", credentials: { store_name: "team", path: "a/b" } })).toThrow(
      /image_pull_credentials\.credentials\.path/,
    );
    expect(() => create({ registry: "ghcr.io", credentials: { store_name: "team", path: "r" } }, "ghcr.io/org/x:1", [])).toThrow(
      /image_pull_credentials\.credentials: no secret stores are configured/,
    );
  });
  it("placement refuses credentials where the runner cannot use them (the local runtime), naming the field", () => {
    const runner = {
      runnerId: "r",
      runnerGroupId: "g",
      organizationId: "o",
      architectures: [],
      healthy: true,
      connectedAtMs: 0,
      maxCpuMillicores: 1,
      maxMemoryBytes: 1,
      availableCpuMillicores: 1,
      availableMemoryBytes: 1,
      runningSandboxes: 0,
      runtimeClasses: [],
    };
    const s = { runnerIds: [], requests: {}, limits: {}, imagePull: { registry: "ghcr.io", secret: ref() } };
    expect(chooseRunner(s, [runner])).toMatchObject({
      field: subject("spec.imagePull", "sandbox.spec.containers[0].image_pull_credentials"),
      refused: expect.stringMatching(/not supported by this runtime/),
    });
    expect(chooseRunner(s, [{ ...runner, pullCredentials: true }])).toEqual({ runner: { ...runner, pullCredentials: true } });
  });
  it("the pod pulls with its own Secret, always asking the registry; the Secret holds the config", () => {
    const pod = buildPod("abc", spec({ image: "ghcr.io/org/x:1" }), { namespace: "sb", egress: false, pullSecret: true });
    expect(pod.spec?.imagePullSecrets).toEqual([{ name: "sbx-abc-pull" }]);
    expect(pod.spec?.containers[0]?.imagePullPolicy).toBe("Always");
    expect(buildPod("abc", spec(), { namespace: "sb", egress: false }).spec?.containers[0]?.imagePullPolicy).toBe("IfNotPresent");
    const s = pullSecret("abc", "sb", '{"auths":{}}');
    expect(s.type).toBe("kubernetes.io/dockerconfigjson");
    expect(Buffer.from(s.data?.[".dockerconfigjson"] ?? "", "base64").toString()).toBe('{"auths":{}}');
  });
});
