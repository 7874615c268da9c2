package io.locus.helm;

/** Non-default values the tests render and lint. */
final class ValueSets {
  private ValueSets() {}

  /** Three pools (two file policies, one split policy with parameters), custom state and sizes. */
  static final String MULTI_POOL = """
      image:
        tag: "1.2.3"
        pullPolicy: Always
        scheduler: {repository: registry.example.org/locus-scheduler}
        agent: {repository: registry.example.org/locus-agent, tag: "1.2.4"}
        cli: {repository: registry.example.org/locus-cli}
      kafka: {bootstrapServers: "kafka-a:9093,kafka-b:9093", strimziCluster: main}
      pools:
        - {name: batch, policy: MCH}
        - {name: astro, policy: GCC}
        - {name: lhcb, policy: FARM, params: {tCpu: "0.02", cacheGb: 40}}
      scheduler:
        window: 1000
        theta: 0.75
        checkpointIntervalSeconds: 10
        maxLocalityWait: PT0S
        preemptionGrace: "off"
        jobManager: {resources: {memory: 3072m, cpu: 1.5}}
        taskManager: {slots: 2, resources: {memory: 8192m, cpu: 4}}
      state: {uri: "gs://acme-locus/prod/"}
      topics: {replicas: 2}
      agent:
        pool: astro
        slots: 8
        cacheQuota: 200GB
        hostPath: /mnt/nvme/locus
        httpPort: 7171
        resources: {requests: {cpu: "1", memory: 2Gi}, limits: {cpu: "4", memory: 6Gi}}
      """;

  /** No Strimzi (an init Job makes the topics), Kafka security and secrets given as values. */
  static final String NO_STRIMZI_SECURED = """
      topics: {strimzi: {enabled: false}, replicas: 3}
      security:
        kafka: {properties: "security.protocol=SASL_SSL\\nsasl.mechanism=SCRAM-SHA-512\\n"}
        decisionSecret: {value: "a-decision-secret"}
        nodeSecret: {value: "a-node-secret"}
      """;

  /** Existing Secrets, per-node keys, both monitors on, parallelism set explicitly. */
  static final String MONITORED_EXISTING_SECRETS = """
      pools:
        - {name: a, policy: MCU}
        - {name: b, policy: MCH}
      scheduler: {parallelism: 4, flinkVersion: v2_2}
      security:
        kafka: {existingSecret: kafka-client-tls}
        decisionSecret: {existingSecret: locus-decision}
        nodeSecret: {existingSecret: locus-cluster-node-secret}
        nodeKeys: {existingSecret: locus-node-keys}
      metrics:
        podMonitor: {enabled: true}
        serviceMonitor: {enabled: true}
        dashboard: {namespace: monitoring}
      """;
}
