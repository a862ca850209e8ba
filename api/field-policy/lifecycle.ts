/** Field rules (api/field-policy.ts) of GetSandbox, ListSandboxes, DeleteSandbox and PurgeSandboxes. */
import { c, h, type Rule } from "./rule.js";

export const LIFECYCLE_RULES: Record<string, Rule> = {
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
};
