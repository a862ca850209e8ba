/** Field rules (api/field-policy.ts) of volumes: a spec's volumes (SPEC_VOLUME_RULES), VolumeService and file-system snapshots (STORAGE_RULES). */
import { c, h, r, type Rule } from "./rule.js";

export const SPEC_VOLUME_RULES: Record<string, Rule> = {
  "SandboxVolume.name": h("the volume's name (a DNS label)", "test/e2e/test_wire.py::test_volume_mounts_read_only_and_sub_path"),
  "SandboxVolume.scratch": h("a scratch volume, below", "test/e2e/test_wire.py::test_volume_mounts_read_only_and_sub_path"),
  "SandboxVolume.volume_id": h(
    "a registered volume of the caller's tenant (ListVolumes), mounted by the primary container's volume_mounts: Kubernetes a persistentVolumeClaim (sub_path honoured), local a bind of the operator's directory (no sub_path). An id the tenant does not have is NOT_FOUND (CWSANDBOX_VOLUME_NOT_FOUND; another tenant's reads the same), one not ready FAILED_PRECONDITION (CWSANDBOX_VOLUME_NOT_READY), a write mount of a volume registered read-only or ReadOnlyMany, or a second writer of a ReadWriteOnce/ReadWriteOncePod one, FAILED_PRECONDITION (CWSANDBOX_VOLUME_IN_USE)",
    "test/e2e/test_sdk_volumes.py::test_local_directories_registered_per_tenant",
    "test/e2e/test_sdk_volumes.py::test_a_registered_claim_is_its_tenants_alone_with_one_writer",
    "test/e2e/test_sdk_volumes.py::test_a_claim_registered_read_only_takes_no_writer",
  ),
  "ScratchVolume.size": h(
    "emptyDir sizeLimit on Kubernetes (a restored volume with HANGAR_KUBE_FORK_DRIVER: a file system of that size, ENOSPC past it, ADR 0029; in a reused pool pod, ADR 0042: a tmpfs of that size in the sandbox's cell, ENOSPC past it, memory of the pod); locally (Hangar is root) a file system of that size of the volume's own (writes past it fail with ENOSPC; below 1Mi INVALID_ARGUMENT); not enforced when Hangar runs as an ordinary user",
    "test/e2e/test_sdk_snapshots.py::test_a_local_volume_holds_its_size_and_no_more",
    "test/e2e/test_sdk_fork_kubernetes.py::test_a_kubernetes_fork_holds_its_size_and_no_more",
    "test/e2e/test_kube_claim_config.py::test_a_scratch_volume_is_made_in_the_cell_at_claim_and_holds_its_size",
    "test/unit/kube-pure.test.ts::caps the main container at the base plus each sized scratch volume once",
  ),
  "ScratchVolume.medium": r("storage media are not selectable"),
  "ScratchVolume.restore_from_snapshot_id": c(
    "the volume is filled from this snapshot of the caller's tenant before the sandbox is RUNNING (tar -x in the sandbox through a writable mount of its root on the primary, else INVALID_ARGUMENT; on the local runtime with Hangar as root, mounted copy-on-write over the snapshot unpacked once, ADR 0026; on Kubernetes with HANGAR_KUBE_FORK_DRIVER, a copy-on-write clone of the snapshot's image on the node, ADR 0029); unknown or another tenant's NOT_FOUND (CWSANDBOX_FSS_NOT_FOUND), not READY FAILED_PRECONDITION (CWSANDBOX_FSS_NOT_READY); a restore that fails ends the sandbox FAILED saying why. Without HANGAR_SNAPSHOT_DIR: FAILED_PRECONDITION (CWSANDBOX_FSS_NOT_SUPPORTED)",
  ),
};

export const STORAGE_RULES: Record<string, Rule> = {
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
