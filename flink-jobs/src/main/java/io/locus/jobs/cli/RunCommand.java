package io.locus.jobs.cli;

import io.locus.connectors.DeliveryMode;
import io.locus.jobs.SchedulerJob;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Runs the scheduler job against a real Kafka cluster (locally, or submitted to a Flink cluster). */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run the scheduler job against an existing Kafka cluster.")
public final class RunCommand implements Callable<Integer> {
  @Option(names = "--bootstrap-servers", required = true, paramLabel = "HOST:PORT[,...]",
      description = "Kafka bootstrap servers.")
  String bootstrap;

  @Option(names = "--kafka-properties", paramLabel = "FILE",
      description = "Extra Kafka client properties (security.protocol, sasl.*, ssl.*).")
  Path kafkaProperties;

  @Option(names = "--policy", defaultValue = "MCH",
      description = "Default policy for every pool: a file policy (FA, FCA, MCU, MCH, GCC, MET, MCT, SA, "
          + "JDPDLL, ONLINE_HPS, COMPLEMENTARY_PLACE) or a split policy for event-range jobs (FARM, "
          + "JOB_SPLITTING, CACHE_JOB_SPLITTING, OUT_OF_ORDER, DELAYED, ADAPTIVE_DELAY; with "
          + "--split-param). Default: ${DEFAULT-VALUE}.")
  String policy;

  @Option(names = "--pool-policy", paramLabel = "POOL=POLICY",
      description = "Policy of one pool, repeatable, e.g. --pool-policy batch=GCC --pool-policy cern=OUT_OF_ORDER.")
  Map<String, String> poolPolicies = new LinkedHashMap<>();

  @Mixin PolicyOptions policyOptions;

  @Mixin ProvisioningOptions provisioningOptions;

  @Option(names = "--delivery", defaultValue = "at-least-once",
      description = "Decision delivery: exactly-once (transactional; agents read committed) or at-least-once. Default: ${DEFAULT-VALUE}.")
  String delivery;

  @Option(names = "--checkpoint-interval", defaultValue = "PT5S",
      description = "Checkpoint interval as an ISO-8601 duration. Default: ${DEFAULT-VALUE}.")
  Duration checkpointInterval;

  @Option(names = "--checkpoint-dir", paramLabel = "URI-OR-PATH",
      description = "Durable checkpoint directory (a path, or s3://, hdfs:// with the plugins).")
  Path checkpointDir;

  @Option(names = "--state-backend", defaultValue = "rocksdb",
      description = "rocksdb or hashmap. Default: ${DEFAULT-VALUE}.")
  String stateBackend;

  @Option(names = "--parallelism", defaultValue = "1",
      description = "Parallelism (pools are the unit of parallelism). Default: ${DEFAULT-VALUE}.")
  int parallelism;

  @Option(names = "--group-id", defaultValue = "locus-scheduler",
      description = "Consumer group of the job's Kafka source. Default: ${DEFAULT-VALUE}.")
  String groupId;

  @Option(names = "--transactional-id-prefix", defaultValue = "locus-scheduler",
      description = "Unique per job (exactly-once). Default: ${DEFAULT-VALUE}.")
  String txnPrefix;

  @Option(names = "--restart-attempts", defaultValue = "10",
      description = "Flink restarts before the job fails. Default: ${DEFAULT-VALUE}.")
  int restartAttempts;

  @Option(names = "--create-topics", defaultValue = "true", fallbackValue = "true", negatable = true,
      description = "Create missing topics (replication factor 1 unless --replication-factor).")
  boolean createTopics;

  @Option(names = "--replication-factor", defaultValue = "1", description = "For created topics.")
  short replicationFactor;

  @Override
  public Integer call() throws Exception {
    SchedulerJob.Options o = options();
    if (createTopics) {
      Properties admin = ClientConfigs.base(bootstrap);
      if (kafkaProperties != null) {
        ClientConfigs.withOverrides(admin, kafkaProperties);
      }
      TopicAdmin.ensureTopics(admin, Topics.ALL, replicationFactor);
    }
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(SchedulerJob.configuration(o));
    SchedulerJob.build(env, o);
    env.execute(SchedulerJob.NAME);
    return 0;
  }

  SchedulerJob.Options options() {
    Map<String, SchedulerConfig.PolicySpec> pools = new LinkedHashMap<>();
    poolPolicies.forEach((pool, p) -> pools.put(pool, policyOptions.spec(pool, p)));
    SchedulerConfig cfg = new SchedulerConfig(policyOptions.spec(policy), pools,
        policyOptions.metricsIntervalMs, policyOptions.maxRetries,
        provisioningOptions.provisioningConfig(), Map.of());
    Properties overrides = new Properties();
    if (kafkaProperties != null) {
      ClientConfigs.withOverrides(overrides, kafkaProperties);
    }
    return new SchedulerJob.Options(bootstrap, overrides, DeliveryMode.parse(delivery), cfg,
        checkpointInterval, checkpointDir == null ? null : checkpointDir.toAbsolutePath(),
        stateBackend, parallelism, groupId, txnPrefix, restartAttempts);
  }
}
