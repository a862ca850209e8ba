{{- define "hangar.name" -}}hangar{{- end }}

{{- define "hangar.fullname" -}}
{{- if contains "hangar" .Release.Name }}{{ .Release.Name | trunc 63 | trimSuffix "-" }}{{ else }}{{ printf "%s-hangar" .Release.Name | trunc 63 | trimSuffix "-" }}{{ end }}
{{- end }}

{{- define "hangar.sandboxNamespace" -}}{{ .Values.sandboxNamespace | default .Release.Namespace }}{{- end }}

{{- /* The image and path of hangar-netinit: what Hangar runs (HANGAR_KUBE_NETINIT_IMAGE, _PATH) and all the admission policy admits. */ -}}
{{- define "hangar.netinitImage" -}}{{ .Values.config.netinitImage | default (printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion)) }}{{- end }}
{{- define "hangar.netinitPath" -}}/app/.build/hangar-netinit{{- end }}

{{- define "hangar.selectorLabels" -}}
app.kubernetes.io/name: hangar
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "hangar.labels" -}}
{{ include "hangar.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end }}

{{- /* values.config key -> Hangar setting: one-to-one (docs/configuration.md). */ -}}
{{- define "hangar.configEnv" -}}
logLevel: HANGAR_LOG_LEVEL
shutdownGraceSeconds: HANGAR_SHUTDOWN_GRACE_SECONDS
retentionSeconds: HANGAR_RETENTION_SECONDS
defaultLifetimeSeconds: HANGAR_DEFAULT_LIFETIME_SECONDS
maxLifetimeSeconds: HANGAR_MAX_LIFETIME_SECONDS
maxSandboxes: HANGAR_MAX_SANDBOXES
maxExecsPerSandbox: HANGAR_MAX_EXECS_PER_SANDBOX
maxExecs: HANGAR_MAX_EXECS
maxFileBytes: HANGAR_MAX_FILE_BYTES
maxGraceSeconds: HANGAR_MAX_GRACE_SECONDS
getHoldMs: HANGAR_GET_HOLD_MS
tenantMaxSandboxes: HANGAR_TENANT_MAX_SANDBOXES
tenantCreatesPerSecond: HANGAR_TENANT_CREATES_PER_SECOND
tenantCreateBurst: HANGAR_TENANT_CREATE_BURST
tenantMaxHeldCalls: HANGAR_TENANT_MAX_HELD_CALLS
tenantMaxExecs: HANGAR_TENANT_MAX_EXECS
tenantLimits: HANGAR_TENANT_LIMITS
execDeadlineMarginMs: HANGAR_EXEC_DEADLINE_MARGIN_MS
secretStores: HANGAR_SECRET_STORES
reportPreparing: HANGAR_REPORT_PREPARING
runtimeClassSelection: HANGAR_RUNTIME_CLASS_SELECTION
clusterDomain: HANGAR_KUBE_CLUSTER_DOMAIN
publicGateway: HANGAR_PUBLIC_GATEWAY
publicUrl: HANGAR_PUBLIC_URL
publicTlsGateway: HANGAR_PUBLIC_TLS_GATEWAY
publicTlsAddress: HANGAR_PUBLIC_TLS_ADDRESS
reapIntervalMs: HANGAR_REAP_INTERVAL_MS
mallocTrimSeconds: HANGAR_MALLOC_TRIM_SECONDS
defaultDenyEgress: HANGAR_DEFAULT_DENY_EGRESS
egressEnforcement: HANGAR_KUBE_EGRESS_ENFORCEMENT
userNamespaces: HANGAR_KUBE_USER_NAMESPACES
gvisorRuntimeClasses: HANGAR_KUBE_GVISOR_RUNTIME_CLASSES
netinitImage: HANGAR_KUBE_NETINIT_IMAGE
egressPrivateCidrs: HANGAR_KUBE_EGRESS_PRIVATE_CIDRS
egressGrantableCidrs: HANGAR_KUBE_EGRESS_GRANTABLE_CIDRS
egressDenyCidrs: HANGAR_KUBE_EGRESS_DENY_CIDRS
startupTimeoutSeconds: HANGAR_STARTUP_TIMEOUT_SECONDS
kubeDeadlineMarginSeconds: HANGAR_KUBE_DEADLINE_MARGIN_SECONDS
runtimeClassName: HANGAR_KUBE_RUNTIME_CLASS
ephemeralStorage: HANGAR_KUBE_EPHEMERAL_STORAGE
runners: HANGAR_KUBE_RUNNERS
sandboxTolerations: HANGAR_KUBE_TOLERATIONS
warmPools: HANGAR_KUBE_WARM_POOLS
poolReuse: HANGAR_KUBE_POOL_REUSE
earlyExec: HANGAR_KUBE_EARLY_EXEC
gpuResource: HANGAR_KUBE_GPU_RESOURCE
gpuTypeLabels: HANGAR_KUBE_GPU_TYPE_LABELS
gpuMemoryLabel: HANGAR_KUBE_GPU_MEMORY_LABEL
nodeRefreshSeconds: HANGAR_KUBE_NODE_REFRESH_SECONDS
execAgent: HANGAR_KUBE_EXEC_AGENT
agentDirectPorts: HANGAR_KUBE_AGENT_DIRECT_PORTS
agentImagePath: HANGAR_KUBE_AGENT_IMAGE_PATH
runnerCpuMillicores: HANGAR_RUNNER_CPU_MILLICORES
runnerMemoryBytes: HANGAR_RUNNER_MEMORY_BYTES
runnerId: HANGAR_RUNNER_ID
runnerGroupId: HANGAR_RUNNER_GROUP_ID
organizationId: HANGAR_ORGANIZATION_ID
{{- end }}

{{- define "hangar.keysSecret" -}}{{ .Values.auth.existingSecret | default (printf "%s-api-keys" (include "hangar.fullname" .)) }}{{- end }}

{{- define "hangar.shareTokenSecret" -}}{{ .Values.shareTokens.existingSecret | default (printf "%s-share-token" (include "hangar.fullname" .)) }}{{- end }}
