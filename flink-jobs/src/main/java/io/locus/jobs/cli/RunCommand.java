package io.locus.jobs.cli;

import io.locus.connectors.DeliveryMode;
import io.locus.jobs.RestorePoint;
import io.locus.jobs.SchedulerJob;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Runs the scheduler job against a real Kafka cluster (locally, or submitted to a Flink cluster). */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run the scheduler job against an existing Kafka cluster; it restores the newest"
        + " retained checkpoint or savepoint of --state-dir unless --fresh or --from-savepoint.")
public final class RunCommand implements Callable<Integer> {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

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

  @Mixin TrustOptions trust;

  // Exactly-once by default: after a failover no task runs twice (decisions become visible at a
  // checkpoint); at-least-once trades that for lower latency (docs/reliability.md).
  @Option(names = "--delivery", defaultValue = "exactly-once",
      description = "Decision delivery: exactly-once (transactional; decisions visible at each checkpoint; agents read committed, their default) or at-least-once (lower latency; after a failover a task may run twice, one completion counts). Default: ${DEFAULT-VALUE}.")
  String delivery;

  @Option(names = "--checkpoint-interval", defaultValue = "PT5S",
      description = "Checkpoint interval as an ISO-8601 duration. Default: ${DEFAULT-VALUE}.")
  Duration checkpointInterval;

  @Option(names = "--state-dir", defaultValue = "locus-state", paramLabel = "DIR",
      description = "Where checkpoints (DIR/checkpoints) and savepoints (DIR/savepoints) are kept"
          + " across restarts. Default: ${DEFAULT-VALUE}.")
  Path stateDir;

  @Option(names = "--checkpoint-dir", paramLabel = "PATH",
      description = "Durable checkpoint directory. Default: STATE-DIR/checkpoints.")
  Path checkpointDir;

  @Option(names = "--savepoint-dir", paramLabel = "PATH",
      description = "Default target of savepoints (locus savepoint, SIGTERM). Default: STATE-DIR/savepoints.")
  Path savepointDir;

  @Option(names = "--from-savepoint", paramLabel = "PATH",
      description = "Start from this savepoint (or retained checkpoint) instead of the latest one.")
  Path fromSavepoint;

  @Option(names = "--fresh",
      description = "Start with empty state, ignoring retained checkpoints and savepoints.")
  boolean fresh;

  @Option(names = "--allow-non-restored-state",
      description = "Restore even if the savepoint has state no operator of this job claims.")
  boolean allowNonRestored;

  @Option(names = "--rest-port", defaultValue = "8081", paramLabel = "PORT",
      description = "Local runs: port of the embedded Flink REST API (locus savepoint talks to it;"
          + " 0 = any free port). Default: ${DEFAULT-VALUE}.")
  String restPort;

  @Option(names = "--stop-timeout", defaultValue = "PT60S",
      description = "Local runs: on SIGTERM, how long to wait for the stop-with-savepoint."
          + " Default: ${DEFAULT-VALUE}.")
  Duration stopTimeout;

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
    RestorePoint from = restorePoint(); // a bad --from-savepoint fails before anything starts
    if (createTopics) {
      Properties admin = ClientConfigs.base(bootstrap);
      if (kafkaProperties != null) {
        admin = ClientConfigs.withOverrides(admin, kafkaProperties);
      }
      TopicAdmin.ensureTopics(admin, Topics.ALL, replicationFactor);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println("locus run: starting from " + (from.isFresh() ? "empty state (" : "")
        + from.description() + (from.isFresh() ? ")" : ""));
    out.flush();
    Configuration conf = SchedulerJob.configuration(o);
    SchedulerJob.restoreFrom(conf, from, allowNonRestored);
    conf.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, savepoints().toUri().toString());
    conf.set(RestOptions.BIND_PORT, restPort);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    SchedulerJob.build(env, o);
    JobClient job = env.executeAsync(SchedulerJob.NAME);
    out.println("locus run: job " + job.getJobID() + " running");
    out.flush();
    boolean local = "local".equals(env.getConfiguration().get(DeploymentOptions.TARGET));
    java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
    if (local) {
      Runtime.getRuntime().addShutdownHook(new Thread(
          () -> LocalStop.withSavepoint(job, savepoints(), stopTimeout, out, ended::get),
          "locus-stop"));
    }
    job.getJobExecutionResult().get();
    ended.set(true);
    return 0;
  }

  /** --fresh, --from-savepoint, or the newest retained checkpoint or savepoint of the state dir. */
  RestorePoint restorePoint() {
    if (fresh && fromSavepoint != null) {
      throw new IllegalArgumentException("--fresh and --from-savepoint exclude each other");
    }
    if (fresh) {
      return RestorePoint.fresh("--fresh");
    }
    if (fromSavepoint != null) {
      return RestorePoint.savepoint(fromSavepoint);
    }
    return RestorePoint.latest(checkpoints(), savepoints());
  }

  Path checkpoints() {
    return (checkpointDir != null ? checkpointDir : stateDir.resolve("checkpoints")).toAbsolutePath();
  }

  Path savepoints() {
    return (savepointDir != null ? savepointDir : stateDir.resolve("savepoints")).toAbsolutePath();
  }

  SchedulerJob.Options options() {
    Map<String, SchedulerConfig.PolicySpec> pools = new LinkedHashMap<>();
    poolPolicies.forEach((pool, p) -> pools.put(pool, policyOptions.spec(pool, p)));
    SchedulerConfig cfg = new SchedulerConfig(policyOptions.spec(policy), pools,
        policyOptions.metricsIntervalMs, policyOptions.maxRetries,
        provisioningOptions.provisioningConfig(), Map.of());
    cfg = trust.apply(cfg);
    Properties overrides = new Properties();
    if (kafkaProperties != null) {
      overrides = ClientConfigs.withOverrides(overrides, kafkaProperties);
    }
    return new SchedulerJob.Options(bootstrap, overrides, DeliveryMode.parse(delivery), cfg,
        checkpointInterval, checkpoints(),
        stateBackend, parallelism, groupId, txnPrefix, restartAttempts);
  }
}
