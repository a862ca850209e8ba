/**
 * Every request field of every RPC Hangar serves is honoured or refused, never ignored.
 * FIELD_RULES classifies each field reachable from SandboxService and DiscoveryService
 * requests; METHOD_RULES refuses whole methods. test/unit/field-policy.test.ts walks the
 * descriptors and fails on a field without a rule (a new SDK field cannot slip through),
 * and docs/fields.md is generated from these tables (scripts/gen-field-table.mjs).
 *
 * At run time the guard refuses a request that sets a `refused` field to anything but its
 * default (INVALID_ARGUMENT naming the field, or UNIMPLEMENTED where the rule says so);
 * `checked` fields are decided by the handler's own validation (api/spec.ts and the
 * handlers), which owns their whole subtree; `output` fields are OUTPUT_ONLY in the
 * contract and ignored on input (AIP-203).
 */
import protobuf from "protobufjs";
import { errors, type FieldViolation } from "../core/errors.js";

/**
 * A test reference: `<path>::<name>` — a pytest function (`test/e2e/x.py::test_y`: the file holds
 * `def test_y(`) or a vitest title (`test/unit/x.test.ts::<a unique part of the it/test title>`).
 * test/unit/field-policy.test.ts fails when an honoured rule names none, or one that does not exist.
 */
export type TestRef = string;

export type Rule =
  | { honoured: string; tests: TestRef[] }
  | { checked: string; tests?: TestRef[] }
  | { refused: string; unimplemented?: true }
  | { output: true };

/** Honoured: what Hangar does, and the test(s) that show the effect (not merely send the field). */
const h = (how: string, ...tests: [TestRef, ...TestRef[]]): Rule => ({ honoured: how, tests });
const c = (what: string, ...tests: TestRef[]): Rule => (tests.length ? { checked: what, tests } : { checked: what });
const r = (why: string): Rule => ({ refused: why });
const u = (why: string): Rule => ({ refused: why, unimplemented: true });
const o: Rule = { output: true };

/** Services whose requests the guard walks; every other service is refused method by method. */
export const GUARDED_SERVICES = [
  "coreweave.sandbox.v1.SandboxService",
  "coreweave.sandbox.v1.DiscoveryService",
  "coreweave.sandbox.v1.SandboxTemplateService",
  "coreweave.sandbox.v1.VolumeService",
];

/** Methods of the guarded services refused as a whole (their fields are never read). */
export const METHOD_RULES: Record<string, string> = {
  "VolumeService.CreateVolume":
    "FAILED_PRECONDITION (CWSANDBOX_VOLUME_TYPE_NOT_SUPPORTED): volumes are registered by the operator (a PersistentVolumeClaim labelled hangar.dev/volume-tenant=<tenant>; HANGAR_LOCAL_VOLUMES), not through the API",
  "VolumeService.UpdateVolume":
    "FAILED_PRECONDITION (CWSANDBOX_VOLUME_TYPE_NOT_SUPPORTED): the operator changes a registration (the claim's annotations; HANGAR_LOCAL_VOLUMES)",
  "VolumeService.DeleteVolume":
    "FAILED_PRECONDITION (CWSANDBOX_VOLUME_TYPE_NOT_SUPPORTED): the operator removes a registration (the claim's label; HANGAR_LOCAL_VOLUMES)",
  "SandboxService.GetSandboxBuildLogs": "UNIMPLEMENTED (CWSANDBOX_NOT_IMPLEMENTED): Hangar builds no images",
  "SandboxService.ConnectSandbox":
    "UNIMPLEMENTED (CWSANDBOX_NOT_IMPLEMENTED): no direct data plane; the SDK's AUTO mode then uses this API (ADR 0011)",
};

/** Services refused as a whole (server.ts): every method answers with this. */
export const SERVICE_RULES: Record<string, string> = {
  "coreweave.sandbox.v1.SettingsService":
    "UNIMPLEMENTED (CWSANDBOX_NOT_IMPLEMENTED); the snapshot-bucket methods too: snapshots are kept in HANGAR_SNAPSHOT_DIR, not a bucket",
  "coreweave.sandbox.v1.SandboxDataPlaneService": "UNIMPLEMENTED (CWSANDBOX_NOT_IMPLEMENTED): no direct data plane (ADR 0011)",
};

const PRIMARY_ONLY =
  "a container of the sandbox by name (empty: the primary); a sidecar's runs its command, file or log there (plain exec: the exec agent serves the primary); a name the sandbox does not have is INVALID_ARGUMENT";

