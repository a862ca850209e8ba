/** Field rules (api/field-policy.ts) of SandboxTemplateService, and CreateSandboxFromTemplate. */
import { c, h, o, type Rule } from "./rule.js";

export const TEMPLATE_RULES: Record<string, Rule> = {
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
};
