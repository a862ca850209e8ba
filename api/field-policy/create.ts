/** Field rules (api/field-policy.ts) of CreateSandbox: the request, the Sandbox, the spec's top-level fields, its services and endpoints. */
import { c, h, o, r, u, type Rule } from "./rule.js";

export const CREATE_RULES: Record<string, Rule> = {
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
};
