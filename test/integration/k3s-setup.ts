/**
 * Optional: with HANGAR_TEST_K3S=1 (a machine with Docker and a registry), the integration
 * tier runs against a k3s container started through testcontainers instead of the offline
 * cluster. This global setup starts it, imports the shell-less test image, creates the
 * hangar-test namespace and the least-privilege ServiceAccount, and points KUBECONFIG at it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const repo = path.resolve(import.meta.dirname, "../..");
const K3S_IMAGE = process.env.HANGAR_TEST_K3S_IMAGE ?? "rancher/k3s:v1.33.4-k3s1";

export default async function setup(): Promise<(() => Promise<void>) | void> {
  if (process.env.HANGAR_TEST_K3S !== "1") return;
  const { K3sContainer } = await import("@testcontainers/k3s");
  const k8s = await import("@kubernetes/client-node");
  execFileSync("bash", [path.join(repo, "test/cluster/build-images.sh"), "noshell"], {
    stdio: "inherit",
    env: { ...process.env, HANGAR_TEST_CACHE: path.join(repo, ".cluster/cache") },
  });
  const k3s = await new K3sContainer(K3S_IMAGE).start();
  await k3s.copyFilesToContainer([{ source: path.join(repo, ".cluster/cache/images-v1/noshell.tar"), target: "/tmp/noshell.tar" }]);
  const imported = await k3s.exec(["ctr", "-n", "k8s.io", "images", "import", "/tmp/noshell.tar"]);
  if (imported.exitCode !== 0) throw new Error(`importing the shell-less image into k3s failed: ${imported.output}`);
  mkdirSync(path.join(repo, ".cluster"), { recursive: true });
  const kubeconfig = path.join(repo, ".cluster/k3s-kubeconfig");
  writeFileSync(kubeconfig, k3s.getKubeConfig());
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const rbac = kc.makeApiClient(k8s.RbacAuthorizationV1Api);
  const ns = "hangar-test";
  await core.createNamespace({ body: { metadata: { name: ns } } });
  await core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: "hangar" } } });
  await rbac.createNamespacedRole({
    namespace: ns,
    body: k8s.loadYaml(readFileSync(path.join(repo, "test/cluster/hangar-role.yaml"), "utf8")),
  });
  await rbac.createNamespacedRoleBinding({
    namespace: ns,
    body: {
      metadata: { name: "hangar" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "hangar" },
      subjects: [{ kind: "ServiceAccount", name: "hangar", namespace: ns }],
    },
  });
  for (let i = 0; i < 100; i++) {
    try {
      await core.readNamespacedServiceAccount({ name: "default", namespace: ns });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const token = await core.createNamespacedServiceAccountToken({
    name: "hangar",
    namespace: ns,
    body: { spec: { audiences: [], expirationSeconds: 86400 } },
  });
  const cluster = kc.getCurrentCluster();
  const sa = new k8s.KubeConfig();
  sa.loadFromOptions({
    clusters: [cluster],
    users: [{ name: "hangar", token: token.status?.token }],
    contexts: [{ name: "hangar", cluster: cluster?.name, user: "hangar", namespace: ns }],
    currentContext: "hangar",
  });
  writeFileSync(path.join(repo, ".cluster/k3s-hangar-sa.kubeconfig"), sa.exportConfig());
  process.env.KUBECONFIG = kubeconfig;
  return async () => {
    await k3s.stop();
  };
}
