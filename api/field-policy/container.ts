/** Field rules (api/field-policy.ts) of a spec's containers: what each runs, its secrets, probe, resources, mounts and security context. */
import { c, h, r, type Rule } from "./rule.js";

export const CONTAINER_RULES: Record<string, Rule> = {
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
    "secrets as environment variables of the main process and every exec, looked up for the caller's tenant in the stores HANGAR_SECRET_STORES configures (Kubernetes: the tenant's namespace, copied into a Secret owned by the pod; a sandbox served by a warm pool pod gets them at claim as a 0600 file in the sandbox that every command sources, ADR 0041; local: the tenant's directory); never echoed, stored or logged. INVALID_ARGUMENT naming the field for an unknown store, a bad name or an env_var clash; FAILED_PRECONDITION naming the field for a secret the tenant's store does not hold; with no stores configured, INVALID_ARGUMENT",
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
};