export const FIELD_RULES: Record<string, Rule> = {
  // CreateSandbox
  "CreateSandboxRequest.sandbox": h(
    "the sandbox to create (required: INVALID_ARGUMENT when missing)",
    "test/e2e/test_wire.py::test_spec_echo_and_status_fields",
    "test/e2e/test_wire.py::test_invalid_argument_with_field_violations",
  ),
  "CreateSandboxRequest.request_id": h(
    "idempotent create: a retried request_id returns the same sandbox (at most 128 characters)",
    "test/e2e/test_wire.py::test_idempotent_create_by_request_id",
    "test/unit/controller.test.ts::a retried create with the same request_id returns the same sandbox, per tenant",
  ),
  "Sandbox.sandbox_id": c("output only; set on create it is INVALID_ARGUMENT (Hangar assigns ids)"),
  "Sandbox.spec": h("the sandbox's spec, echoed by Get/List as sent", "test/e2e/test_wire.py::test_spec_echo_and_status_fields"),
  "Sandbox.status": o,
  "Sandbox.source_template_id": o,
  "Sandbox.source_template_revision": o,
  "Sandbox.endpoint_share_token": o,
  "Sandbox.control": o,
  "Sandbox.display_name": h(
    "a name for people, stored with the record and echoed by Get/List (at most 256 characters)",
    "test/e2e/test_wire.py::test_display_name_is_echoed_and_list_sorts_both_ways",
  ),
  "SandboxSpec.containers": h(
    'the primary and, on Kubernetes, up to 15 sidecars (more than one: exactly one primary=true, each named by a unique DNS label): one pod, sharing volumes, network and processes, equally confined; the primary\'s exit ends the sandbox and its sidecars. A sidecar takes image, command/args, env, working_dir, resources (no GPUs) and volume mounts (no sub_path); files, secrets, pull credentials and startup probes only on the primary (INVALID_ARGUMENT naming the field). The local runtime runs one container: more is INVALID_ARGUMENT ("only one container is supported by this runtime")',
    "test/e2e/test_sdk_multi_container.py::test_a_primary_and_a_sidecar_share_volumes_and_loopback_not_files",
    "test/e2e/test_sdk_multi_container.py::test_the_primarys_exit_ends_its_sidecars",
    "test/e2e/test_sdk_multi_container.py::test_the_local_runtime_runs_one_container",
  ),
  "SandboxSpec.volumes": h(
    "scratch volumes: an emptyDir on Kubernetes, a directory of the sandbox locally",
    "test/e2e/test_wire.py::test_volume_mounts_read_only_and_sub_path",
  ),
  "SandboxSpec.services": c(
    "ports (at most 16), Kubernetes runtime: a ClusterIP Service per sandbox (owned by its pod, so it goes with it) and the sandbox accepts inbound connections on exactly those ports. PRIVATE: Get returns each port's address (`sbx-<id>.<namespace>.svc.<cluster domain>:<port>`) while the sandbox runs; other sandboxes still cannot connect (their egress never reaches cluster-internal ranges). PUBLIC (HTTP over TCP, where the operator set HANGAR_PUBLIC_GATEWAY and HANGAR_PUBLIC_URL): an HTTPRoute per port on that Gateway, the start waits until the Gateway accepts it, and Get returns the port's URL (`https://<id>-<port>.<domain>/` or `<url>/<id>/<port>/`); elsewhere INVALID_ARGUMENT naming `services[i].visibility`. PUBLIC beside PRIVATE on one sandbox: UNIMPLEMENTED (CWSANDBOX_NOT_IMPLEMENTED). Discovery advertises what the runner offers. Local runtime: INVALID_ARGUMENT naming the field. CUSTOM visibility: UNIMPLEMENTED. A TLS passthrough endpoint (PUBLIC, TCP, no auth or request timeout, else INVALID_ARGUMENT naming the field; where the operator set HANGAR_PUBLIC_TLS_GATEWAY and HANGAR_PUBLIC_TLS_ADDRESS): a TLSRoute per port on that Gateway listener, routing only the port's own SNI name (`<id>-<port>.<domain>`), unopened, to it; the start waits until the Gateway accepts it and Get returns `endpoint.address` (`<id>-<port>.<domain>:<port>`) from create on; elsewhere FAILED_PRECONDITION (CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED). An HTTPS endpoint (PUBLIC, TCP, auth OPEN or SHARE_TOKEN, else INVALID_ARGUMENT naming the field; request_timeout_seconds other than 0 UNIMPLEMENTED): where HANGAR_PUBLIC_URL is https:// (the Gateway terminates TLS), the port's HTTPRoute and URL, echoed as `endpoint{kind, auth, url}`; elsewhere INVALID_ARGUMENT naming `services[i].endpoint.kind`. SHARE_TOKEN (where the operator set HANGAR_PUBLIC_AUTH_FILTER, HANGAR_SHARE_TOKEN_KEY_FILE and HANGAR_SHARE_TOKEN_CHECK_LISTEN): the route names the operator's forward-auth filter, which asks Hangar's check about each request; the create response carries `endpoint_share_token` (Get and List never do); a request passes with it in `X-Sandbox-Share-Token` or `?share_token=`, else 401; elsewhere FAILED_PRECONDITION (CWSANDBOX_HTTPS_SHARE_TOKEN_NOT_SUPPORTED)",
  ),
  "Service.port": c("1-65535, each port/protocol once"),
  "Service.name": c("optional port name (IANA style: at most 15 of a-z, 0-9, '-'), each once"),
  "Service.protocol": c("TCP (also when unset), UDP or SCTP; PUBLIC (HTTP or TLS passthrough): TCP only (INVALID_ARGUMENT)"),
  "Service.visibility": c(
    "PRIVATE (also when unset); PUBLIC through the operator's Gateway (refused where none is configured); CUSTOM is UNIMPLEMENTED",
  ),
  "Service.endpoint": c(
    "see SandboxSpec.services: TLS passthrough where the operator configured a TLS listener; other kinds refused with the SDK's reasons",
  ),
  "EndpointSpec.kind": c("see SandboxSpec.services"),
  "EndpointSpec.auth": c("see SandboxSpec.services"),
  "EndpointSpec.request_timeout_seconds": c("see SandboxSpec.services"),
  "SandboxSpec.max_lifetime_seconds": h(
    "the sandbox is stopped after it (0 = the operator's default; above the maximum is INVALID_ARGUMENT)",
    "test/e2e/test_sdk_lifecycle.py::test_max_lifetime_is_enforced",
    "test/unit/controller.test.ts::the reaper stops sandboxes past their lifetime",
  ),
  "SandboxSpec.network_ids": u("network_ids"),
  "SandboxSpec.object_storage_access": u("object storage access"),
  "SandboxSpec.tags": h(
    "labels on Kubernetes, filters of List and Purge (at most 64, 256 characters each)",
    "test/e2e/test_sdk_lifecycle.py::test_list_by_tags_and_state",
    "test/e2e/test_wire.py::test_purge_by_tags_dry_run_and_real",
    "test/integration/kube-runtime.test.ts::runs a sandbox whose tags are one label selector away",
  ),
  "SandboxSpec.runner_ids": h(
    "the sandbox runs on one of these runners (node pools on Kubernetes); unknown ids are NO_SUITABLE_RUNNER",
    "test/e2e/test_wire.py::test_typed_refusals_on_create",
    "test/unit/field-effects.test.ts::ListSandboxes: runner_ids keep",
    "test/integration/kube-runtime.test.ts::runner_ids pick a node pool",
  ),
  "SandboxSpec.network": h("network options, below", "test/e2e/test_sdk_hostile.py::test_egress_reaches_the_internet_only_when_allowed"),
  "SandboxSpec.annotations": h(
    "pod annotations on Kubernetes; stored and echoed locally. Keys the cluster or its container runtimes act on (under kubernetes.io/ or k8s.io/ and their subdomains, io.kubernetes., io.containerd., io.katacontainers., run.oci.) and Hangar's own (hangar.dev/) are INVALID_ARGUMENT naming the key",
    "test/unit/field-effects.test.ts::annotations reach the pod and are echoed by Get",
    "test/unit/egress.test.ts::the API refuses the cluster's own annotation",
  ),
  "SandboxSpec.instance_type": r("instance types are not offered: ask for cpu, memory and gpu in resources"),
  "SandboxSpec.mode": c("UNSPECIFIED, SERVERLESS and CKS run the same way; SERVERLESS with runner_ids is INVALID_ARGUMENT"),
  "SandboxSpec.runtime_class": h(
    "Kubernetes: the pod's runtimeClassName, one of the cluster's RuntimeClasses a node of the runner can run (listed with rbac.readNodes; else only HANGAR_KUBE_RUNTIME_CLASS), else INVALID_ARGUMENT naming what is offered; echoed as effective_runtime_class. Local: none offered, so INVALID_ARGUMENT",
    "test/integration/gpu.test.ts::a sandbox asking for one of the cluster's RuntimeClasses runs under it",
    "test/integration/gpu.test.ts::one the cluster does not have is refused by field",
    "test/e2e/test_sdk_options.py::test_a_runtime_class_is_refused_naming_the_field",
  ),
  "SandboxSpec.network_config_id": r("named network configurations are not offered"),
  "SandboxSpec.runtime_class_selection": c(
    "a category (CPU_DEFAULT, CPU_NESTED_VIRT, CPU_SNAPSHOT_RESTORE, GPU_DEFAULT) the operator mapped to a RuntimeClass or the node's default in HANGAR_RUNTIME_CLASS_SELECTION: the sandbox runs as if it had named that class in runtime_class (checked against the runner's classes; echoed in effective_runtime_class). An unmapped category, or both fields set: INVALID_ARGUMENT naming the field",
  ),
  "Container.name": h(
    "the container's name in container_statuses",
    "test/e2e/test_sdk_multi_container.py::test_a_primary_and_a_sidecar_share_volumes_and_loopback_not_files",
  ),
  "Container.image": h(
    "the image the sandbox runs (pulled on Kubernetes; unpacked from HANGAR_LOCAL_IMAGE_DIRS or a registry locally)",
    "test/e2e/test_sdk_hostile.py::test_an_image_found_nowhere_is_refused_naming_it_and_how_to_provide_it",
    "test/e2e/test_sdk_pull_credentials.py::test_a_private_image_runs_with_the_tenants_credentials_and_not_without",
  ),
  "Container.command": h("the main process (with args)", "test/e2e/test_sdk_lifecycle.py::test_natural_exit_is_completed_with_exit_code"),
  "Container.args": h(
    "the main process's arguments (at most 4096, 256 KiB)",
    "test/e2e/test_sdk_lifecycle.py::test_natural_exit_is_completed_with_exit_code",
  ),
  "Container.environment_variables": h(
    "the main process's environment (at most 1024 variables, 256 KiB)",
    "test/e2e/test_sdk_files_logs.py::test_mounted_files_and_env",
  ),
  "Container.resources": h(
    "requests and limits both, when resource_requirements is absent",
    "test/unit/field-effects.test.ts::resources (the flat field) are the requests and the limits both",
    "test/e2e/test_sdk_caps.py::test_a_tiny_cpu_limit_keeps_the_memory_cap",
  ),
  "Container.files": h(
    "written into the sandbox before the main process starts (16 MiB in all)",
    "test/e2e/test_sdk_files_logs.py::test_mounted_files_and_env",
  ),
  "Container.volume_mounts": h("mounts of spec.volumes", "test/e2e/test_wire.py::test_volume_mounts_read_only_and_sub_path"),
  "Container.secret_stores": c(
    "secrets as environment variables of the main process and every exec, looked up for the caller's tenant in the stores HANGAR_SECRET_STORES configures (Kubernetes: the tenant's namespace, copied into a Secret owned by the pod; local: the tenant's directory); never echoed, stored or logged. INVALID_ARGUMENT naming the field for an unknown store, a bad name or an env_var clash; FAILED_PRECONDITION naming the field for a secret the tenant's store does not hold; with no stores configured, INVALID_ARGUMENT",
  ),
  "SecretStoreReference.store_name": c("a store HANGAR_SECRET_STORES names; another is INVALID_ARGUMENT listing the configured ones"),
  "SecretStoreReference.secrets": c(
    "at least one; each names a secret (path), an optional key (field) and the environment variable it becomes (env_var: must not clash with environment_variables or another secret); a secret the caller's tenant does not have is FAILED_PRECONDITION naming the field",
  ),
  "SecretMapping.path": c(
    "the secret's name in the store (Kubernetes: the Secret, lowercased with '_' as '-', labelled hangar.dev/secret-store=<store>; directory: the file or directory of that name); A-Z a-z 0-9 _ . -, else INVALID_ARGUMENT",
  ),
  "SecretMapping.field": c("a key of the secret; empty = its only key (several: FAILED_PRECONDITION asking for one)"),
  "SecretMapping.env_var": c("the environment variable it becomes (required; a clash is INVALID_ARGUMENT)"),
  "Container.working_dir": h(
    "the main process's working directory",
    "test/unit/field-effects.test.ts::working_dir is the pod's workingDir and the local sandbox's --chdir",
  ),
  "Container.resource_requirements": h(
    "requests and limits, below",
    "test/e2e/test_wire.py::test_spec_echo_and_status_fields",
    "test/e2e/test_sdk_caps.py::test_a_tiny_cpu_limit_keeps_the_memory_cap",
  ),
  "Container.security_context": h(
    "security context, below: Hangar's own is always applied (no privileges, no escalation, seccomp, no capabilities locally)",
    "test/e2e/test_sdk_hostile.py::test_commands_run_under_a_seccomp_filter_with_no_new_privileges",
    "test/e2e/test_sdk_hostile.py::test_commands_and_the_main_process_have_no_capabilities",
  ),
  "Container.image_pull_credentials": c(
    "Kubernetes: the image is pulled with a pull Secret of the sandbox's own (kubernetes.io/dockerconfigjson, owned by its pod; imagePullPolicy Always, so the registry checks the credentials for every such sandbox), built from a secret in the caller's tenant store holding \"username:password\" or a Docker config document; never from a warm pool. Local runtime: INVALID_ARGUMENT naming the field (images there are shared between tenants). A registry other than the image's, an unknown store or a bad name: INVALID_ARGUMENT naming the field; a secret the tenant lacks or in neither form: FAILED_PRECONDITION naming the field",
  ),
  "ImagePullCredentials.registry": c("the image's registry host[:port] (docker.io for Docker Hub images); another is INVALID_ARGUMENT"),
  "ImagePullCredentials.credentials": c("the secret in a store (HANGAR_SECRET_STORES), below"),
  "SecretSource.store_name": c("a configured store; another is INVALID_ARGUMENT listing them"),
  "SecretSource.path": c("the secret's name in the store, as SecretMapping.path"),
  "SecretSource.field": c("a key of the secret; empty = its only key"),
  "Container.primary": h(
    "which container is the primary (required with more than one: exactly one)",
    "test/e2e/test_sdk_multi_container.py::test_the_primarys_exit_ends_its_sidecars",
  ),
  "Container.startup_probe": c(
    "the sandbox is RUNNING only once exec (argv, no shell) exits 0, tried every period_seconds after initial_delay_seconds with timeout_seconds each (0 = Kubernetes' defaults 10, 1, 3, 0); failure_threshold failures in a row end it FAILED saying so. Kubernetes: the container's startupProbe (the kubelet runs it; never from a warm pool); local: Hangar runs it in the sandbox. Bounded by HANGAR_STARTUP_TIMEOUT_SECONDS on Kubernetes; at most 3600 s in all, else INVALID_ARGUMENT naming the field",
  ),
  "Probe.exec": c("see Container.startup_probe (required)"),
  "Probe.period_seconds": c("see Container.startup_probe: 1-3600"),
  "Probe.timeout_seconds": c("see Container.startup_probe: 1-3600"),
  "Probe.failure_threshold": c("see Container.startup_probe: 1-1000"),
  "Probe.initial_delay_seconds": c("see Container.startup_probe: 0-3600"),
  "Resources.cpu": h(
    "a Kubernetes quantity: the pod's cpu request or limit; locally a limit is the cgroup CPU quota (at least the kernel's 1 ms)",
    "test/e2e/test_sdk_caps.py::test_a_tiny_cpu_limit_keeps_the_memory_cap",
    "test/unit/cgroups.test.ts::cpu: 1m keeps the memory and pids caps",
    "test/unit/kube-pure.test.ts::carries command, env and the caller's quantity strings verbatim",
  ),
  "Resources.memory": h(
    "a Kubernetes quantity: the pod's memory request or limit; locally a limit is the cgroup memory cap",
    "test/e2e/test_sdk_caps.py::test_a_tiny_cpu_limit_keeps_the_memory_cap",
    "test/unit/kube-pure.test.ts::carries command, env and the caller's quantity strings verbatim",
  ),
  "Resources.gpu": h(
    "GPUs, below. The local runtime has only the device nodes the operator lists (HANGAR_LOCAL_GPU_DEVICES, one per GPU, HANGAR_LOCAL_GPU_TYPE / _MEMORY_GB): a sandbox gets that many free ones bound into its /dev, held until it ends (too few free: RESOURCE_EXHAUSTED with a retry delay); with none listed, or more asked than exist, FAILED_PRECONDITION (CWSANDBOX_NO_SUITABLE_RUNNER)",
    "test/e2e/test_local_gpus.py::test_each_sandbox_gets_only_the_gpus_it_asked_for",
    "test/integration/gpu.test.ts::a GPU sandbox of a model runs on a node of that model",
  ),
  "Gpu.count": h(
    "GPUs from one node: the extended resource (HANGAR_KUBE_GPU_RESOURCE; requests = limits) on a runner whose nodes have enough; more than any node of the runners asked for has is FAILED_PRECONDITION (CWSANDBOX_NO_SUITABLE_RUNNER) naming what exists; while none are free the sandbox waits, its status showing the scheduler's reason",
    "test/integration/gpu.test.ts::a GPU sandbox of a model runs on a node of that model",
    "test/integration/gpu.test.ts::a request no node can satisfy is refused at once",
    "test/integration/gpu.test.ts::one that waits for GPUs in use shows the scheduler's reason",
    "test/e2e/test_local_gpus.py::test_each_sandbox_gets_only_the_gpus_it_asked_for",
  ),
  "Gpu.type": h(
    'the GPU model ("H100", "A100-80GB"), matched word by word against the nodes\' model labels (HANGAR_KUBE_GPU_TYPE_LABELS): node affinity to the matching models',
    "test/integration/gpu.test.ts::a GPU sandbox of a model runs on a node of that model",
    "test/unit/placement.test.ts::sends a GPU sandbox to a node of the model (any model label) and memory asked",
  ),
  "Gpu.memory_gb": h(
    "least memory per GPU (GB): node affinity on the nodes' GPU memory label (HANGAR_KUBE_GPU_MEMORY_LABEL, MiB)",
    "test/unit/placement.test.ts::sends a GPU sandbox to a node of the model (any model label) and memory asked",
  ),
  "FileMount.path": h("absolute path of the file", "test/e2e/test_sdk_files_logs.py::test_mounted_files_and_env"),
  "FileMount.content": h("its bytes", "test/e2e/test_sdk_files_logs.py::test_mounted_files_and_env"),
  "VolumeMount.volume": h(
    "the name of a volume in spec.volumes (INVALID_ARGUMENT when there is none)",
    "test/e2e/test_wire.py::test_volume_mounts_read_only_and_sub_path",
  ),
  "VolumeMount.mount_path": h(
    "where it is mounted: an absolute path, not /.hangar-agent or below (Hangar's exec agent, ADR 0023), else INVALID_ARGUMENT",
    "test/e2e/test_wire.py::test_volume_mounts_read_only_and_sub_path",
    "test/e2e/test_sdk_snapshots.py::test_no_volume_mounts_where_hangar_mounts_its_exec_agent",
  ),
  "VolumeMount.read_only": h(
    "a read-only mount (readOnly on Kubernetes, a read-only bind locally); the volume stays writable through its other mounts",
    "test/e2e/test_wire.py::test_volume_mounts_read_only_and_sub_path",
  ),
  "VolumeMount.sub_path": h(
    'a directory inside the volume, created when missing (subPath on Kubernetes, a bind of that directory locally); relative, no "." or ".." parts, else INVALID_ARGUMENT',
    "test/e2e/test_wire.py::test_volume_mounts_read_only_and_sub_path",
  ),
  "ResourceRequirements.requests": h(
    "the pod's requests on Kubernetes (placement); the local runtime places nothing, its caps come from limits",
    "test/unit/kube-pure.test.ts::carries command, env and the caller's quantity strings verbatim",
    "test/e2e/test_wire.py::test_spec_echo_and_status_fields",
  ),
  "ResourceRequirements.limits": h(
    "limits: cgroup caps locally, the pod's limits on Kubernetes",
    "test/e2e/test_sdk_caps.py::test_a_tiny_cpu_limit_keeps_the_memory_cap",
    "test/unit/kube-pure.test.ts::carries command, env and the caller's quantity strings verbatim",
  ),
  "SecurityContext.run_as_user": r("sandboxes run as the image's user (its root is an unprivileged host id)"),
  "SecurityContext.run_as_group": r("sandboxes run as the image's group"),
  "SecurityContext.privileged": r("privileged sandboxes are not allowed"),
  "SecurityContext.allow_privilege_escalation": r("privilege escalation is not allowed"),
  "SecurityContext.read_only_root_filesystem": r("a read-only root filesystem is not offered"),
  "SecurityContext.capabilities_add": r("capabilities cannot be added"),
  "SecurityContext.capabilities_drop": r("capabilities are chosen by Hangar (none locally, a short fixed list on Kubernetes)"),
  "SecurityContext.seccomp_profile": r("the seccomp profile is chosen by Hangar"),
  "SandboxVolume.name": h("the volume's name (a DNS label)", "test/e2e/test_wire.py::test_volume_mounts_read_only_and_sub_path"),
  "SandboxVolume.scratch": h("a scratch volume, below", "test/e2e/test_wire.py::test_volume_mounts_read_only_and_sub_path"),
  "SandboxVolume.volume_id": h(
    "a registered volume of the caller's tenant (ListVolumes), mounted by the primary container's volume_mounts: Kubernetes a persistentVolumeClaim (sub_path honoured), local a bind of the operator's directory (no sub_path). An id the tenant does not have is NOT_FOUND (CWSANDBOX_VOLUME_NOT_FOUND; another tenant's reads the same), one not ready FAILED_PRECONDITION (CWSANDBOX_VOLUME_NOT_READY), a write mount of a volume registered read-only or ReadOnlyMany, or a second writer of a ReadWriteOnce/ReadWriteOncePod one, FAILED_PRECONDITION (CWSANDBOX_VOLUME_IN_USE)",
    "test/e2e/test_sdk_volumes.py::test_local_directories_registered_per_tenant",
    "test/e2e/test_sdk_volumes.py::test_a_registered_claim_is_its_tenants_alone_with_one_writer",
    "test/e2e/test_sdk_volumes.py::test_a_claim_registered_read_only_takes_no_writer",
  ),
  "ScratchVolume.size": h(
    "emptyDir sizeLimit on Kubernetes (a restored volume with HANGAR_KUBE_FORK_DRIVER: a file system of that size, ENOSPC past it, ADR 0029); locally (Hangar is root) a file system of that size of the volume's own (writes past it fail with ENOSPC; below 1Mi INVALID_ARGUMENT); not enforced when Hangar runs as an ordinary user",
    "test/e2e/test_sdk_snapshots.py::test_a_local_volume_holds_its_size_and_no_more",
    "test/e2e/test_sdk_fork_kubernetes.py::test_a_kubernetes_fork_holds_its_size_and_no_more",
    "test/unit/kube-pure.test.ts::caps the main container at the base plus each sized scratch volume once",
  ),
  "ScratchVolume.medium": r("storage media are not selectable"),
  "ScratchVolume.restore_from_snapshot_id": c(
    "the volume is filled from this snapshot of the caller's tenant before the sandbox is RUNNING (tar -x in the sandbox through a writable mount of its root on the primary, else INVALID_ARGUMENT; on the local runtime with Hangar as root, mounted copy-on-write over the snapshot unpacked once, ADR 0026; on Kubernetes with HANGAR_KUBE_FORK_DRIVER, a copy-on-write clone of the snapshot's image on the node, ADR 0029); unknown or another tenant's NOT_FOUND (CWSANDBOX_FSS_NOT_FOUND), not READY FAILED_PRECONDITION (CWSANDBOX_FSS_NOT_READY); a restore that fails ends the sandbox FAILED saying why. Without HANGAR_SNAPSHOT_DIR: FAILED_PRECONDITION (CWSANDBOX_FSS_NOT_SUPPORTED)",
  ),
  "NetworkOptions.ingress": r("ingress rules are not supported: sandboxes accept no inbound connections"),
  "NetworkOptions.egress": h(
    "Kubernetes (netinit enforcement): the rules become the pod's own nftables allowlist, loaded by an init container before the sandbox starts (ADR 0012); everything else is denied; at most 32 rules; echoed as effective_egress. Local: INVALID_ARGUMENT (deny_egress only)",
    "test/e2e/test_sdk_network.py::test_egress_grants_by_cidr_exception_and_port",
    "test/e2e/test_sdk_options.py::test_egress_rules_are_refused_by_the_local_runtime_naming_the_field",
  ),
  "NetworkOptions.deny_egress": h(
    "false: egress to the internet only (never the node, Hangar, the Kubernetes API, metadata or private ranges: the host firewall locally, the pod's own nftables rules on Kubernetes); true or unset: no egress; true with egress rules: INVALID_ARGUMENT",
    "test/e2e/test_sdk_hostile.py::test_egress_reaches_the_internet_only_when_allowed",
    "test/e2e/test_sdk_network.py::test_a_sandbox_reaches_nothing_of_the_cluster_with_or_without_egress",
  ),
  "NetworkOptions.deny_ingress": h(
    "true: the sandbox accepts no inbound connection (Kubernetes: netinit's rules admit only Hangar's own token-checked exec link; local: a sandbox has no inbound path at all); true beside services is INVALID_ARGUMENT naming the field. false or unset: inbound only on the ports of the sandbox's services (Kubernetes), none locally; no other ingress exists (`ingress` rules are refused)",
    "test/e2e/test_sdk_services.py::test_deny_ingress_true_accepts_no_inbound_connection",
    "test/unit/services.test.ts::a spec's denyIngress is what netinit reads",
  ),
  "NetworkOptions.dns_egress": r("DNS egress modes are not selectable: DNS to the pod's resolvers is open exactly when some egress is"),
  "EgressRule.cidr": h(
    "a range (IPv4 or IPv6; a bare address is a /32 or /128) the sandbox may reach; a range wholly inside the cluster-internal ranges (HANGAR_KUBE_EGRESS_PRIVATE_CIDRS) that the operator did not open (HANGAR_KUBE_EGRESS_GRANTABLE_CIDRS) is INVALID_ARGUMENT; never the node, metadata or loopback",
    "test/e2e/test_sdk_network.py::test_egress_grants_by_cidr_exception_and_port",
    "test/unit/egress.test.ts::a grant of ${cidr}",
  ),
  "EgressRule.https_hostname": h(
    'Kubernetes with the egress proxy (HANGAR_KUBE_EGRESS_PROXY_LISTEN): an exact name or a "*." wildcard, HTTPS (443) only; the sandbox gets HTTPS_PROXY, may reach only the proxy, which resolves the name itself and never connects into the never or private ranges. Without the proxy, or locally: INVALID_ARGUMENT',
    "test/e2e/test_sdk_network.py::test_hostname_grants_go_through_hangars_proxy_and_nowhere_else",
  ),
  "EgressRule.tenant": c("INVALID_ARGUMENT naming the field: sandboxes accept no inbound connections, so no sandbox can be a destination"),
  "EgressRule.any": h(
    "everything but the cluster-internal ranges, the node, metadata and loopback (the same as deny_egress=false), optionally on some ports",
    "test/unit/egress.test.ts::ranges with exceptions, any, and port ranges become grants",
  ),
  "EgressRule.selector": c(
    "INVALID_ARGUMENT naming the field: label selectors are not resolved to addresses; grant the workload's addresses by cidr",
  ),
  "EgressRule.ports": h(
    "the grant holds only on these destination ports (at most 32 ranges); empty = every port and protocol",
    "test/e2e/test_sdk_network.py::test_egress_grants_by_cidr_exception_and_port",
  ),
  "EgressRule.https_hostname_except": c(
    "INVALID_ARGUMENT naming the field: hostname exceptions are not supported (the SDK refuses them too)",
  ),
  "CidrBlock.cidr": h(
    "see EgressRule.cidr; not a CIDR: INVALID_ARGUMENT",
    "test/e2e/test_sdk_network.py::test_egress_grants_by_cidr_exception_and_port",
  ),
  "CidrBlock.except": h(
    "ranges inside cidr this grant does not cover (at most 32); one outside cidr: INVALID_ARGUMENT",
    "test/e2e/test_sdk_network.py::test_egress_grants_by_cidr_exception_and_port",
  ),
  "SelectorBlock.pod_labels": c("see EgressRule.selector"),
  "SelectorBlock.namespace_labels": c("see EgressRule.selector"),
  "PortRange.protocol": h(
    "TCP, UDP or SCTP (empty: TCP); another: INVALID_ARGUMENT",
    "test/unit/egress.test.ts::ranges with exceptions, any, and port ranges become grants",
  ),
  "PortRange.port": h("1-65535, else INVALID_ARGUMENT", "test/e2e/test_sdk_network.py::test_egress_grants_by_cidr_exception_and_port"),
  "PortRange.end_port": h(
    "the range's last port (port..65535); unset = port alone",
    "test/unit/egress.test.ts::ranges with exceptions, any, and port ranges become grants",
  ),

  // Get, List, Delete, Purge
  "GetSandboxRequest.sandbox_id": h(
    "the caller's sandbox, else NOT_FOUND",
    "test/e2e/test_wire.py::test_unknown_sandbox_is_not_found_with_reason",
    "test/e2e/test_sdk_lifecycle.py::test_tenant_isolation",
  ),
  "ListSandboxesRequest.page_size": h("page size (0 = all)", "test/e2e/test_wire.py::test_list_pages"),
  "ListSandboxesRequest.page_token": h(
    "the next page",
    "test/e2e/test_wire.py::test_list_pages",
    "test/unit/list.test.ts::walks every record exactly once with opaque tokens",
  ),
  "ListSandboxesRequest.tags": h("sandboxes carrying every tag", "test/e2e/test_sdk_lifecycle.py::test_list_by_tags_and_state"),
  "ListSandboxesRequest.state": h("sandboxes in this state", "test/e2e/test_sdk_lifecycle.py::test_list_by_tags_and_state"),
  "ListSandboxesRequest.show_terminated": h(
    "finished sandboxes too (while their records are retained)",
    "test/e2e/test_sdk_lifecycle.py::test_list_by_tags_and_state",
  ),
  "ListSandboxesRequest.runner_ids": h(
    "sandboxes on these runners",
    "test/unit/field-effects.test.ts::ListSandboxes: runner_ids keep the sandboxes on those runners",
  ),
  "ListSandboxesRequest.volume_ids": h(
    "sandboxes that mount one of these registered volumes",
    "test/e2e/test_sdk_volumes.py::test_a_registered_claim_is_its_tenants_alone_with_one_writer",
  ),
  "ListSandboxesRequest.sort_direction": h(
    "by creation time: DESCENDING newest first; ASCENDING or unset oldest first (a page token keeps its direction)",
    "test/e2e/test_wire.py::test_display_name_is_echoed_and_list_sorts_both_ways",
    "test/unit/list.test.ts::walks newest first when asked",
  ),
  "DeleteSandboxRequest.sandbox_id": h(
    "the caller's sandbox to stop and delete; an unknown id, another tenant's, or one already deleted is NOT_FOUND (CWSANDBOX_SANDBOX_NOT_FOUND)",
    "test/e2e/test_sdk_ids.py::test_deleting_twice_is_not_found",
    "test/e2e/test_sdk_lifecycle.py::test_stop_keeps_a_terminal_record",
  ),
  "DeleteSandboxRequest.grace_period_seconds": h(
    "SIGTERM, then SIGKILL after it (at most the operator's maximum)",
    "test/e2e/test_sdk_lifecycle.py::test_grace_then_kill",
    "test/e2e/test_sdk_lifecycle.py::test_stop_with_zero_grace_kills_at_once",
  ),
  "DeleteSandboxRequest.snapshot_volumes": c(
    "scratch volumes archived (READY) before the stop, their ids in file_system_snapshot_ids; a snapshot that fails leaves the sandbox running (FAILED_PRECONDITION, CWSANDBOX_FSS_NOT_READY). Without HANGAR_SNAPSHOT_DIR: FAILED_PRECONDITION (CWSANDBOX_FSS_NOT_SUPPORTED)",
  ),
  "DeleteSandboxRequest.request_id": c(
    "read only with snapshot_volumes: a retried stop reuses the snapshots its first try made (one per volume, keyed by request_id) instead of archiving again. A delete is not replayed: DeleteSandbox of a sandbox already deleted answers NOT_FOUND (CWSANDBOX_SANDBOX_NOT_FOUND), with allow_missing OK",
    "test/e2e/test_sdk_ids.py::test_deleting_twice_is_not_found",
  ),
  "DeleteSandboxRequest.allow_missing": h(
    "an unknown or already deleted id answers OK (no sandbox) instead of NOT_FOUND: a retried delete with it succeeds",
    "test/e2e/test_wire.py::test_spec_echo_and_status_fields",
    "test/e2e/test_sdk_ids.py::test_deleting_twice_is_not_found",
  ),
  "PurgeSandboxesRequest.tags": h("sandboxes carrying every tag", "test/e2e/test_wire.py::test_purge_by_tags_dry_run_and_real"),
  "PurgeSandboxesRequest.dry_run": h("count only", "test/e2e/test_wire.py::test_purge_by_tags_dry_run_and_real"),
  "PurgeSandboxesRequest.request_id": c(
    "accepted, not read: a purge is not replayed. A retry stops what still matches, so nothing twice (the sandboxes the first one stopped no longer count: its purge_count is 0)",
    "test/unit/field-effects.test.ts::PurgeSandboxes: purge_all stops every sandbox of the caller",
  ),
  "PurgeSandboxesRequest.purge_all": h(
    "every sandbox of the caller when no tags are given",
    "test/unit/field-effects.test.ts::PurgeSandboxes: purge_all stops every sandbox of the caller",
  ),

  // Exec, files, logs
  "ExecRequest.sandbox_id": h(
    "the caller's sandbox, else NOT_FOUND",
    "test/e2e/test_wire.py::test_unary_exec_truncation_and_counters",
    "test/e2e/test_sdk_ids.py::test_a_deleted_sandbox_refuses_exec_and_files_but_keeps_its_terminal_record",
  ),
  "ExecRequest.command": h("argv (1 MiB in all)", "test/e2e/test_wire.py::test_unary_exec_truncation_and_counters"),
  "ExecRequest.env": h(
    "added to the sandbox's environment (256 KiB)",
    "test/unit/field-effects.test.ts::Exec and StreamExec: env reaches the command",
    "test/unit/agent-channel.test.ts::stdout and stderr apart, env merged over the agent's",
  ),
  "ExecRequest.max_output_bytes": h(
    "output kept per stream, the rest counted and flagged truncated",
    "test/e2e/test_wire.py::test_unary_exec_truncation_and_counters",
  ),
  "ExecRequest.container": c(PRIMARY_ONLY),
  "ExecStreamRequest.init": h(
    "the command, below",
    "test/e2e/test_sdk_exec.py::test_echo_exit_codes_and_stderr",
    "test/unit/server.test.ts::creates, gets, and runs a StreamExec",
  ),
  "ExecStreamRequest.stdin": h(
    "bytes to the command's stdin, in order, with backpressure",
    "test/e2e/test_sdk_exec.py::test_stdin_streaming_with_eof",
  ),
  "ExecStreamRequest.resize": h("the terminal's new size (TTY commands)", "test/e2e/test_sdk_exec.py::test_tty_shell_with_resize"),
  "ExecStreamRequest.close": h("EOF on the command's stdin", "test/e2e/test_sdk_exec.py::test_stdin_streaming_with_eof"),
  "ExecStreamInit.sandbox_id": h(
    "the caller's sandbox, else NOT_FOUND",
    "test/e2e/test_sdk_exec.py::test_echo_exit_codes_and_stderr",
    "test/e2e/test_sdk_ids.py::test_a_deleted_sandbox_refuses_exec_and_files_but_keeps_its_terminal_record",
  ),
  "ExecStreamInit.command": h("argv (1 MiB in all)", "test/e2e/test_sdk_exec.py::test_echo_exit_codes_and_stderr"),
  "ExecStreamInit.tty": h("a pseudo-terminal", "test/e2e/test_sdk_exec.py::test_tty_shell_with_resize"),
  "ExecStreamInit.tty_width": h("its columns (below 10000)", "test/e2e/test_sdk_exec.py::test_tty_shell_with_resize"),
  "ExecStreamInit.tty_height": h("its rows (below 10000)", "test/e2e/test_sdk_exec.py::test_tty_shell_with_resize"),
  "ExecStreamInit.env": h(
    "added to the sandbox's environment (256 KiB)",
    "test/unit/field-effects.test.ts::Exec and StreamExec: env reaches the command",
    "test/unit/agent-channel.test.ts::stdout and stderr apart, env merged over the agent's",
  ),
  "ExecStreamInit.container": c(PRIMARY_ONLY),
  "ExecStreamResize.width": h("columns", "test/e2e/test_sdk_exec.py::test_tty_shell_with_resize"),
  "ExecStreamResize.height": h("rows", "test/e2e/test_sdk_exec.py::test_tty_shell_with_resize"),
  "StreamLogsRequest.sandbox_id": h(
    "the caller's sandbox, else NOT_FOUND",
    "test/e2e/test_sdk_files_logs.py::test_logs_tail_follow_and_timestamps",
  ),
  "StreamLogsRequest.follow": h(
    "keep streaming until the sandbox ends",
    "test/e2e/test_sdk_files_logs.py::test_follow_logs_end_when_the_main_process_exits",
  ),
  "StreamLogsRequest.tail_lines": h("only the last lines", "test/e2e/test_sdk_files_logs.py::test_logs_tail_follow_and_timestamps"),
  "StreamLogsRequest.since_time": h(
    "only lines after it",
    "test/unit/field-effects.test.ts::StreamLogs: since_time is the instant the runtime's lines must follow",
    "test/unit/log-store.test.ts::keeps whole lines across reads and streams, with tail, since and timestamps",
  ),
  "StreamLogsRequest.container": c(PRIMARY_ONLY),
  "StreamLogsRequest.timestamps": h("a timestamp per entry", "test/e2e/test_sdk_files_logs.py::test_logs_tail_follow_and_timestamps"),
  "StreamLogsRequest.resume_log_session_id": c(
    "a log_session_id this sandbox's stream sent: the stream continues at resume_log_offset in the same format (tail and since ignored). Another sandbox's session, or a log that restarted: a SESSION_NOT_FOUND error frame (the SDK then starts afresh). Entries carry log_session_id and next_log_offset (raw bytes, timestamp prefixes not counted) on both runtimes; on Kubernetes not for streams with timestamps or since_time",
  ),
  "StreamLogsRequest.resume_log_offset": c(
    "with resume_log_session_id: where to continue; past the log's end an INVALID_RESUME_OFFSET frame, before what the local runtime keeps a REPLAY_GAP frame; without a session: INVALID_ARGUMENT",
  ),
  "WriteFileRequest.sandbox_id": h(
    "the caller's sandbox, else NOT_FOUND",
    "test/e2e/test_sdk_files_logs.py::test_write_and_read_5_mib_binary",
    "test/e2e/test_sdk_ids.py::test_a_deleted_sandbox_refuses_exec_and_files_but_keeps_its_terminal_record",
  ),
  "WriteFileRequest.path": h(
    "absolute path",
    "test/e2e/test_sdk_files_logs.py::test_write_and_read_5_mib_binary",
    "test/e2e/test_sdk_files_logs.py::test_paths_stay_inside_the_sandbox",
  ),
  "WriteFileRequest.content": h(
    "the file's bytes (at most HANGAR_MAX_FILE_BYTES)",
    "test/e2e/test_sdk_files_logs.py::test_write_and_read_5_mib_binary",
    "test/unit/controller.test.ts::writes over the size limit are refused with FILE_TOO_LARGE",
  ),
  "WriteFileRequest.container": c(PRIMARY_ONLY),
  "ReadFileRequest.sandbox_id": h(
    "the caller's sandbox, else NOT_FOUND",
    "test/e2e/test_sdk_files_logs.py::test_write_and_read_5_mib_binary",
    "test/e2e/test_wire.py::test_unknown_sandbox_is_not_found_with_reason",
  ),
  "ReadFileRequest.path": h(
    "absolute path",
    "test/e2e/test_sdk_files_logs.py::test_write_and_read_5_mib_binary",
    "test/e2e/test_sdk_files_logs.py::test_missing_file_error",
  ),
  "ReadFileRequest.container": c(PRIMARY_ONLY),

  // Discovery
  "ListAvailableRunnersRequest.runner_group_id": h(
    "runners of this group",
    "test/unit/field-effects.test.ts::ListAvailableRunners: each filter keeps only the runners that match it",
  ),
  "ListAvailableRunnersRequest.gpu_type": h(
    "runners with a GPU model matching it (word by word, as on create)",
    "test/unit/field-effects.test.ts::ListAvailableRunners: each filter keeps only the runners that match it",
    "test/e2e/test_sdk_options.py::test_gpus_where_no_runner_has_them_are_refused_saying_what_exists",
  ),
  "ListAvailableRunnersRequest.architecture": h(
    "runners of this architecture",
    "test/unit/field-effects.test.ts::ListAvailableRunners: each filter keeps only the runners that match it",
    "test/e2e/test_sdk_lifecycle.py::test_discovery",
  ),
  "ListAvailableRunnersRequest.healthy_only": h(
    "healthy runners only",
    "test/unit/field-effects.test.ts::ListAvailableRunners: each filter keeps only the runners that match it",
  ),
  "ListAvailableRunnersRequest.page_size": h(
    "every runner fits one page",
    "test/unit/field-effects.test.ts::ListAvailableRunners: each filter keeps only the runners that match it",
  ),
  "ListAvailableRunnersRequest.page_token": c("every runner fits one page: a token is INVALID_ARGUMENT"),
  "ListAvailableRunnersRequest.view": h(
    "FULL adds resources and capabilities",
    "test/e2e/test_sdk_lifecycle.py::test_discovery",
    "test/unit/field-effects.test.ts::ListAvailableRunners: each filter keeps only the runners that match it",
  ),
  "ListAvailableRunnersRequest.service_visibility": h(
    "runners offering that service visibility: PRIVATE on the Kubernetes runtime, none locally",
    "test/unit/field-effects.test.ts::ListAvailableRunners: each filter keeps only the runners that match it",
    "test/e2e/test_sdk_services.py::test_the_local_runtime_refuses_services_naming_the_field",
  ),
  "GetAvailableRunnerRequest.runner_id": h(
    "the runner, else NOT_FOUND",
    "test/e2e/test_sdk_lifecycle.py::test_discovery",
    "test/e2e/test_wire.py::test_other_services_answer_with_reasons",
  ),
  "GetAvailableRunnerRequest.view": h(
    "the runner always comes in the FULL view, resources included (the contract's GetAvailableRunner always carries them; the SDK asks for FULL)",
    "test/unit/field-effects.test.ts::GetAvailableRunner: another organization's runner is NOT_FOUND; the view is always FULL",
    "test/e2e/test_sdk_lifecycle.py::test_discovery",
  ),
  "GetAvailableRunnerRequest.organization_id": h(
    "must match the runner's organization",
    "test/unit/field-effects.test.ts::GetAvailableRunner: another organization's runner is NOT_FOUND; the view is always FULL",
  ),
  // Templates (SandboxTemplateService; run by CreateSandboxFromTemplate), scoped to the caller's tenant
  "CreateSandboxFromTemplateRequest.template_id": h(
    "one of the caller's templates (not deleted), else NOT_FOUND",
    "test/e2e/test_sdk_templates.py::test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar",
  ),
  "CreateSandboxFromTemplateRequest.overrides": h(
    "replace on presence: each top-level field the overrides set replaces the template's (the container list whole, as the SDK sends it); the result is then checked exactly as CreateSandbox's sandbox.spec, errors naming sandbox.spec fields",
    "test/e2e/test_sdk_templates.py::test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar",
  ),
  "CreateSandboxFromTemplateRequest.request_id": h(
    "idempotent create, as CreateSandboxRequest.request_id",
    "test/unit/field-stores.test.ts::a run of a template: display_name names the sandbox, a retried request_id is the same sandbox",
  ),
  "CreateSandboxFromTemplateRequest.display_name": h(
    "the sandbox's display name (else the template's)",
    "test/unit/field-stores.test.ts::a run of a template: display_name names the sandbox, a retried request_id is the same sandbox",
  ),
  "CreateSandboxTemplateRequest.sandbox_template": h(
    "the template (required)",
    "test/e2e/test_sdk_templates.py::test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar",
  ),
  "CreateSandboxTemplateRequest.request_id": h(
    "idempotent: a retried request_id returns the same template",
    "test/e2e/test_sdk_templates.py::test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar",
    "test/unit/templates.test.ts::a retried request_id returns the same template",
  ),
  "SandboxTemplate.sandbox_template_id": c("output only; set on create it is INVALID_ARGUMENT"),
  "SandboxTemplate.display_name": h(
    "required on create, at most 256 characters",
    "test/e2e/test_sdk_templates.py::test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar",
  ),
  "SandboxTemplate.spec": h(
    "checked as CreateSandbox's sandbox.spec would be (the image may be left to the run's overrides): a field Hangar refuses there is refused here, naming sandbox_template.spec.<field>; secrets and pull credentials are looked up when a sandbox runs, for its tenant",
    "test/e2e/test_sdk_templates.py::test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar",
  ),
  "SandboxTemplate.revision": o,
  "SandboxTemplate.create_time": o,
  "SandboxTemplate.update_time": o,
  "SandboxTemplate.delete_time": o,
  "SandboxTemplate.create_user_id": o,
  "SandboxTemplate.deleted": o,
  "SandboxTemplate.attachments": h(
    "kept and returned as sent (at most 64 KiB)",
    "test/unit/field-stores.test.ts::templates: attachments come back as sent; ListSandboxTemplates pages by page_size and page_token",
  ),
  "SandboxTemplate.requires_cks": o,
  "GetSandboxTemplateRequest.sandbox_template_id": h(
    "one of the caller's templates, else NOT_FOUND",
    "test/e2e/test_sdk_templates.py::test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar",
  ),
  "GetSandboxTemplateRequest.show_deleted": h(
    "deleted templates too",
    "test/e2e/test_sdk_templates.py::test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar",
  ),
  "ListSandboxTemplatesRequest.page_size": h(
    "at most this many (default 100, at most 1000)",
    "test/unit/field-stores.test.ts::templates: attachments come back as sent; ListSandboxTemplates pages by page_size and page_token",
  ),
  "ListSandboxTemplatesRequest.page_token": h(
    "the next_page_token of the previous page",
    "test/unit/field-stores.test.ts::templates: attachments come back as sent; ListSandboxTemplates pages by page_size and page_token",
  ),
  "ListSandboxTemplatesRequest.show_deleted": h(
    "deleted templates too",
    "test/unit/templates.test.ts::deleted templates are kept for show_deleted",
    "test/e2e/test_sdk_templates.py::test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar",
  ),
  "UpdateSandboxTemplateRequest.sandbox_template_id": h(
    "one of the caller's live templates, else NOT_FOUND",
    "test/e2e/test_sdk_templates.py::test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar",
    "test/unit/templates.test.ts::updates bump the revision",
  ),
  "UpdateSandboxTemplateRequest.sandbox_template": h(
    "the new values, checked as on create",
    "test/e2e/test_sdk_templates.py::test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar",
  ),
  "UpdateSandboxTemplateRequest.update_mask": c(
    "paths among display_name, spec, attachments (another is INVALID_ARGUMENT); empty: display_name and spec (and attachments when sent). The revision goes up by one; concurrent updates never both win",
  ),
  // CreateSandboxFromFile (api/compose.ts, docs/compose.md): a Compose file run as one sandbox, one container per service.
  "CreateSandboxFromFileRequest.type": c("SANDBOX_FILE_TYPE_COMPOSE (required; another type is UNIMPLEMENTED, CWSANDBOX_NOT_IMPLEMENTED)"),
  "CreateSandboxFromFileRequest.contents": c(
    "a Compose file, at most 256 KiB: each service a container of one sandbox (Kubernetes; the local runtime runs one-service files whose service has an entrypoint); every key Hangar cannot honour is INVALID_ARGUMENT naming contents.services.<service>.<key>, build is UNIMPLEMENTED (CWSANDBOX_NOT_IMPLEMENTED); Get echoes the translated spec (docs/compose.md)",
  ),
  "CreateSandboxFromFileRequest.primary_service": c(
    "required: the service whose exit ends the sandbox; it starts last, after every other service has started and passed its healthcheck",
  ),
  "CreateSandboxFromFileRequest.image_overrides": c(
    "service -> image, replacing the file's image (a name no service has is INVALID_ARGUMENT)",
  ),
  "CreateSandboxFromFileRequest.default_resources": c(
    "cpu and memory for each service without deploy.resources (GPUs are INVALID_ARGUMENT)",
  ),
  "CreateSandboxFromFileRequest.mode": c("as CreateSandbox's sandbox.spec.mode"),
  "CreateSandboxFromFileRequest.max_lifetime_seconds": h(
    "as CreateSandbox's sandbox.spec.max_lifetime_seconds",
    "test/unit/field-effects.test.ts::CreateSandboxFromFile: lifetime, tags, annotations, network, runners and display name are the sandbox's",
  ),
  "CreateSandboxFromFileRequest.tags": h(
    "as CreateSandbox's sandbox.spec.tags",
    "test/unit/field-effects.test.ts::CreateSandboxFromFile: lifetime, tags, annotations, network, runners and display name are the sandbox's",
  ),
  "CreateSandboxFromFileRequest.network": h(
    "as CreateSandbox's sandbox.spec.network, for the whole sandbox",
    "test/unit/field-effects.test.ts::CreateSandboxFromFile: lifetime, tags, annotations, network, runners and display name are the sandbox's",
  ),
  "CreateSandboxFromFileRequest.network_ids": u("network_ids"),
  "CreateSandboxFromFileRequest.object_storage_access": u("object storage access"),
  "CreateSandboxFromFileRequest.annotations": h(
    "as CreateSandbox's sandbox.spec.annotations",
    "test/unit/field-effects.test.ts::CreateSandboxFromFile: lifetime, tags, annotations, network, runners and display name are the sandbox's",
  ),
  "CreateSandboxFromFileRequest.runner_ids": h(
    "as CreateSandbox's sandbox.spec.runner_ids",
    "test/unit/field-effects.test.ts::CreateSandboxFromFile: lifetime, tags, annotations, network, runners and display name are the sandbox's",
  ),
  "CreateSandboxFromFileRequest.request_id": h(
    "idempotent create, as CreateSandbox's; the same request_id with other contents is ALREADY_EXISTS (CWSANDBOX_REQUEST_ID_CONFLICT)",
    "test/e2e/test_sdk_compose.py::test_a_request_id_names_one_file",
  ),
  "CreateSandboxFromFileRequest.display_name": h(
    "a name for people (at most 256 characters); unset: the file's name",
    "test/unit/field-effects.test.ts::CreateSandboxFromFile: lifetime, tags, annotations, network, runners and display name are the sandbox's",
  ),
  "CreateSandboxFromFileRequest.build_contexts": u("image builds (Hangar builds no images: set image in the file or image_overrides)"),
  "CreateSandboxFromFileRequest.build_context_objects": u(
    "image builds (Hangar builds no images: set image in the file or image_overrides)",
  ),
  "CreateSandboxFromFileRequest.builder_sizes": u("image builds (Hangar builds no images: set image in the file or image_overrides)"),
  "CreateSandboxFromFileRequest.control": c(
    "PLATFORM (or unset): Hangar runs the services as the sandbox's containers and Get says CONTROL_PLATFORM; CONTAINER_ENGINE (a Docker engine inside the sandbox) is UNIMPLEMENTED (CWSANDBOX_NOT_IMPLEMENTED): it needs a privileged or nested-virtualisation runtime, which sandboxes never get",
  ),
  "CreateSandboxFromFileRequest.image_pull_credentials": c(
    "one per registry, for the primary service's image (as its container's image_pull_credentials; Kubernetes); one no service's image needs, or only a sidecar's, is INVALID_ARGUMENT",
  ),
  // VolumeService (api/volume-service.ts): the caller's registered volumes, read fresh.
  "GetVolumeRequest.volume_id": h(
    "one of the caller's registered volumes, else NOT_FOUND (CWSANDBOX_VOLUME_NOT_FOUND)",
    "test/e2e/test_sdk_volumes.py::test_a_registered_claim_is_its_tenants_alone_with_one_writer",
    "test/unit/field-stores.test.ts::volumes: Get and Validate read one of the caller's",
  ),
  "ValidateVolumeRequest.volume_id": h(
    "reads the registration again (the claim's phase; the directory's existence) and returns the volume",
    "test/unit/field-stores.test.ts::volumes: Get and Validate read one of the caller's",
  ),
  "ListVolumesRequest.page_size": h(
    "at most this many (default 100, at most 1000)",
    "test/unit/field-stores.test.ts::volumes: ListVolumes filters by states and runner_ids, and pages",
  ),
  "ListVolumesRequest.page_token": h(
    "the next_page_token of the previous page",
    "test/unit/field-stores.test.ts::volumes: ListVolumes filters by states and runner_ids, and pages",
  ),
  "ListVolumesRequest.states": h(
    "only volumes in these states (READY, or ERROR with the reason)",
    "test/unit/field-stores.test.ts::volumes: ListVolumes filters by states and runner_ids, and pages",
  ),
  "ListVolumesRequest.runner_ids": h(
    "only volumes of these runners (this Hangar's volumes belong to its runtime's runner)",
    "test/unit/field-stores.test.ts::volumes: ListVolumes filters by states and runner_ids, and pages",
  ),
  // File-system snapshots (controller/snapshots.ts, ADR 0018); without HANGAR_SNAPSHOT_DIR every one is FAILED_PRECONDITION (CWSANDBOX_FSS_NOT_SUPPORTED).
  "CreateFileSystemSnapshotRequest.sandbox_id": h(
    "one of the caller's RUNNING sandboxes (NOT_FOUND otherwise, FAILED_PRECONDITION when not running); the snapshot starts CREATING and goes READY or FAILED (Get polls it)",
    "test/e2e/test_sdk_snapshots.py::test_snapshot_once_fork_many",
  ),
  "CreateFileSystemSnapshotRequest.request_id": h(
    "idempotent: the same request_id returns the same snapshot",
    "test/unit/field-stores.test.ts::snapshots: a retried request_id is the same snapshot",
  ),
  "CreateFileSystemSnapshotRequest.scratch_volume_name": h(
    "the scratch volume archived (its root, as mounted on the primary); empty: the sandbox's only scratch volume (INVALID_ARGUMENT when it has several or none). At most HANGAR_SNAPSHOT_MAX_BYTES, else the snapshot is FAILED saying so",
    "test/unit/snapshots.test.ts::snapshots a scratch volume's root",
    "test/unit/field-stores.test.ts::snapshots: a retried request_id is the same snapshot",
  ),
  "GetFileSystemSnapshotRequest.file_system_snapshot_id": h(
    "one of the caller's snapshots, else NOT_FOUND (CWSANDBOX_FSS_NOT_FOUND)",
    "test/e2e/test_sdk_snapshots.py::test_snapshot_once_fork_many",
  ),
  "ListFileSystemSnapshotsRequest.page_size": h(
    "at most this many (default 100, at most 1000)",
    "test/unit/field-stores.test.ts::snapshots: ListFileSystemSnapshots pages and filters by source sandbox",
  ),
  "ListFileSystemSnapshotsRequest.page_token": h(
    "the next_page_token of the previous page",
    "test/unit/field-stores.test.ts::snapshots: ListFileSystemSnapshots pages and filters by source sandbox",
  ),
  "ListFileSystemSnapshotsRequest.source_sandbox_id": h(
    "only snapshots of this sandbox",
    "test/unit/field-stores.test.ts::snapshots: ListFileSystemSnapshots pages and filters by source sandbox",
    "test/e2e/test_sdk_snapshots.py::test_an_archive_over_the_cap_is_failed_and_not_kept",
  ),
  "DeleteFileSystemSnapshotRequest.file_system_snapshot_id": h(
    "removes one of the caller's snapshots (its archive and record), else NOT_FOUND (CWSANDBOX_FSS_NOT_FOUND)",
    "test/e2e/test_sdk_snapshots.py::test_snapshot_once_fork_many",
  ),
  "DeleteFileSystemSnapshotRequest.allow_missing": h(
    "an unknown id is not an error",
    "test/unit/field-stores.test.ts::snapshots: allow_missing answers OK for an unknown id",
  ),
  "DeleteSandboxTemplateRequest.sandbox_template_id": h(
    "marks the caller's template deleted (kept for show_deleted; no longer runs)",
    "test/e2e/test_sdk_templates.py::test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar",
  ),
};

