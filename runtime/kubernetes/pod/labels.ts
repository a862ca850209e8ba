/**
 * How sandboxes are found in Kubernetes (docs/adr/0005-tags-as-labels.md):
 * - ownership labels: managed-by, sandbox id, tenant;
 * - every tag becomes one label `t.hangar.dev/<hash of the tag>: "1"`, so any set of tags is
 *   ONE label selector (all keys present), whatever characters the tags contain;
 * - a tag that is a valid `key:value` label pair is also a readable label `tag.hangar.dev/key: value`;
 * - the exact tag list (duplicates and order kept) is JSON in an annotation.
 */
import { createHash } from "node:crypto";
import { MANAGED_BY, MANAGED_BY_VALUE, READABLE_TAG_PREFIX, SANDBOX_ID, TAG_LABEL_PREFIX, TAGS_ANNOTATION, TENANT } from "./keys.js";
export { MANAGED_BY, MANAGED_BY_VALUE, SANDBOX_ID, TAGS_ANNOTATION, TENANT };

const NAME = /^[A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?)?$/;

export const tagLabelKey = (tag: string): string => `${TAG_LABEL_PREFIX}${createHash("sha256").update(tag).digest("hex").slice(0, 40)}`;

/** The readable label for a `key:value` tag, when both halves are valid label parts. */
export function readableLabel(tag: string): [string, string] | undefined {
  const i = tag.indexOf(":");
  if (i <= 0) return undefined;
  const k = tag.slice(0, i),
    v = tag.slice(i + 1);
  return NAME.test(k) && VALUE.test(v) ? [`${READABLE_TAG_PREFIX}${k}`, v] : undefined;
}

/** The tenant as a label value: itself when it is a valid one, else a hash (the record keeps the name). */
export const tenantLabelValue = (tenant: string): string =>
  VALUE.test(tenant) && tenant.length <= 63 ? tenant : `h-${createHash("sha256").update(tenant).digest("hex").slice(0, 40)}`;

export function sandboxLabels(id: string, tags: string[], tenant?: string): Record<string, string> {
  const labels: Record<string, string> = { [MANAGED_BY]: MANAGED_BY_VALUE, [SANDBOX_ID]: id };
  if (tenant !== undefined) labels[TENANT] = tenantLabelValue(tenant);
  for (const t of tags) {
    labels[tagLabelKey(t)] = "1";
    const r = readableLabel(t);
    if (r) labels[r[0]] = r[1];
  }
  return labels;
}

/** One label selector for "managed by Hangar and carrying all these tags". */
export function tagSelector(tags: string[]): string {
  return [`${MANAGED_BY}=${MANAGED_BY_VALUE}`, ...[...new Set(tags)].map((t) => tagLabelKey(t))].join(",");
}
