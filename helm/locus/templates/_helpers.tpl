{{/* Names: <release>-locus unless the release name already says locus. */}}
{{- define "locus.fullname" -}}
{{- if contains "locus" .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-locus" .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "locus.labels" -}}
app.kubernetes.io/name: locus
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* One of the three images: (dict "ctx" . "which" "scheduler"|"agent"|"cli"). */}}
{{- define "locus.image" -}}
{{- $i := index .ctx.Values.image .which -}}
{{- printf "%s:%s" $i.repository (default (default .ctx.Chart.AppVersion .ctx.Values.image.tag) $i.tag) -}}
{{- end -}}

{{/* The pool the agents serve. */}}
{{- define "locus.agentPool" -}}
{{- default (index .Values.pools 0).name .Values.agent.pool -}}
{{- end -}}

{{/* Secret names: the existing Secret, or the chart's own when a value is given; empty: none. */}}
{{- define "locus.generatedSecret" -}}{{ include "locus.fullname" . }}-secrets{{- end -}}

{{- define "locus.kafkaSecret" -}}
{{- if .Values.security.kafka.existingSecret -}}{{ .Values.security.kafka.existingSecret }}
{{- else if .Values.security.kafka.properties -}}{{ include "locus.generatedSecret" . }}
{{- end -}}
{{- end -}}

{{- define "locus.decisionSecret" -}}
{{- if .Values.security.decisionSecret.existingSecret -}}{{ .Values.security.decisionSecret.existingSecret }}
{{- else if .Values.security.decisionSecret.value -}}{{ include "locus.generatedSecret" . }}
{{- end -}}
{{- end -}}

{{- define "locus.nodeSecret" -}}
{{- if .Values.security.nodeSecret.existingSecret -}}{{ .Values.security.nodeSecret.existingSecret }}
{{- else if .Values.security.nodeSecret.value -}}{{ include "locus.generatedSecret" . }}
{{- end -}}
{{- end -}}

{{/* Where the secrets are mounted, in every pod that needs them. */}}
{{- define "locus.kafkaDir" -}}/etc/locus/kafka{{- end -}}
{{- define "locus.kafkaPropertiesFile" -}}{{ include "locus.kafkaDir" . }}/{{ .Values.security.kafka.propertiesKey }}{{- end -}}
{{- define "locus.decisionSecretFile" -}}/etc/locus/secrets/decision/{{ .Values.security.decisionSecret.key }}{{- end -}}
{{- define "locus.nodeSecretFile" -}}/etc/locus/secrets/node/{{ .Values.security.nodeSecret.key }}{{- end -}}
{{- define "locus.nodeKeyFile" -}}/etc/locus/secrets/node-key/node.key{{- end -}}

{{/* The scheduler's parallelism: explicit, or one per pool. */}}
{{- define "locus.parallelism" -}}
{{- if gt (int .Values.scheduler.parallelism) 0 -}}{{ int .Values.scheduler.parallelism }}
{{- else -}}{{ len .Values.pools }}
{{- end -}}
{{- end -}}

{{/* Split policies take per-pool parameters (--split-param POOL:KEY=VALUE); file policies share --window and --theta. */}}
{{- define "locus.splitPolicies" -}}FARM,JOB_SPLITTING,CACHE_JOB_SPLITTING,OUT_OF_ORDER,DELAYED,ADAPTIVE_DELAY{{- end -}}

