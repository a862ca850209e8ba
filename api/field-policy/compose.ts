/** Field rules (api/field-policy.ts) of CreateSandboxFromFile: a Compose file run as one sandbox (api/compose.ts, docs/compose.md). */
import { c, h, u, type Rule } from "./rule.js";

export const COMPOSE_RULES: Record<string, Rule> = {
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
};
