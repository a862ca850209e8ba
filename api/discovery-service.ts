/** DiscoveryService: the runners of this Hangar (one for the local runtime), filtered as asked. */
import { errors } from "../core/errors.js";
import { gpuTypeMatches } from "../core/gpu.js";
import type { RunnerInfo } from "../core/types.js";
import type { CallWrapper } from "./call.js";
import type { AvailableRunner } from "./generated/coreweave/sandbox/v1/AvailableRunner.js";
import type { DiscoveryServiceHandlers } from "./generated/coreweave/sandbox/v1/DiscoveryService.js";
import { timestamp } from "./sandbox-view.js";

function toProto(r: RunnerInfo, full: boolean): AvailableRunner {
  return {
    runner_id: r.runnerId,
    runner_group_id: r.runnerGroupId,
    organization_id: r.organizationId,
    tags: [],
    healthy: r.healthy,
    is_shared: false,
    connected_at: timestamp(r.connectedAtMs),
    capabilities: {
      max_cpu_millicores: String(r.maxCpuMillicores),
      max_memory_bytes: String(r.maxMemoryBytes),
      max_gpu_count: String(r.gpus?.perNodeMax ?? 0),
      supported_gpu_types: r.gpus?.types ?? [],
      supported_architectures: r.architectures,
      supports_privileged: false,
      available_storage_classes: [],
      supported_service_visibilities: [
        ...(r.serviceDomain ? ["VISIBILITY_PRIVATE" as const] : []),
        ...(r.serviceDomain && r.publicUrl ? ["VISIBILITY_PUBLIC" as const] : []),
      ],
    },
    resources: full
      ? {
          available_cpu_millicores: String(r.availableCpuMillicores),
          available_memory_bytes: String(r.availableMemoryBytes),
          available_gpu_count: String(r.gpus?.available ?? 0),
          running_sandboxes: r.runningSandboxes,
        }
      : null,
  };
}

export function createDiscoveryService(runners: () => RunnerInfo[], wrap: CallWrapper): DiscoveryServiceHandlers {
  return {
    ListAvailableRunners: wrap.unary("ListAvailableRunners", (req) => {
      if ((req.page_size ?? 0) < 0) throw errors.invalidField("page_size", "must not be negative");
      if (req.page_token) throw errors.invalidField("page_token", "not a page token from a previous response");
      const full = req.view === "RUNNER_VIEW_FULL";
      const vis = req.service_visibility ?? "VISIBILITY_UNSPECIFIED";
      const list = runners().filter(
        (r) =>
          (!req.healthy_only || r.healthy) &&
          (!req.runner_group_id || r.runnerGroupId === req.runner_group_id) &&
          (!req.architecture || r.architectures.includes(req.architecture)) &&
          (!req.gpu_type || (r.gpus?.types ?? []).some((t) => gpuTypeMatches(req.gpu_type as string, t))) &&
          (vis === "VISIBILITY_UNSPECIFIED" ||
            (vis === "VISIBILITY_PRIVATE" && !!r.serviceDomain) ||
            (vis === "VISIBILITY_PUBLIC" && !!r.serviceDomain && !!r.publicUrl)),
      );
      return { runners: list.map((r) => toProto(r, full)), next_page_token: "" };
    }),
    GetAvailableRunner: wrap.unary("GetAvailableRunner", (req) => {
      if (!req.runner_id) throw errors.invalidField("runner_id", "required");
      const r = runners().find((x) => x.runnerId === req.runner_id && (!req.organization_id || x.organizationId === req.organization_id));
      if (!r) throw errors.runnerNotFound(req.runner_id);
      return toProto(r, true);
    }),
  };
}