// A template's PartialSandboxSpec / PartialContainer carry SandboxSpec's / Container's fields, with their rules.
for (const [k, rule] of Object.entries(FIELD_RULES)) {
  const m = /^(SandboxSpec|Container)\.(.+)$/.exec(k);
  if (m) FIELD_RULES[`Partial${m[1]}.${m[2]}`] ??= rule;
}

/** A value that is its type's default: absent, empty, zero, false or the enum's zero value. */
function isDefault(f: protobuf.Field, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return v.length === 0;
  if (f.map) return Object.keys(v as object).length === 0;
  if (f.resolvedType instanceof protobuf.Enum) return v === f.resolvedType.valuesById[0] || v === 0;
  if (f.resolvedType instanceof protobuf.Type) return false;
  return v === "" || v === 0 || v === "0" || v === false;
}

export interface RuleTrip {
  field: string;
  rule: Extract<Rule, { refused: string }>;
}

/** Every refused field the message sets, with its path (`sandbox.spec.containers[0].primary`). */
export function refusedFields(type: protobuf.Type, msg: unknown, base = ""): RuleTrip[] {
  const out: RuleTrip[] = [];
  if (!msg || typeof msg !== "object") return out;
  for (const f of type.fieldsArray) {
    f.resolve();
    const v = (msg as Record<string, unknown>)[f.name];
    if (isDefault(f, v)) continue;
    const at = base ? `${base}.${f.name}` : f.name;
    const rule = FIELD_RULES[`${type.name}.${f.name}`] ?? { refused: "Hangar does not know this field" };
    if ("refused" in rule) {
      out.push({ field: at, rule });
      continue;
    }
    if (!("honoured" in rule)) continue; // checked: the handler owns the subtree; output: ignored on input
    const t = f.resolvedType;
    if (!(t instanceof protobuf.Type) || t.fullName.startsWith(".google.")) continue;
    if (f.map) for (const [k, x] of Object.entries(v as object)) out.push(...refusedFields(t, x, `${at}[${JSON.stringify(k)}]`));
    else if (Array.isArray(v)) v.forEach((x, i) => out.push(...refusedFields(t, x, `${at}[${i}]`)));
    else out.push(...refusedFields(t, v, at));
  }
  return out;
}

/** Throws the typed refusal for a request that sets refused fields: UNIMPLEMENTED first, else every violation at once. */
export function guardRequest(type: protobuf.Type, msg: unknown, base = ""): void {
  const trips = refusedFields(type, msg, base);
  if (!trips.length) return;
  const unimpl = trips.find((t) => t.rule.unimplemented);
  if (unimpl) throw errors.notImplemented(`${unimpl.rule.refused} (field ${unimpl.field})`);
  const v: FieldViolation[] = trips.map((t) => ({ field: t.field, description: `not supported by this Hangar: ${t.rule.refused}` }));
  throw errors.invalid(v);
}
