import { describe, expect, it } from "vitest";
import { composeCreate } from "../../api/compose-request.js";
import { parseCompose } from "../../api/compose.js";
import { commandArgv, composeBytes, durationSeconds } from "../../api/compose-values.js";
import { chooseRunner } from "../../controller/placement.js";
import type { RunnerInfo } from "../../core/types.js";
import { buildPod } from "../../runtime/kubernetes/pod/spec.js";

const limits = { maxLifetimeSeconds: 3600, secretStores: ["vault"] };
const req = (yaml: string, o: object = {}) =>
  ({ type: "SANDBOX_FILE_TYPE_COMPOSE", contents: Buffer.from(yaml), primary_service: "main", ...o }) as never;
const create = (yaml: string, o: object = {}) => composeCreate(req(yaml, o), limits);

// The SDK's own Compose test file (tests/integration/cwsandbox/testdata/cache-api.docker-compose.yaml), in short.
const CACHE_API = `
services:
  cache:
    image: docker.io/library/redis:7-alpine
    expose: ["6379"]
    healthcheck: { test: ["CMD", "redis-cli", "ping"], interval: 1s, timeout: 1s, retries: 15, start_period: 5s }
  api:
    image: docker.io/library/python:3.12-slim
    expose: ["8080"]
    environment: { REDIS_HOST: cache }
    depends_on: { cache: { condition: service_healthy } }
    entrypoint: [python3, -c, "print('serve')"]
    healthcheck: { test: ["CMD", "python3", "-c", "pass"], interval: 1s, timeout: 2s, retries: 15, start_period: 5s }
  main:
    image: docker.io/library/ubuntu:22.04
    command: ["sleep", "3600"]
    environment: { API_HOST: api, REDIS_HOST: cache }
    depends_on: { cache: { condition: service_healthy }, api: { condition: service_healthy } }
`;

