/**
 * Every label, annotation, finalizer and CSI attribute key Hangar puts on Kubernetes objects, in one
 * place: what a key means is read here, and the rooms that write or read it import it from here.
 */

/** Who manages a sandbox pod (the pod watch selects on it). */
export const MANAGED_BY = "app.kubernetes.io/managed-by";
export const MANAGED_BY_VALUE = "hangar";

// --- sandbox pods (pod/labels.ts, pod/spec.ts) ---
export const SANDBOX_ID = "hangar.dev/sandbox-id";
export const TAGS_ANNOTATION = "hangar.dev/tags";
export const TENANT = "hangar.dev/tenant";
/** A tag's label: this prefix and a hash of the tag (any tag fits a label key). */
export const TAG_LABEL_PREFIX = "t.hangar.dev/";
/** A tag that is a readable key=value is also this prefix and its key. */
export const READABLE_TAG_PREFIX = "tag.hangar.dev/";
/** "allow" or "deny": the chart's NetworkPolicies select on it. */
export const EGRESS_LABEL = "hangar.dev/egress";
/** The sandbox's record (runtime/record-codec.ts), held on its pod by the finalizer of the same name. */
export const RECORD_ANNOTATION = "hangar.dev/record";
export const RECORD_FINALIZER = "hangar.dev/record";
/** The hostname grants of a pod: the egress proxy's only way to know what a caller may reach (egress/proxy.ts). */
export const HOSTS_ANNOTATION = "hangar.dev/egress-hosts";

// --- warm pools (pool/warm-pool.ts) ---
export const POOL_LABEL = "hangar.dev/warm-pool";
/** Whether commands run under the sh kill wrapper ("sh") or directly ("plain"); written once exec works. */
export const EXEC_ANNOTATION = "hangar.dev/exec";
/** Set on a pool pod claimed for a sandbox: the sandbox's env is applied to each exec (the pod was made without it). */
export const CLAIMED_LABEL = "hangar.dev/claimed";
/** A reusable pool pod (ADR 0040): its sandboxes run in cells of hangar-agent's supervisor, and it returns to its pool after each. */
export const CELL_LABEL = "hangar.dev/cell";
/** The pool a claimed reusable pod goes back to (the claim removes POOL_LABEL: it is not idle). */
export const CELL_POOL_LABEL = "hangar.dev/cell-pool";
/** The tenant (label value) whose sandboxes a reused pod has served: only that tenant's claims take it again (ADR 0040). */
export const POOL_TENANT_LABEL = "hangar.dev/pool-tenant";
/** A reused pod's ended sandbox: its record, in a ConfigMap of its own, until retention ends (ADR 0040). */
export const ENDED_RECORD_LABEL = "hangar.dev/ended-record";

// --- Secrets (stores/secret-store.ts) ---
/** A tenant's secret store: only Secrets labelled with it are read. */
export const STORE_LABEL = "hangar.dev/secret-store";
/** A per-sandbox copy of its secret values (swept when its pod never came). */
export const ENV_SECRET_LABEL = "hangar.dev/sandbox-env";

// --- templates and volumes (stores/) ---
export const TEMPLATE_LABEL = "hangar.dev/template-tenant";
export const VOLUME_TENANT_LABEL = "hangar.dev/volume-tenant";
export const VOLUME_ID_ANNOTATION = "hangar.dev/volume-id";
export const VOLUME_READ_ONLY_ANNOTATION = "hangar.dev/volume-read-only";
export const VOLUME_DESCRIPTION_ANNOTATION = "hangar.dev/volume-description";

// --- CSI volume attributes of hangar-forkcsi (fork/volumes.ts) ---
export const ATTR_ARCHIVE = "hangar.dev/archive";
export const ATTR_LAYER = "hangar.dev/layer";
export const ATTR_SIZE = "hangar.dev/size";
