import type { RunnerInfo, SandboxRecord, SandboxSpec } from "../../core/types.js";

export const spec = (over: Partial<SandboxSpec> = {}): SandboxSpec => ({
  image: "python:3.11",
  argv: ["/bin/sh"],
  env: {},
  files: [],
  requests: {},
  limits: {},
  tags: [],
  maxLifetimeSeconds: 0,
  runnerIds: [],
  annotations: {},
  volumes: [],
  ...over,
});

export const record = (over: Partial<SandboxRecord> = {}): SandboxRecord => ({
  id: "00000000-0000-4000-8000-000000000001",
  tenant: "alpha",
  spec: spec(),
  echo: {},
  state: "RUNNING",
  stateReason: "",
  createdAtMs: 1_000,
  startedAtMs: 2_000,
  runnerId: "r1",
  runnerGroupId: "g1",
  effectiveLifetimeSeconds: 60,
  imageNote: "",
  ...over,
});

/** A healthy runner with no GPUs, no runtime classes and nothing optional. */
export const runnerInfo = (over: Partial<RunnerInfo> = {}): RunnerInfo => ({
  runnerId: "r1",
  runnerGroupId: "g",
  organizationId: "o",
  architectures: ["amd64"],
  healthy: true,
  connectedAtMs: 0,
  maxCpuMillicores: 8000,
  maxMemoryBytes: 2 ** 34,
  availableCpuMillicores: 8000,
  availableMemoryBytes: 2 ** 34,
  runningSandboxes: 0,
  runtimeClasses: [],
  ...over,
});