describe("Compose files (CreateSandboxFromFile)", () => {
  it("the SDK's cache/api/main file: containers in file order, the primary last to start, healthchecks gate the next", () => {
    const c = create(CACHE_API);
    expect(c.echo.containers?.map((x) => [x.name, x.primary])).toEqual([
      ["cache", false],
      ["api", false],
      ["main", true],
    ]);
    expect(c.echo.containers?.[1]?.environment_variables).toEqual({ REDIS_HOST: "cache" });
    expect(c.spec.primaryName).toBe("main");
    expect(c.spec.argv).toEqual(["sleep", "3600"]);
    expect(c.spec.imageEntrypoint).toBe(true); // command alone: the image's ENTRYPOINT runs it
    expect(c.spec.env).toEqual({ API_HOST: "api", REDIS_HOST: "cache" });
    expect(c.spec.sidecars?.map((s) => s.name)).toEqual(["cache", "api"]);
    const [cache, api] = c.spec.sidecars ?? [];
    expect(cache).toMatchObject({
      argv: [],
      imageEntrypoint: true,
      startupProbe: { exec: ["redis-cli", "ping"], periodSeconds: 1, timeoutSeconds: 1, failureThreshold: 20 },
    });
    expect(api).toMatchObject({ argv: ["python3", "-c", "print('serve')"], startupProbe: { timeoutSeconds: 2 } });
    expect(api?.imageEntrypoint).toBeUndefined();
    expect(c.spec.hostAliases).toEqual(["cache", "api", "main"]);
    expect(c.spec.compose?.digest).toMatch(/^[0-9a-f]{64}$/);
    const pod = buildPod("abc", c.spec, { namespace: "ns", egress: false });
    expect(pod.spec?.initContainers?.map((x) => [x.name, x.restartPolicy, x.command, x.args])).toEqual([
      ["cache", "Always", undefined, []],
      ["api", "Always", ["python3"], ["-c", "print('serve')"]],
    ]);
    expect(pod.spec?.containers?.[0]).toMatchObject({ name: "main", args: ["sleep", "3600"] });
    expect(pod.spec?.containers?.[0]?.command).toBeUndefined();
    expect(pod.spec?.hostAliases).toEqual([{ ip: "127.0.0.1", hostnames: ["cache", "api", "main"] }]);
  });

  it("starts dependencies first whatever the file's order; shares named volumes; default resources; overrides", () => {
    const c = create(
      `name: proj
services:
  main: { image: a, entrypoint: "sh -c 'sleep 1'", volumes: ["data:/d:ro"], depends_on: [web] }
  web: { image: b, depends_on: [db], volumes: [{ type: volume, source: data, target: /w }], deploy: { resources: { limits: { cpus: "0.5", memory: 256m } } } }
  db: { image: c }
volumes: { data: {} }
`,
      { image_overrides: { db: "postgres:16" }, default_resources: { requests: { cpu: "100m", memory: "64Mi" } } },
    );
    expect(c.spec.sidecars?.map((s) => s.name)).toEqual(["db", "web"]);
    expect(c.spec.argv).toEqual(["sh", "-c", "sleep 1"]);
    expect(c.spec.imageEntrypoint).toBeUndefined();
    expect(c.spec.volumes).toEqual([{ name: "data", mountPath: "/d", readOnly: true }]);
    expect(c.spec.sidecars?.find((s) => s.name === "web")).toMatchObject({
      volumes: [{ name: "data", mountPath: "/w" }],
      limits: { cpu: "500m", memory: "256Mi" },
    });
    expect(c.spec.sidecars?.find((s) => s.name === "db")).toMatchObject({
      image: "postgres:16",
      requests: { cpu: "100m", memory: "64Mi" },
    });
    expect(c.displayName).toBe("proj");
  });

  it("interpolates as Compose does with no variables set", () => {
    const c = create(`services:\n  main: { image: "img:\${TAG:-1}", entrypoint: ["sh", "-c", "echo $$HOME"] }\n`);
    expect(c.spec.image).toBe("img:1");
    expect(c.spec.argv).toEqual(["sh", "-c", "echo $HOME"]);
  });

  const refused: [string, string, object, RegExp][] = [
    ["a build", "services:\n  main: { build: . }\n", {}, /UNIMPLEMENTED|image builds \(field contents\.services\.main\.build\)/],
    [
      "published ports",
      "services:\n  main: { image: a, ports: ['8080:80'] }\n",
      {},
      /contents\.services\.main\.ports: not supported by this Hangar: publishing ports/,
    ],
    [
      "a bind mount",
      "services:\n  main: { image: a, volumes: ['./src:/src'] }\n",
      {},
      /contents\.services\.main\.volumes\[0\]: bind mounts of host paths are never offered/,
    ],
    [
      "privileged",
      "services:\n  main: { image: a, privileged: true }\n",
      {},
      /contents\.services\.main\.privileged: not supported by this Hangar: sandboxes are never privileged/,
    ],
    [
      "an unknown key",
      "services:\n  main: { image: a, frobnicate: 1 }\n",
      {},
      /contents\.services\.main\.frobnicate: not supported by this Hangar/,
    ],
    ["networks", "services:\n  main: { image: a }\nnetworks: { back: {} }\n", {}, /contents\.networks: not supported/],
    [
      "an unset variable",
      'services:\n  main: { image: "a:${TAG}" }\n',
      {},
      /contents\.services\.main\.image: \$\{TAG\} names variable TAG/,
    ],
    [
      "a variable from the host environment",
      "services:\n  main: { image: a, environment: [HOME] }\n",
      {},
      /contents\.services\.main\.environment\.HOME: needs a value/,
    ],
    [
      "a healthy wait on a service without a healthcheck",
      "services:\n  db: { image: a }\n  main: { image: a, depends_on: { db: { condition: service_healthy } } }\n",
      {},
      /contents\.services\.main\.depends_on\.db\.condition: service_healthy, but db has no healthcheck/,
    ],
    [
      "a completed wait",
      "services:\n  db: { image: a }\n  main: { image: a, depends_on: { db: { condition: service_completed_successfully } } }\n",
      {},
      /service_completed_successfully is not supported/,
    ],
    [
      "a cycle",
      "services:\n  a: { image: a, depends_on: [b] }\n  b: { image: a, depends_on: [a] }\n  main: { image: a }\n",
      {},
      /contents\.services\.a\.depends_on: a cycle: a -> b -> a/,
    ],
    [
      "a service waiting for the primary",
      "services:\n  a: { image: a, depends_on: [main] }\n  main: { image: a }\n",
      {},
      /contents\.services\.a\.depends_on\.main: the primary service starts last/,
    ],
    ["no primary_service", "services:\n  main: { image: a }\n", { primary_service: "" }, /primary_service: required/],
    [
      "an unknown primary_service",
      "services:\n  main: { image: a }\n",
      { primary_service: "web" },
      /primary_service: no service named web/,
    ],
    [
      "an override for no service",
      "services:\n  main: { image: a }\n",
      { image_overrides: { web: "x" } },
      /image_overrides\["web"\]: no service named web/,
    ],
    ["no image", "services:\n  main: { command: [sleep, '1'] }\n", {}, /contents\.services\.main\.image: required/],
    [
      "a bad environment name, named by service",
      "services:\n  main: { image: a, environment: { '9A': x } }\n",
      {},
      /contents\.services\.main\.environment_variables\["9A"\]: not a valid environment variable name/,
    ],
    [
      "a bad service name",
      "services:\n  Main_1: { image: a }\n",
      { primary_service: "Main_1" },
      /contents\.services\.Main_1: service names here are container names/,
    ],
    [
      "GPU devices",
      "services:\n  main: { image: a, deploy: { resources: { reservations: { devices: [{ capabilities: [gpu] }] } } } }\n",
      {},
      /devices \(GPUs\) are not offered through Compose/,
    ],
    ["not YAML", "services: [unclosed\n", {}, /contents: not valid YAML/],
    ["a duplicate key", "services:\n  main: { image: a }\n  main: { image: b }\n", {}, /contents: not valid YAML/],
    [
      "a billion laughs",
      `a: &a ["x","x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\nservices:\n  main: { image: a }\n`,
      {},
      /contents: not usable YAML|contents: not valid YAML/,
    ],
    ["an empty file", "", {}, /contents: required/],
    [
      "the container engine",
      "services:\n  main: { image: a }\n",
      { control: "CONTROL_CONTAINER_ENGINE" },
      /CONTROL_CONTAINER_ENGINE \(field control: a Docker engine inside a sandbox/,
    ],
    ["no file type", "services:\n  main: { image: a }\n", { type: "SANDBOX_FILE_TYPE_UNSPECIFIED" }, /type: required/],
    [
      "pull credentials no service needs",
      "services:\n  main: { image: ghcr.io/a/b }\n",
      { image_pull_credentials: [{ registry: "quay.io", credentials: { store_name: "vault", path: "q" } }] },
      /image_pull_credentials\[0\]\.registry: no service's image comes from quay\.io/,
    ],
    [
      "pull credentials for a sidecar's image",
      "services:\n  db: { image: ghcr.io/a/db }\n  main: { image: a }\n",
      { image_pull_credentials: [{ registry: "ghcr.io", credentials: { store_name: "vault", path: "q" } }] },
      /only db pull from ghcr\.io: pull credentials apply to the primary service's image/,
    ],
  ];
  for (const [what, yaml, o, re] of refused) it(`refuses ${what}, naming the field`, () => expect(() => create(yaml, o)).toThrow(re));

  it("gives the primary's registry its credentials", () => {
    const c = create("services:\n  main: { image: ghcr.io/a/b }\n", {
      image_pull_credentials: [{ registry: "ghcr.io", credentials: { store_name: "vault", path: "ghcr" } }],
    });
    expect(c.spec.imagePull).toMatchObject({ registry: "ghcr.io", secret: { store: "vault", name: "ghcr" } });
  });

  it("a single service runs locally only with an entrypoint (the local runtime reads no image ENTRYPOINT)", () => {
    const local: RunnerInfo = {
      runnerId: "local",
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
    expect(chooseRunner(create("services:\n  main: { image: a, entrypoint: [sleep, '1'] }\n").spec, [local])).toHaveProperty("runner");
    expect(chooseRunner(create("services:\n  main: { image: a, command: [sleep, '1'] }\n").spec, [local])).toMatchObject({
      refused: expect.stringMatching(/give the service an entrypoint/),
    });
    expect(chooseRunner(create(CACHE_API).spec, [local])).toMatchObject({
      refused: expect.stringMatching(/only one container is supported/),
    });
  });

  it("parses Compose's scalars", () => {
    expect([durationSeconds("1m30s"), durationSeconds("500ms"), durationSeconds(3), durationSeconds("1x")]).toEqual([
      90,
      0.5,
      3,
      undefined,
    ]);
    expect([composeBytes("256m"), composeBytes("1gb"), composeBytes(1024), composeBytes("12"), composeBytes("lots")]).toEqual([
      "256Mi",
      "1Gi",
      "1Ki",
      "12",
      undefined,
    ]);
    expect(commandArgv(`sh -c "echo \\"hi\\" there" 'a b' c\\ d`)).toEqual(["sh", "-c", 'echo "hi" there', "a b", "c d"]);
    expect(commandArgv('unclosed "quote')).toBeUndefined();
  });

  it("keeps its refusals to itself: parseCompose is pure and names every problem at once", () => {
    expect(() =>
      parseCompose({
        contents: Buffer.from("services:\n  main: { image: a, ports: [1], tty: true }\n"),
        primaryService: "main",
        imageOverrides: {},
      }),
    ).toThrow(/ports.*tty|tty.*ports/);
  });
});
