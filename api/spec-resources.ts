/** Resources -> requested and limited quantities (CPU, memory, GPUs), checked as Kubernetes quantities. */
import type { FieldViolation } from "../core/errors.js";
import { parseQuantity } from "../core/quantity.js";
import type { Quantities } from "../core/types.js";
import type { Container__Output } from "./generated/coreweave/sandbox/v1/Container.js";
import type { Resources__Output } from "./generated/coreweave/sandbox/v1/Resources.js";

export function quantities(r: Resources__Output | undefined, field: string, v: FieldViolation[]): Quantities {
  const q: Quantities = {};
  if (!r) return q;
  for (const k of ["cpu", "memory"] as const) {
    const s = r[k];
    if (!s) continue;
    const n = parseQuantity(s);
    if (n === undefined || n < 0)
      v.push({ field: `${field}.${k}`, description: `"${s.slice(0, 64)}" is not a Kubernetes quantity (e.g. "500m", "512Mi")` });
    else q[k] = s;
  }
  if (r.gpu) {
    // Which runner and node can give them is the controller's placement (controller/placement.ts).
    const count = Number(r.gpu.count ?? 0);
    if (!Number.isSafeInteger(count) || count < 0 || count > 64)
      v.push({ field: `${field}.gpu.count`, description: "must be an integer from 0 to 64" });
    else if (count > 0) q.gpuCount = count;
    const type = r.gpu.type ?? "";
    if (type && (type.length > 128 || !/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/.test(type)))
      v.push({
        field: `${field}.gpu.type`,
        description: 'a GPU model such as "H100" or "A100-80GB" (letters, digits, " ._-", at most 128)',
      });
    else if (type) q.gpuType = type;
    const mem = Number(r.gpu.memory_gb ?? 0);
    if (!Number.isSafeInteger(mem) || mem < 0 || mem > 4096)
      v.push({ field: `${field}.gpu.memory_gb`, description: "must be an integer from 0 to 4096 (GB per GPU)" });
    else if (mem > 0) q.gpuMemoryGb = mem;
    if ((q.gpuType || q.gpuMemoryGb) && !q.gpuCount)
      v.push({ field: `${field}.gpu.count`, description: "a GPU type or memory needs a count of at least 1" });
  }
  return q;
}

/** The primary container's requests and limits: GPUs are not shared, and no request exceeds its limit. */
export function containerResources(c: Container__Output, cf: string, v: FieldViolation[]): { requests: Quantities; limits: Quantities } {
  const rr = c.resource_requirements;
  const requests = quantities(rr?.requests ?? c.resources ?? undefined, `${cf}.resource_requirements.requests`, v);
  const limits = quantities(rr?.limits ?? c.resources ?? undefined, `${cf}.resource_requirements.limits`, v);
  if (requests.gpuCount && limits.gpuCount && requests.gpuCount !== limits.gpuCount)
    v.push({
      field: `${cf}.resource_requirements.requests.gpu.count`,
      description: `GPU requests and limits must be equal (${requests.gpuCount} and ${limits.gpuCount}): GPUs are not shared`,
    });
  for (const k of ["cpu", "memory"] as const) {
    const rq = requests[k],
      lq = limits[k];
    if (rq && lq && (parseQuantity(rq) ?? 0) > (parseQuantity(lq) ?? 0))
      v.push({ field: `${cf}.resource_requirements.requests.${k}`, description: `request ${rq} exceeds limit ${lq}` });
  }
  return { requests, limits };
}
