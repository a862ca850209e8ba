/**
 * The Helm chart, rendered by the real helm (HANGAR_HELM): every documented value reaches its
 * place, the schema refuses bad values, Hangar runs under the restricted Pod Security profile,
 * and the sandbox NetworkPolicies say what docs promise (the test cluster's bridge CNI does
 * not enforce NetworkPolicy, so the rendered policies are what is tested).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";

const HELM = process.env.HANGAR_HELM ?? "helm";
const CHART = "charts/hangar";
type Obj = {
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  stringData?: Record<string, string>;
};

function render(args: string[]): Obj[] {
  const out = execFileSync(HELM, ["template", "t", CHART, "-n", "hangar", "--kube-version", "1.33.0", ...args], { encoding: "utf8" });
  return parseAllDocuments(out)
    .map((d) => d.toJS() as Obj)
    .filter(Boolean);
}
function refuse(args: string[]): string {
  const r = spawnSync(HELM, ["template", "t", CHART, "-n", "hangar", "--kube-version", "1.33.0", ...args], { encoding: "utf8" });
  expect(r.status).not.toBe(0);
  return r.stderr;
}
const one = (objs: Obj[], kind: string, name?: string) => {
  const hits = objs.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  expect(hits, `${kind} ${name ?? ""}`).toHaveLength(1);
  return hits[0] as Obj;
};
const env = (objs: Obj[]) =>
  Object.fromEntries(
    (one(objs, "Deployment").spec.template.spec.containers[0].env as { name: string; value: string }[]).map((e) => [e.name, e.value]),
  );

const all = render(["-f", `${CHART}/ci/all-values.yaml`]);
const allValues = parse(readFileSync(`${CHART}/ci/all-values.yaml`, "utf8"));
const defaults = parse(readFileSync(`${CHART}/values.yaml`, "utf8"));

describe("helm chart", () => {
  it("lints", () => {
    execFileSync(HELM, ["lint", "--strict", CHART, "-f", `${CHART}/ci/all-values.yaml`, "--kube-version", "1.33.0"], { encoding: "utf8" });
  });

  it("ci/all-values.yaml sets every documented value, each away from its default", () => {
    const paths = (o: unknown, pre = ""): string[] =>
      o &&
      typeof o === "object" &&
      !Array.isArray(o) &&
      Object.keys(o).length &&
      !["keys", "podLabels", "labels", "nodeSelector", "podAnnotations", "resources", "affinity"].includes(pre.split(".").at(-1) ?? "")
        ? Object.entries(o).flatMap(([k, v]) => paths(v, pre ? `${pre}.${k}` : k))
        : [pre];
    const get = (o: unknown, p: string) => p.split(".").reduce<unknown>((a, k) => (a as Record<string, unknown> | undefined)?.[k], o);
    for (const p of paths(defaults)) {
      expect(get(allValues, p), p).toBeDefined();
      if (
        ![
          "auth.existingSecret",
          "shareTokens.existingSecret",
          "auth.open",
          "networkPolicy.enabled",
          "podDisruptionBudget.enabled",
        ].includes(p)
      )
        expect(get(allValues, p), p).not.toEqual(get(defaults, p));
    }
  });

  it("share tokens: the three settings, the key from a Secret made once (or the operator's), the check's port on the Service and in the API policy", () => {
    const e = env(all);
    expect(e).toMatchObject({
      HANGAR_PUBLIC_AUTH_FILTER: "traefik.io/Middleware/hangar-share-token",
      HANGAR_SHARE_TOKEN_KEY_FILE: "/etc/hangar/share-token/key",
      HANGAR_SHARE_TOKEN_CHECK_LISTEN: "0.0.0.0:9466",
    });
    const key = one(all, "Secret", "t-hangar-share-token");
    expect(Buffer.from(key.data?.key ?? "", "base64").length).toBeGreaterThanOrEqual(32);
    const pod = one(all, "Deployment").spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: "share-token", secret: { secretName: "t-hangar-share-token", defaultMode: 288 } });
    expect(pod.containers[0].volumeMounts).toContainEqual({ name: "share-token", mountPath: "/etc/hangar/share-token", readOnly: true });
    expect(pod.containers[0].ports).toContainEqual({ name: "share-token", containerPort: 9466, protocol: "TCP" });
    const api = all.find((o) => o.kind === "NetworkPolicy" && o.metadata.name === "t-hangar-api") as unknown as {
      spec: { ingress: { ports: object[] }[] };
    };
    expect(api.spec.ingress[0]?.ports).toContainEqual({ protocol: "TCP", port: "share-token" });
    // The operator's own Secret: the chart makes none and mounts that one.
    const theirs = render(["-f", `${CHART}/ci/all-values.yaml`, "--set", "shareTokens.existingSecret=my-key"]);
    expect(theirs.some((o) => o.kind === "Secret" && o.metadata.name === "t-hangar-share-token")).toBe(false);
    expect(one(theirs, "Deployment").spec.template.spec.volumes).toContainEqual({
      name: "share-token",
      secret: { secretName: "my-key", defaultMode: 288 },
    });
    // Off by default: no setting, no Secret, no port.
    const off = render(["--set", "auth.open=true"]);
    expect(Object.keys(env(off)).filter((k) => k.includes("SHARE_TOKEN") || k === "HANGAR_PUBLIC_AUTH_FILTER")).toEqual([]);
    expect(one(off, "Service").spec.ports.map((p: { name: string }) => p.name)).toEqual(["grpc", "metrics"]);
    expect(refuse(["--set", "auth.open=true", "--set", "shareTokens.authFilter=Middleware"])).toMatch(/authFilter/);
  });
  it("maps every config key one-to-one to its Hangar setting", () => {
    const e = env(all);
    const want: Record<string, string> = {
      logLevel: "HANGAR_LOG_LEVEL",
      shutdownGraceSeconds: "HANGAR_SHUTDOWN_GRACE_SECONDS",
      retentionSeconds: "HANGAR_RETENTION_SECONDS",
      defaultLifetimeSeconds: "HANGAR_DEFAULT_LIFETIME_SECONDS",
      maxLifetimeSeconds: "HANGAR_MAX_LIFETIME_SECONDS",
      maxSandboxes: "HANGAR_MAX_SANDBOXES",
      poolReuse: "HANGAR_KUBE_POOL_REUSE",
      earlyExec: "HANGAR_KUBE_EARLY_EXEC",
      maxExecsPerSandbox: "HANGAR_MAX_EXECS_PER_SANDBOX",
      maxExecs: "HANGAR_MAX_EXECS",
      maxFileBytes: "HANGAR_MAX_FILE_BYTES",
      maxGraceSeconds: "HANGAR_MAX_GRACE_SECONDS",
      getHoldMs: "HANGAR_GET_HOLD_MS",
      tenantMaxSandboxes: "HANGAR_TENANT_MAX_SANDBOXES",
      tenantCreatesPerSecond: "HANGAR_TENANT_CREATES_PER_SECOND",
      tenantCreateBurst: "HANGAR_TENANT_CREATE_BURST",
      tenantMaxHeldCalls: "HANGAR_TENANT_MAX_HELD_CALLS",
      tenantMaxExecs: "HANGAR_TENANT_MAX_EXECS",
      tenantLimits: "HANGAR_TENANT_LIMITS",
      execDeadlineMarginMs: "HANGAR_EXEC_DEADLINE_MARGIN_MS",
      secretStores: "HANGAR_SECRET_STORES",
      clusterDomain: "HANGAR_KUBE_CLUSTER_DOMAIN",
      publicGateway: "HANGAR_PUBLIC_GATEWAY",
      publicUrl: "HANGAR_PUBLIC_URL",
      publicTlsGateway: "HANGAR_PUBLIC_TLS_GATEWAY",
      publicTlsAddress: "HANGAR_PUBLIC_TLS_ADDRESS",
      reportPreparing: "HANGAR_REPORT_PREPARING",
      runtimeClassSelection: "HANGAR_RUNTIME_CLASS_SELECTION",
      reapIntervalMs: "HANGAR_REAP_INTERVAL_MS",
      mallocTrimSeconds: "HANGAR_MALLOC_TRIM_SECONDS",
      defaultDenyEgress: "HANGAR_DEFAULT_DENY_EGRESS",
      egressEnforcement: "HANGAR_KUBE_EGRESS_ENFORCEMENT",
      userNamespaces: "HANGAR_KUBE_USER_NAMESPACES",
      gvisorRuntimeClasses: "HANGAR_KUBE_GVISOR_RUNTIME_CLASSES",
      netinitImage: "HANGAR_KUBE_NETINIT_IMAGE",
      egressPrivateCidrs: "HANGAR_KUBE_EGRESS_PRIVATE_CIDRS",
      egressGrantableCidrs: "HANGAR_KUBE_EGRESS_GRANTABLE_CIDRS",
      egressDenyCidrs: "HANGAR_KUBE_EGRESS_DENY_CIDRS",
      startupTimeoutSeconds: "HANGAR_STARTUP_TIMEOUT_SECONDS",
      kubeDeadlineMarginSeconds: "HANGAR_KUBE_DEADLINE_MARGIN_SECONDS",
      runtimeClassName: "HANGAR_KUBE_RUNTIME_CLASS",
      ephemeralStorage: "HANGAR_KUBE_EPHEMERAL_STORAGE",
      runners: "HANGAR_KUBE_RUNNERS",
      sandboxTolerations: "HANGAR_KUBE_TOLERATIONS",
      warmPools: "HANGAR_KUBE_WARM_POOLS",
      gpuResource: "HANGAR_KUBE_GPU_RESOURCE",
      gpuTypeLabels: "HANGAR_KUBE_GPU_TYPE_LABELS",
      gpuMemoryLabel: "HANGAR_KUBE_GPU_MEMORY_LABEL",
      nodeRefreshSeconds: "HANGAR_KUBE_NODE_REFRESH_SECONDS",
      execAgent: "HANGAR_KUBE_EXEC_AGENT",
      agentDirectPorts: "HANGAR_KUBE_AGENT_DIRECT_PORTS",
      agentImagePath: "HANGAR_KUBE_AGENT_IMAGE_PATH",
      runnerCpuMillicores: "HANGAR_RUNNER_CPU_MILLICORES",
      runnerMemoryBytes: "HANGAR_RUNNER_MEMORY_BYTES",
      runnerId: "HANGAR_RUNNER_ID",
      runnerGroupId: "HANGAR_RUNNER_GROUP_ID",
      organizationId: "HANGAR_ORGANIZATION_ID",
    };
    expect(Object.keys(want).sort()).toEqual(Object.keys(defaults.config).sort());
    for (const [k, name] of Object.entries(want)) {
      const v = allValues.config[k];
      if (Array.isArray(v)) expect(JSON.parse(e[name] ?? ""), k).toEqual(v);
      else expect(e[name], k).toBe(String(v));
    }
    expect(env(render(["--set", "auth.open=true"])).HANGAR_KUBE_TOLERATIONS).toBeUndefined();
    expect(e).toMatchObject({
      HANGAR_RUNTIME: "kubernetes",
      HANGAR_NAMESPACE: "sandboxes",
      HANGAR_LISTEN: "0.0.0.0:50052",
      HANGAR_METRICS_LISTEN: "0.0.0.0:9465",
      HANGAR_API_KEYS_FILE: "/etc/hangar/api-keys/keys",
    });
    // Every setting the chart writes is one Hangar knows (docs/configuration.md lists them all).
    const documented = readFileSync("docs/configuration.md", "utf8");
    for (const name of Object.keys(e)) expect(documented, name).toContain(`\`${name}\``);
  });

  it("places the other values: image, replicas, service, secret, scheduling, PDB, ServiceMonitor", () => {
    const d = one(all, "Deployment");
    const pod = d.spec.template.spec;
    expect(d.spec.replicas).toBe(3);
    expect(pod.containers[0].image).toBe("registry.example/hangar:9.9.9");
    expect(pod.containers[0].imagePullPolicy).toBe("Always");
    expect(pod.imagePullSecrets).toEqual([{ name: "regcred" }]);
    expect(pod.containers[0].resources).toEqual(allValues.resources);
    expect(pod.nodeSelector).toEqual({ pool: "control" });
    expect(pod.tolerations).toEqual(allValues.tolerations);
    expect(pod.affinity).toEqual(allValues.affinity);
    expect(d.spec.template.metadata.labels.team).toBe("infra");
    expect(d.spec.template.metadata.annotations["example.com/note"]).toBe("yes");
    const svc = one(all, "Service", "t-hangar");
    expect(svc.spec.type).toBe("NodePort");
    expect(svc.spec.ports.map((p: { port: number }) => p.port)).toEqual([50052, 9465, 9466]);
    expect(one(all, "Secret", "t-hangar-api-keys").stringData?.keys.trim().split("\n")).toEqual([
      "alpha:alpha-key-0123456789abcdef",
      "beta:beta-key-0123456789abcdef",
    ]);
    expect(one(all, "PodDisruptionBudget").spec.minAvailable).toBe(2);
    const sm = one(all, "ServiceMonitor");
    expect(sm.metadata.labels?.release).toBe("prom");
    expect(sm.spec.endpoints[0]).toMatchObject({ port: "metrics", interval: "15s" });
  });

  it("runs Hangar under the restricted Pod Security profile, probed on gRPC health", () => {
    const pod = one(all, "Deployment").spec.template.spec;
    const c = pod.containers[0];
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } });
    expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } });
    for (const p of ["startupProbe", "readinessProbe", "livenessProbe"]) expect(c[p].grpc, p).toEqual({ port: 50052 });
    expect(
      pod.volumes.every(
        (v: object) => "emptyDir" in v || "secret" in v || "configMap" in v || (v as { name: string }).name === "snapshots",
      ),
    ).toBe(true);
  });

  it("renders shared templates into a ConfigMap mounted read-only as HANGAR_SHARED_TEMPLATES_FILE, and rolls the pods when they change", () => {
    const pod = one(all, "Deployment").spec.template.spec;
    const cm = all.find((d) => d.kind === "ConfigMap" && d.metadata.name.endsWith("-shared-templates")) as Obj & {
      data: Record<string, string>;
    };
    expect(parse(cm.data["shared-templates.yaml"])).toEqual([
      {
        id: "agent-env",
        display_name: "Agent environment",
        spec: { containers: [{ name: "main", image: "python:3.11", resources: { cpu: "1", memory: "1Gi" } }] },
      },
    ]);
    expect(pod.volumes).toContainEqual({ name: "shared-templates", configMap: { name: cm.metadata.name, defaultMode: 292 } });
    expect(pod.containers[0].volumeMounts).toContainEqual({ name: "shared-templates", mountPath: "/etc/hangar/templates", readOnly: true });
    expect(pod.containers[0].env).toContainEqual({
      name: "HANGAR_SHARED_TEMPLATES_FILE",
      value: "/etc/hangar/templates/shared-templates.yaml",
    });
    const changed = one(render(["-f", "charts/hangar/ci/all-values.yaml", "--set", "sharedTemplates[0].id=other"]), "Deployment");
    expect(changed.spec.template.metadata.annotations["checksum/shared-templates"]).not.toBe(
      one(all, "Deployment").spec.template.metadata.annotations["checksum/shared-templates"],
    );
    const plain = render(["--set", "auth.open=true"]);
    expect(JSON.stringify(plain)).not.toContain("shared-templates");
  });

  it("mounts the snapshot claim when one is named, and sets the snapshot settings", () => {
    const pod = one(all, "Deployment").spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: "snapshots", persistentVolumeClaim: { claimName: "hangar-snapshots" } });
    expect(pod.containers[0].volumeMounts).toContainEqual({ name: "snapshots", mountPath: "/var/lib/hangar-snapshots" });
    expect(pod.containers[0].env).toEqual(
      expect.arrayContaining([
        { name: "HANGAR_SNAPSHOT_DIR", value: "/var/lib/hangar-snapshots" },
        { name: "HANGAR_SNAPSHOT_MAX_BYTES", value: "2147483648" },
      ]),
    );
    const plain = one(render(["--set", "auth.open=true"]), "Deployment").spec.template.spec;
    expect(JSON.stringify(plain)).not.toContain("HANGAR_SNAPSHOT_DIR");
  });

  it("runs the fork plugin on the sandbox nodes when asked, reading the snapshot claim read-only, serving the sandbox namespace only", () => {
    const ds = one(all, "DaemonSet", "t-hangar-forkcsi").spec.template.spec;
    const c = ds.containers[0];
    expect(c.command).toEqual(["/app/.build/hangar-forkcsi"]);
    expect(c.args).toEqual([
      "--driver-name=fork.csi.example.com",
      "--namespace=sandboxes",
      "--kubelet-dir=/var/lib/k0s/kubelet",
      "--pool=/var/lib/hangar-fork",
      "--snapshots=/var/lib/hangar-snapshots",
      "--default-size=4294967296",
      "--node-id=$(NODE_NAME)",
    ]);
    expect(ds.automountServiceAccountToken).toBe(false);
    expect(ds.nodeSelector).toEqual({ pool: "sandboxes" });
    expect(c.volumeMounts).toContainEqual({ name: "kubelet", mountPath: "/var/lib/k0s/kubelet", mountPropagation: "Bidirectional" });
    expect(c.volumeMounts).toContainEqual({ name: "snapshots", mountPath: "/var/lib/hangar-snapshots", readOnly: true });
    expect(ds.volumes).toContainEqual({ name: "pool", hostPath: { path: "/mnt/xfs/hangar-fork", type: "DirectoryOrCreate" } });
    expect(ds.volumes).toContainEqual({ name: "snapshots", persistentVolumeClaim: { claimName: "hangar-snapshots", readOnly: true } });
    const driver = one(all, "CSIDriver");
    expect(driver.metadata.name).toBe("fork.csi.example.com");
    expect(driver.spec).toEqual({
      attachRequired: false,
      podInfoOnMount: true,
      volumeLifecycleModes: ["Ephemeral"],
      fsGroupPolicy: "None",
    });
    expect(one(all, "Deployment").spec.template.spec.containers[0].env).toContainEqual({
      name: "HANGAR_KUBE_FORK_DRIVER",
      value: "fork.csi.example.com",
    });
    const plain = render(["--set", "auth.open=true"]);
    expect(plain.some((d) => d.kind === "DaemonSet" || d.kind === "CSIDriver")).toBe(false);
    expect(JSON.stringify(plain)).not.toContain("HANGAR_KUBE_FORK_DRIVER");
    expect(refuse(["--set", "auth.open=true", "--set", "snapshots.forkPlugin.enabled=true"])).toContain("needs snapshots.claimName");
  });

  it("grants only what Hangar uses, in the sandbox namespace", () => {
    const role = one(all, "Role", "t-hangar");
    expect(role.metadata.namespace).toBe("sandboxes");
    expect((role as unknown as { rules: unknown }).rules).toEqual([
      { apiGroups: [""], resources: ["pods"], verbs: ["create", "get", "list", "watch", "delete", "patch"] },
      { apiGroups: [""], resources: ["pods/exec"], verbs: ["create", "get"] },
      { apiGroups: [""], resources: ["pods/log"], verbs: ["get"] },
      { apiGroups: [""], resources: ["pods/resize"], verbs: ["patch"] },
      { apiGroups: [""], resources: ["configmaps"], verbs: ["create", "get", "list", "update", "patch", "watch", "delete"] },
      { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: ["list"] },
      { apiGroups: [""], resources: ["services"], verbs: ["create"] },
      { apiGroups: ["networking.k8s.io"], resources: ["networkpolicies"], verbs: ["create"] },
      { apiGroups: [""], resources: ["events"], verbs: ["list"] },
      { apiGroups: ["gateway.networking.k8s.io"], resources: ["httproutes"], verbs: ["create", "get"] },
      { apiGroups: ["gateway.networking.k8s.io"], resources: ["tlsroutes"], verbs: ["create", "get"] },
      { apiGroups: [""], resources: ["secrets"], verbs: ["create", "get", "list", "patch", "delete"] },
    ]);
    // Secret stores' tenant namespaces: get on Secrets there, nothing else; no Secret access at all without stores.
    for (const ns of ["hangar-secrets-alpha", "hangar-secrets-beta"]) {
      const r = all.find((o) => o.kind === "Role" && o.metadata.namespace === ns) as unknown as { rules: unknown };
      expect(r.rules, ns).toEqual([{ apiGroups: [""], resources: ["secrets"], verbs: ["get"] }]);
      expect(all.some((o) => o.kind === "RoleBinding" && o.metadata.namespace === ns)).toBe(true);
    }
    expect(JSON.stringify(one(render(["--set", "auth.open=true"]), "Role"))).not.toContain('"secrets"');
    // No Gateway configured: no HTTPRoute access.
    expect(JSON.stringify(one(render(["--set", "auth.open=true"]), "Role"))).not.toContain("httproutes");
    expect(JSON.stringify(one(render(["--set", "auth.open=true"]), "Role"))).not.toContain("tlsroutes");
    const rb = one(all, "RoleBinding", "t-hangar") as unknown as { subjects: object[]; metadata: { namespace: string } };
    expect(rb.metadata.namespace).toBe("sandboxes");
    expect(rb.subjects).toEqual([{ kind: "ServiceAccount", name: "t-hangar", namespace: "hangar" }]);
    // Cluster-wide by default only rbac.readNodes: reading nodes and RuntimeClasses, nothing else; none when turned off
    // (all-values turns it off; its one ClusterRole is auth.tokenReview's, tested below).
    expect(all.filter((o) => o.kind === "ClusterRole").map((o) => o.metadata.name)).toEqual(["t-hangar-tokenreview"]);
    const defaults = render(["--set", "auth.open=true"]);
    expect((one(defaults, "ClusterRole") as unknown as { rules: unknown }).rules).toEqual([
      { apiGroups: [""], resources: ["nodes"], verbs: ["get", "list", "watch"] },
      { apiGroups: ["node.k8s.io"], resources: ["runtimeclasses"], verbs: ["get", "list", "watch"] },
    ]);
    expect((one(defaults, "ClusterRoleBinding") as unknown as { subjects: object[] }).subjects).toEqual([
      { kind: "ServiceAccount", name: "t-hangar", namespace: "hangar" },
    ]);
  });

  it("identities (ADR 0037): TokenReview and OIDC settings from auth, tokenreviews create only when TokenReview is on, no keys file without keys", () => {
    expect(env(all)).toMatchObject({
      HANGAR_API_KEYS_FILE: "/etc/hangar/api-keys/keys",
      HANGAR_AUTH_TOKENREVIEW: "true",
      HANGAR_AUTH_TOKENREVIEW_AUDIENCE: "hangar-ci",
      HANGAR_AUTH_TOKENREVIEW_TENANTS: "team-a=alpha,team-a/trainer=beta",
      HANGAR_AUTH_TOKENREVIEW_CACHE_SECONDS: "5",
      HANGAR_AUTH_OIDC_ISSUER: "https://idp.example",
      HANGAR_AUTH_OIDC_AUDIENCE: "hangar-ci",
      HANGAR_AUTH_OIDC_TENANT_CLAIM: "team",
      HANGAR_AUTH_OIDC_CLOCK_SKEW_SECONDS: "60",
    });
    expect((one(all, "ClusterRole", "t-hangar-tokenreview") as unknown as { rules: unknown }).rules).toEqual([
      { apiGroups: ["authentication.k8s.io"], resources: ["tokenreviews"], verbs: ["create"] },
    ]);
    expect((one(all, "ClusterRoleBinding", "t-hangar-tokenreview") as unknown as { subjects: object[] }).subjects).toEqual([
      { kind: "ServiceAccount", name: "t-hangar", namespace: "hangar" },
    ]);
    // Off (the default): no TokenReview grant and no identity settings.
    const keysOnly = render(["--set", "auth.keys.alpha=alpha-key-0123456789abcdef"]);
    expect(JSON.stringify(keysOnly)).not.toContain("tokenreviews");
    expect(Object.keys(env(keysOnly)).filter((k) => k.startsWith("HANGAR_AUTH_"))).toEqual([]);
    // Tokens only: no keys file, no api-keys Secret or mount, not open.
    const tokensOnly = render(["--set", "auth.tokenReview.enabled=true", "--set", "auth.tokenReview.tenants.ml=ml"]);
    const e = env(tokensOnly);
    expect(e.HANGAR_API_KEYS_FILE).toBeUndefined();
    expect(e.HANGAR_ALLOW_OPEN_NON_LOOPBACK).toBeUndefined();
    expect(e.HANGAR_AUTH_TOKENREVIEW_TENANTS).toBe("ml=ml");
    const pod = one(tokensOnly, "Deployment").spec.template.spec;
    expect(pod.volumes.map((v: { name: string }) => v.name)).not.toContain("api-keys");
    expect(pod.containers[0].volumeMounts.map((v: { name: string }) => v.name)).not.toContain("api-keys");
    expect(tokensOnly.some((o) => o.kind === "Secret" && o.metadata.name === "t-hangar-api-keys")).toBe(false);
    expect(refuse(["--set", "auth.tokenReview.enabled=true"])).toMatch(/auth.tokenReview.tenants: map at least one namespace/);
    expect(refuse(["--set", "auth.open=true", "--set", "auth.oidc.issuer=https://idp.example", "--set", "auth.oidc.audience=a"])).toMatch(
      /auth.open=true .* cannot be set with/,
    );
    expect(refuse(["--set", "auth.oidc.issuer=https://idp.example"])).toMatch(/auth.oidc.audience: required/);
    expect(refuse(["--set", "auth.oidc.issuer=http://idp.example", "--set", "auth.oidc.audience=a"])).toMatch(/issuer/);
    expect(refuse(["--set", "auth.tokenReview.enabled=true", "--set", "auth.tokenReview.tenants.ml=Bad"])).toMatch(/tenants/);
  });

  it("isolates sandboxes with shared policies: no ingress, DNS only, egress on request minus metadata and cluster ranges", () => {
    const iso = one(all, "NetworkPolicy", "t-hangar-sandbox-isolation").spec;
    expect(iso.podSelector).toEqual({ matchLabels: { "app.kubernetes.io/managed-by": "hangar" } });
    expect(iso.policyTypes).toEqual(["Ingress", "Egress"]);
    expect(iso.ingress).toEqual([]);
    expect(iso.egress).toEqual([
      {
        to: [
          {
            namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "dns-system" } },
            podSelector: { matchLabels: { app: "coredns" } },
          },
        ],
        ports: [
          { protocol: "UDP", port: 53 },
          { protocol: "TCP", port: 53 },
        ],
      },
    ]);
    const eg = one(all, "NetworkPolicy", "t-hangar-sandbox-egress").spec;
    expect(eg.podSelector.matchLabels).toEqual({ "app.kubernetes.io/managed-by": "hangar", "hangar.dev/egress": "allow" });
    expect(eg.egress[0].to).toEqual([
      { ipBlock: { cidr: "0.0.0.0/0", except: ["169.254.169.254/32", "10.96.0.0/12"] } },
      { ipBlock: { cidr: "::/0", except: ["fd00::/8"] } },
    ]);
    const api = one(all, "NetworkPolicy", "t-hangar-api").spec;
    expect(api.ingress[0].from).toContainEqual({ ipBlock: { cidr: "203.0.113.0/24" } });
    expect(api.ingress[0].from[0].podSelector.matchExpressions).toEqual([
      { key: "app.kubernetes.io/managed-by", operator: "NotIn", values: ["hangar"] },
    ]);
    // The defaults block the metadata address and every private range, so no sandbox reaches Hangar or the apiserver.
    expect(
      one(render(["--set", "auth.open=true"]), "NetworkPolicy", "t-hangar-sandbox-isolation").spec.egress[0].to[0].podSelector,
    ).toEqual({ matchLabels: { "k8s-app": "kube-dns" } });
    const def = one(render(["--set", "auth.open=true"]), "NetworkPolicy", "t-hangar-sandbox-egress").spec;
    expect(def.egress[0].to[0].ipBlock.except).toEqual(
      expect.arrayContaining(["169.254.169.254/32", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]),
    );
    expect(render(["--set", "auth.open=true", "--set", "networkPolicy.enabled=false"]).map((o) => o.kind)).not.toContain("NetworkPolicy");
  });

  it("admits Hangar's pods, and only them, to the exec agent's direct-link ports (ADR 0022), only when that link is on", () => {
    const link = one(all, "NetworkPolicy", "t-hangar-sandbox-agent-link") as unknown as {
      metadata: { namespace: string };
      spec: Record<string, unknown>;
    };
    expect(link.spec).toEqual({
      podSelector: { matchLabels: { "app.kubernetes.io/managed-by": "hangar" } },
      policyTypes: ["Ingress"],
      ingress: [
        {
          from: [
            {
              namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "hangar" } },
              podSelector: { matchLabels: { "app.kubernetes.io/name": "hangar", "app.kubernetes.io/instance": "t" } },
            },
          ],
          ports: [{ protocol: "TCP", port: 50000, endPort: 50003 }],
        },
      ],
    });
    const names = (objs: Obj[]) => objs.filter((o) => o.kind === "NetworkPolicy").map((o) => o.metadata.name);
    expect(names(render(["--set", "auth.open=true"]))).not.toContain("t-hangar-sandbox-agent-link"); // the agent is off by default
    expect(names(render(["--set", "auth.open=true", "--set", "config.execAgent=true"]))).toContain("t-hangar-sandbox-agent-link");
    expect(
      names(render(["--set", "auth.open=true", "--set", "config.execAgent=true", "--set", "config.agentDirectPorts=off"])),
    ).not.toContain("t-hangar-sandbox-agent-link");
  });

  it("defaults: two replicas with a PDB, no ServiceMonitor, sandboxes in the release namespace", () => {
    const objs = render(["--set", "auth.existingSecret=mine"]);
    expect(one(objs, "Deployment").spec.replicas).toBe(2);
    expect(one(objs, "PodDisruptionBudget").spec.minAvailable).toBe(1);
    expect(objs.map((o) => o.kind)).not.toContain("ServiceMonitor");
    expect(objs.map((o) => o.kind)).not.toContain("Secret");
    expect(one(objs, "Deployment").spec.template.spec.volumes).toContainEqual({
      name: "api-keys",
      secret: { secretName: "mine", defaultMode: 0o440 },
    });
    expect(env(objs).HANGAR_NAMESPACE).toBe("hangar");
    // The sandbox namespace's pods are held to their shape by a ValidatingAdmissionPolicy.
    const vap = one(objs, "ValidatingAdmissionPolicy") as unknown as { spec: { validations: { message: string }[] } };
    expect(vap.spec.validations.map((v) => v.message)).toContain("sandbox pods share no host namespace (hostNetwork, hostPID, hostIPC)");
    expect((one(objs, "ValidatingAdmissionPolicyBinding") as unknown as { spec: object }).spec).toMatchObject({
      validationActions: ["Deny"],
      matchResources: { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "hangar" } } },
    });
    // Egress enforced by netinit from Hangar's own image unless told otherwise.
    const image = one(objs, "Deployment").spec.template.spec.containers[0].image;
    expect(env(objs).HANGAR_KUBE_NETINIT_IMAGE).toBe(image);
    expect(env(objs).HANGAR_KUBE_EGRESS_ENFORCEMENT).toBe("netinit");
    expect(render(["--set", "auth.open=true", "--set", "replicaCount=1"]).map((o) => o.kind)).not.toContain("PodDisruptionBudget");
  });

  it("admission: the sandbox namespace's policy holds every rule, admits hangar-netinit only as Hangar runs it, and judges creates, updates and ephemeral containers", () => {
    type Vap = { spec: { failurePolicy: string; matchConstraints: object; validations: { expression: string; message: string }[] } };
    const policy = (args: string[]) => one(render(["--set", "auth.open=true", ...args]), "ValidatingAdmissionPolicy") as unknown as Vap;
    const vap = policy([]);
    expect(vap.spec.failurePolicy).toBe("Fail");
    expect(vap.spec.matchConstraints).toEqual({
      resourceRules: [
        { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["pods", "pods/ephemeralcontainers"] },
      ],
    });
    const messages = vap.spec.validations.map((v) => v.message);
    for (const m of [
      /host namespace/,
      /no host path/,
      /mount only emptyDir, persistentVolumeClaim, csi, configMap, secret, projected, downwardAPI and ephemeral/,
      /no sysctls/,
      /privileged or may escalate privileges: each sets allowPrivilegeEscalation: false/,
      /drops ALL capabilities/,
      /adds only CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, SETGID, SETUID, NET_BIND_SERVICE/,
      /hangar-netinit as Hangar runs it/,
      /host port/,
      /procMount/,
      /RuntimeDefault seccomp profile/,
      /AppArmor/,
      /SELinux type, user or role/,
    ])
      expect(
        messages.filter((x) => m.test(x)),
        String(m),
      ).toHaveLength(1);
    // The capability list is pod-spec.ts's KEPT_CAPABILITIES.
    const kept = readFileSync("runtime/kubernetes/pod/spec.ts", "utf8").match(/KEPT_CAPABILITIES = (\[[^\]]*\])/)?.[1];
    expect(JSON.parse(kept ?? "[]").join(", ")).toBe(messages.find((x) => /adds only/.test(x))?.match(/adds only ([A-Z_, ]+[A-Z_])/)?.[1]);
    // A reusable pool pod's supervisor (ADR 0040): pod-spec.ts's CELL_CAPABILITIES, and only as the supervisor of a pod in its own user namespace.
    const cellCaps = JSON.parse(
      readFileSync("runtime/kubernetes/pod/spec.ts", "utf8").match(/CELL_CAPABILITIES = (\[[^\]]*\])/)?.[1] ?? "[]",
    ) as string[];
    const capsRule = vap.spec.validations.find((x) => /adds only/.test(x.message))?.expression ?? "";
    expect(capsRule).toContain(`x in [${cellCaps.map((c) => `'${c}'`).join(", ")}] && variables.cellSupervisor.exists(s, s == c)`);
    const supervisor = (vap.spec as unknown as { variables: { name: string; expression: string }[] }).variables.find(
      (v) => v.name === "cellSupervisor",
    );
    for (const part of [
      "c.command[1] == 'supervise'",
      "!object.spec.hostUsers",
      "c.name == 'main'",
      "v.name == 'hangar-agent' && has(v.emptyDir)",
    ])
      expect(supervisor?.expression).toContain(part);
    expect(messages.filter((x) => /only hangar-netinit writes the exec agent's volume/.test(x))).toHaveLength(1);
    // A +egress pool pod's hangar-net sidecar (ADR 0044): NET_ADMIN alone, only as netinit's image running `hold`, only under netinit.
    expect(capsRule).toContain("x == 'NET_ADMIN' && variables.netSidecar.exists(s, s == c)");
    const netVar = (objs: Obj[]) =>
      (
        one(objs, "ValidatingAdmissionPolicy") as unknown as { spec: { variables: { name: string; expression: string }[] } }
      ).spec.variables.find((v) => v.name === "netSidecar")?.expression ?? "";
    const onObjs = render(["--set", "auth.open=true"]);
    expect(netVar(onObjs)).toContain(`c.name == 'hangar-net' && c.image == ${JSON.stringify(env(onObjs).HANGAR_KUBE_NETINIT_IMAGE)}`);
    expect(netVar(onObjs)).toContain(`c.command == [${JSON.stringify(env(onObjs).HANGAR_KUBE_NETINIT_PATH)}, 'hold']`);
    expect(netVar(onObjs)).toMatch(/^true \?/);
    expect(netVar(render(["--set", "auth.open=true", "--set", "config.egressEnforcement=networkpolicy"]))).toMatch(/^false \?/);
    expect(messages.find((x) => /only the hangar-net sidecar mounts hangar-net/.test(x))).toBeDefined();
    // hangar-netinit: the image and path Hangar is given, from one source (Hangar's image, or config.netinitImage).
    const netinitRule = (objs: Obj[]) => {
      const v = (one(objs, "ValidatingAdmissionPolicy") as unknown as Vap).spec.validations.find((x) =>
        x.expression.includes("'hangar-netinit'"),
      );
      return {
        image: v?.expression.match(/c\.image == ("[^"]*")/)?.[1],
        path: v?.expression.match(/c\.command == \[("[^"]*")\]/)?.[1],
        on: v?.expression.match(/: \((true|false) && c\.name == 'hangar-netinit'/)?.[1],
        message: v?.message,
      };
    };
    for (const args of [
      [],
      ["--set", "image.tag=1.2.3"],
      ["--set", "config.netinitImage=registry.example/netinit@sha256:" + "a".repeat(64)],
    ]) {
      const objs = render(["--set", "auth.open=true", ...args]);
      const r = netinitRule(objs);
      expect(r.on).toBe("true");
      expect(r.image && JSON.parse(r.image)).toBe(env(objs).HANGAR_KUBE_NETINIT_IMAGE);
      expect(r.path && JSON.parse(r.path)).toBe(env(objs).HANGAR_KUBE_NETINIT_PATH);
      expect(r.message).toContain(
        `image ${env(objs).HANGAR_KUBE_NETINIT_IMAGE}, command [${env(objs).HANGAR_KUBE_NETINIT_PATH}], no args, adding NET_ADMIN alone`,
      );
    }
    // Without netinit enforcement no init container but sidecars is admitted.
    const off = netinitRule(render(["--set", "auth.open=true", "--set", "config.egressEnforcement=networkpolicy"]));
    expect(off.on).toBe("false");
    expect(off.message).toMatch(/egress enforcement is not netinit/);
    // The fork plugin's privileged pods cannot live under the policy: it needs a sandbox namespace of its own.
    const fork = ["--set", "snapshots.claimName=snaps", "--set", "snapshots.forkPlugin.enabled=true"];
    expect(refuse(["--set", "auth.open=true", ...fork])).toMatch(/sandboxNamespace: a namespace of its own/);
    expect(render(["--set", "auth.open=true", ...fork, "--set", "sandboxNamespace=sandboxes"]).map((o) => o.kind)).toContain(
      "ValidatingAdmissionPolicy",
    );
    expect(render(["--set", "auth.open=true", "--set", "sandboxAdmissionPolicy.enabled=false"]).map((o) => o.kind)).not.toContain(
      "ValidatingAdmissionPolicy",
    );
  });

  it("console: off by default; when on, its address, operators and TLS reach Hangar, its own Service keeps a client on one replica, and the API policy opens its port", () => {
    const off = render(["--set", "auth.open=true"]);
    expect(env(off).HANGAR_CONSOLE_LISTEN).toBeUndefined();
    expect(off.some((o) => o.kind === "Service" && o.metadata.name === "t-hangar-console")).toBe(false);
    expect(env(all)).toMatchObject({
      HANGAR_CONSOLE_LISTEN: "0.0.0.0:8443",
      HANGAR_CONSOLE_OPERATORS: "platform",
      HANGAR_CONSOLE_OPERATOR_WRITE: "true",
      HANGAR_CONSOLE_SECURE_COOKIE: "true",
      HANGAR_CONSOLE_SESSION_SECONDS: "3600",
      HANGAR_CONSOLE_TLS_CERT: "/etc/hangar/console-tls/tls.crt",
      HANGAR_CONSOLE_TLS_KEY: "/etc/hangar/console-tls/tls.key",
    });
    const pod = one(all, "Deployment").spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: "console-tls", secret: { secretName: "hangar-console-tls", defaultMode: 288 } });
    expect(pod.containers[0].ports).toContainEqual({ name: "console", containerPort: 8443, protocol: "TCP" });
    const svc = one(all, "Service", "t-hangar-console");
    expect(svc.spec).toMatchObject({
      sessionAffinity: "ClientIP",
      ports: [{ name: "console", port: 8443, targetPort: "console", appProtocol: "https" }],
    });
    const api = all.find((o) => o.kind === "NetworkPolicy" && o.metadata.name === "t-hangar-api") as Obj;
    expect(api.spec.ingress[0]?.ports).toContainEqual({ protocol: "TCP", port: "console" });
  });

  it("pull progress: off by default; when on, a DaemonSet on the nodes' addresses reads containerd's content store read only, without capabilities or a token, and Hangar asks it", () => {
    const off = render(["--set", "auth.open=true"]);
    expect(off.some((o) => o.kind === "DaemonSet" && o.metadata.name === "t-hangar-pullwatch")).toBe(false);
    expect(env(off).HANGAR_KUBE_PULL_PROGRESS_PORT).toBeUndefined();
    expect(env(all).HANGAR_KUBE_PULL_PROGRESS_PORT).toBe("9471");
    const ds = one(all, "DaemonSet", "t-hangar-pullwatch").spec.template.spec;
    expect(ds).toMatchObject({ hostNetwork: true, automountServiceAccountToken: false, nodeSelector: { "hangar.dev/sandboxes": "true" } });
    const c = ds.containers[0];
    expect(c.args).toEqual(["--content=/containerd-content", "--listen=$(NODE_IP):9471"]);
    expect(c.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"] },
    });
    expect(c.securityContext.privileged).toBeUndefined();
    expect(c.volumeMounts).toEqual([{ name: "content", mountPath: "/containerd-content", readOnly: true }]);
    expect(ds.volumes).toEqual([
      { name: "content", hostPath: { path: "/run/containerd-root/io.containerd.content.v1.content", type: "Directory" } },
    ]);
  });

  const bad: [string, string[], RegExp][] = [
    ["a containerd root that is not an absolute path", ["--set", "pullProgress.containerdRoot=var/lib/containerd"], /containerdRoot/],
    ["a console operator that is no tenant name", ["--set", "console.operators[0]=a b"], /console/],
    ["no authentication chosen", [], /auth\.keys or auth\.existingSecret/],
    ["an unknown top-level value", ["--set", "auth.open=true", "--set", "replicas=2"], /additional properties|replicas/i],
    ["an unknown config key", ["--set", "auth.open=true", "--set", "config.maxSandboxez=3"], /maxSandboxez/],
    ["a config value of the wrong type", ["--set", "auth.open=true", "--set", "config.maxSandboxes=lots"], /maxSandboxes/],
    ["a key shorter than 16 characters", ["--set", "auth.keys.alpha=short"], /alpha|minLength|16/i],
    ["a malformed warm pool list", ["--set", "auth.open=true", "--set", "config.warmPools=python"], /warmPools/],
    ["a warm pool cap that is no quantity", ["--set", "auth.open=true", "--set", "config.warmPools=python=2+memory:lots"], /warmPools/],
    ["a bad CIDR", ["--set", "auth.open=true", "--set", "networkPolicy.blockedCIDRs[0]=nowhere"], /blockedCIDRs/],
    ["an unknown egress enforcement", ["--set", "auth.open=true", "--set", "config.egressEnforcement=cilium"], /egressEnforcement/],
    [
      "a grantable range that is no CIDR list",
      ["--set", "auth.open=true", "--set", "config.egressGrantableCidrs=inference-service"],
      /egressGrantableCidrs/,
    ],
  ];
  for (const [name, args, msg] of bad) it(`refuses ${name}`, () => expect(refuse(args)).toMatch(msg));
  it("takes warm pools with +https, caps and a runner (ADR 0042, 0043)", () => {
    const list = "python:3.11=8+cpu:2+memory:4Gi,python:3.11=2-8+https@gpu,python:3.11=1+https+memory:512Mi";
    const docs = render(["--set", "auth.open=true", "--set", `config.warmPools=${list.replaceAll(",", "\\,")}`]);
    expect(JSON.stringify(docs)).toContain(list);
  });
});
