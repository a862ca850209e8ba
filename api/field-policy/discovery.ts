/** Field rules (api/field-policy.ts) of DiscoveryService: the runners and what they offer. */
import { c, h, type Rule } from "./rule.js";

export const DISCOVERY_RULES: Record<string, Rule> = {
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
};