{{/* `locus run` arguments, as a YAML list. */}}
{{- define "locus.runArgs" -}}
{{- $args := list "run" "--bootstrap-servers" .Values.kafka.bootstrapServers -}}
{{- $split := splitList "," (include "locus.splitPolicies" .) -}}
{{- $names := list -}}
{{- range .Values.pools -}}
{{- $names = append $names .name -}}
{{- $policy := upper .policy -}}
{{- $args = concat $args (list "--pool-policy" (printf "%s=%s" .name $policy)) -}}
{{- if and .params (not (has $policy $split)) -}}
{{- fail (printf "pools: pool %q has params but its policy %s takes none per pool; set scheduler.window and scheduler.theta instead" .name $policy) -}}
{{- end -}}
{{- $pool := .name -}}
{{- range $k, $v := .params -}}
{{- $args = concat $args (list "--split-param" (printf "%s:%s=%v" $pool $k $v)) -}}
{{- end -}}
{{- end -}}
{{- if ne (len ($names | uniq)) (len $names) -}}
{{- fail (printf "pools: a pool name is given twice: %v" $names) -}}
{{- end -}}
{{- if .Values.scheduler.declarePools -}}
{{- $args = concat $args (list "--pools" (join "," $names)) -}}
{{- end -}}
{{- $args = concat $args (list "--policy" .Values.scheduler.defaultPolicy "--window" (toString .Values.scheduler.window) "--theta" (toString .Values.scheduler.theta)) -}}
{{- $args = concat $args (list "--delivery" .Values.scheduler.delivery "--checkpoint-interval" (printf "PT%dS" (int .Values.scheduler.checkpointIntervalSeconds))) -}}
{{- $args = concat $args (list "--parallelism" (include "locus.parallelism" .) "--node-timeout" .Values.scheduler.nodeTimeout "--restart-attempts" (toString .Values.scheduler.restartAttempts)) -}}
{{- $args = concat $args (list "--max-locality-wait" .Values.scheduler.maxLocalityWait "--preemption-grace" (toString .Values.scheduler.preemptionGrace)) -}}
{{- $args = append $args "--no-create-topics" -}}
{{- if include "locus.kafkaSecret" . -}}
{{- $args = concat $args (list "--kafka-properties" (include "locus.kafkaPropertiesFile" .)) -}}
{{- end -}}
{{- if include "locus.decisionSecret" . -}}
{{- $args = concat $args (list "--decision-secret-file" (include "locus.decisionSecretFile" .)) -}}
{{- end -}}
{{- if include "locus.nodeSecret" . -}}
{{- $args = concat $args (list "--node-secret-file" (include "locus.nodeSecretFile" .)) -}}
{{- end -}}
{{- $args = concat $args .Values.scheduler.extraArgs -}}
{{- toYaml $args -}}
{{- end -}}

{{/* The agent's YAML (node-agent/README.md); no secret content, only the files' paths. */}}
{{- define "locus.agentConfig" -}}
{{- $a := .Values.agent -}}
{{- $storage := dict "root" $a.storage.root -}}
{{- if $a.storage.allowedLocations -}}{{- $_ := set $storage "allowed-locations" $a.storage.allowedLocations -}}{{- end -}}
{{- $kafka := dict "bootstrap-servers" .Values.kafka.bootstrapServers "create-topics" false -}}
{{- if include "locus.kafkaSecret" . -}}{{- $_ := set $kafka "properties-file" (include "locus.kafkaPropertiesFile" .) -}}{{- end -}}
{{- $cfg := dict "pool" (include "locus.agentPool" .) "slots" (int $a.slots) "heartbeat" $a.heartbeat "eviction" $a.eviction
  "cache" (dict "dir" (printf "%s/cache" $a.hostPath) "quota" $a.cacheQuota)
  "work" (dict "dir" (printf "%s/work" $a.hostPath))
  "storage" $storage "kafka" $kafka
  "http" (dict "bind" "0.0.0.0" "port" (int $a.httpPort))
  "templates" $a.templates "drain-timeout" $a.drainTimeout -}}
{{- if $a.defaultTemplate -}}{{- $_ := set $cfg "default-template" $a.defaultTemplate -}}{{- end -}}
{{- $sec := dict -}}
{{- if include "locus.decisionSecret" . -}}{{- $_ := set $sec "secret-file" (include "locus.decisionSecretFile" .) -}}{{- end -}}
{{- if .Values.security.nodeKeys.existingSecret -}}{{- $_ := set $sec "node-key-file" (include "locus.nodeKeyFile" .) -}}{{- end -}}
{{- if $sec -}}{{- $_ := set $cfg "security" $sec -}}{{- end -}}
{{- if and $a.defaultTemplate (not (hasKey $a.templates $a.defaultTemplate)) -}}
{{- fail (printf "agent.defaultTemplate: %q is not one of agent.templates (%s)" $a.defaultTemplate (keys $a.templates | sortAlpha | join ", ")) -}}
{{- end -}}
{{- toYaml (mergeOverwrite $cfg $a.extraConfig) -}}
{{- end -}}

{{/* Seconds of an agent duration (500ms, 30s, 5m, 1.5h, 1d): for the termination grace period. */}}
{{- define "locus.durationSeconds" -}}
{{- $d := toString . -}}
{{- if hasSuffix "ms" $d -}}1
{{- else if hasSuffix "s" $d -}}{{ trimSuffix "s" $d | float64 | ceil | int }}
{{- else if hasSuffix "m" $d -}}{{ mulf (trimSuffix "m" $d | float64) 60 | ceil | int }}
{{- else if hasSuffix "h" $d -}}{{ mulf (trimSuffix "h" $d | float64) 3600 | ceil | int }}
{{- else if hasSuffix "d" $d -}}{{ mulf (trimSuffix "d" $d | float64) 86400 | ceil | int }}
{{- else -}}{{ fail (printf "agent.drainTimeout: %q is not a duration like 30s, 5m, 1h" $d) }}
{{- end -}}
{{- end -}}
