package io.locus.jobs.run;

import io.locus.connectors.DeliveryMode;
import io.locus.jobs.RestorePoint;
import io.locus.jobs.SchedulerJob;
import io.locus.jobs.options.MetricsOptions;
import io.locus.jobs.options.PolicyOptions;
import io.locus.jobs.options.ProvisioningOptions;
import io.locus.jobs.options.TrustOptions;
import io.locus.kafka.KafkaClientOptions;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.RecoveryClaimMode;
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

  @Mixin KafkaClientOptions kafka;

  @Option(names = "--policy", defaultValue = "MCH",
      completionCandidates = io.locus.core.policy.PolicyRegistry.AllNames.class,
      description = "Default policy for every pool, one of ${COMPLETION-CANDIDATES} (any case): a "
          + "file policy, or from FARM on a split policy for event-range jobs (with "
          + "--split-param). Default: ${DEFAULT-VALUE}.")
  String policy;

  @Option(names = "--pool-policy", paramLabel = "POOL=POLICY",
      description = "Policy of one pool, repeatable, e.g. --pool-policy batch=GCC --pool-policy cern=OUT_OF_ORDER.")
  Map<String, String> poolPolicies = new LinkedHashMap<>();

  @Option(names = "--shadow-policy", paramLabel = "POOL=P1[,P2...]",
      description = "Shadow policies of a pool, repeatable: file policies run beside the pool's "
          + "active one on the same events, against a model of the cluster; their would-be "
          + "placements and scores go to the shadow-decisions topic and the metrics "
          + "(e.g. --shadow-policy batch=GCC,FA).")
  Map<String, String> shadowPolicies = new LinkedHashMap<>();

  @Option(names = "--shadow-time-scale", paramLabel = "X", defaultValue = "1",
      description = "Wall seconds per second of work on the agents, for the shadows' model: 1 for "
          + "real agents, the agents' --time-scale for simulated ones. Default: ${DEFAULT-VALUE}.")
  double shadowTimeScale = 1;

  @Mixin PolicyOptions policyOptions;

  @Mixin ProvisioningOptions provisioningOptions;

  @Mixin TrustOptions trust;

  @Mixin MetricsOptions metrics;

  // Exactly-once by default: after a failover no task runs twice (decisions become visible at a
  // checkpoint); at-least-once trades that for lower latency (docs/reliability.md).
  @Option(names = "--delivery", defaultValue = "exactly-once",
      description = "Decision delivery: exactly-once (transactional; decisions visible at each checkpoint; agents read committed, their default) or at-least-once (lower latency; after a failover a task may run twice, one completion counts). Default: ${DEFAULT-VALUE}.")
  String delivery;

  @Option(names = "--checkpoint-interval", paramLabel = "DURATION",
      description = "Checkpoint interval as an ISO-8601 duration. Default: PT1S with "
          + "exactly-once (a decision reaches the agents when its checkpoint commits), PT5S with "
          + "at-least-once.")
  Duration checkpointInterval;

  /**
   * The checkpoint interval {@code locus run} uses when none is given (one place, so that {@code
   * locus bench --real-agents --product-defaults} measures what a user gets).
   */
  public static Duration defaultCheckpointInterval(DeliveryMode mode) {
    // Exactly-once: a decision is visible to agents only when its checkpoint commits, so the
    // interval is the placement latency; 1 s with the agents' default local queue (their slots)
    // keeps >= 90 % of slots busy with 1-s tasks (docs/performance.md, "Keeping real slots
    // busy"). At-least-once decisions are visible at once: the interval only bounds the replay
    // after a failure, and 5 s costs less.
    return mode == DeliveryMode.EXACTLY_ONCE ? Duration.ofSeconds(1) : Duration.ofSeconds(5);
  }

  /** The interval given, else the default for the delivery mode. */
  private Duration checkpointInterval() {
    return checkpointInterval != null ? checkpointInterval
        : defaultCheckpointInterval(DeliveryMode.parse(delivery));
  }

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
      description = "Start from this savepoint (or retained checkpoint) instead of the latest one."
          + " With --flink-rest also a URI of the cluster's file system (s3://, hdfs://), which"
          + " Flink checks when the job starts.")
  String fromSavepoint;

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

  @Option(names = "--flink-rest", paramLabel = "HOST:PORT",
      description = "Submit the job to this Flink session cluster (its JobManager's REST endpoint)"
          + " instead of running an embedded MiniCluster. Checkpoint and savepoint directories are"
          + " then the cluster's own unless --state-dir, --checkpoint-dir or --savepoint-dir is given"
          + " (a path every JobManager and TaskManager can reach).")
  String flinkRest;

  @Option(names = "--jar", paramLabel = "PATH",
      description = "With --flink-rest: the jar(s) to ship with the job. Default: the Locus jar this"
          + " command runs from.")
  List<Path> jars = new ArrayList<>();

  @Option(names = "--detached", negatable = true,
      description = "With --flink-rest: return once the job is submitted (the default); with"
          + " --no-detached follow the job until it ends.")
  Boolean detached;

  @Option(names = "--connect-timeout", defaultValue = "PT5S",
      description = "How long to wait for Kafka (and the Flink REST API) to answer before giving up"
          + " at start. Default: ${DEFAULT-VALUE}.")
  Duration connectTimeout;

  /** Under {@code flink run} or the Kubernetes operator: the environment is Flink's, not local. */
  private boolean program;

  /**
   * Set once a run found itself inside a Flink program ({@code flink run}, application mode):
   * the entry point ({@code SchedulerJobMain}, the CLI's {@code LocusCli}) must then return instead
   * of calling System.exit, which would end the Flink client or, in application mode, the
   * JobManager the program runs in.
   */
  public static volatile boolean ranAsFlinkProgram;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (detached != null && flinkRest == null) {
      throw new IllegalArgumentException("--detached and --no-detached need --flink-rest");
    }
    FlinkTarget remote = flinkRest == null ? null : FlinkTarget.parse(flinkRest);
    program = remote == null && !isLocal(StreamExecutionEnvironment.getExecutionEnvironment());
    ranAsFlinkProgram |= program;
    if (remote != null || program) {
      return start(out, err, remote);
    }
    // A local run owns its state dir: a second one on the same dir is refused before it reads it.
    try (StateDirLock lock = StateDirLock.acquire(stateDir)) {
      return start(out, err, null);
    } catch (StartClash e) {
      err.println("locus run: " + e.getMessage());
      err.flush();
      return 1;
    }
  }

  private int start(PrintWriter out, PrintWriter err, FlinkTarget remote) throws Exception {
    SchedulerJob.Options o = options();
    RestorePoint from = restorePoint(); // a bad --from-savepoint fails before anything starts
    Properties admin = kafka.clientProperties();
    try {
      BrokerCheck.requireReachable(admin, connectTimeout);
      if (remote != null) {
        remote.requireReachable(connectTimeout);
      }
    } catch (Unreachable e) {
      err.println("locus run: " + e.getMessage());
      err.flush();
      return 1;
    }
    if (createTopics) {
      TopicAdmin.ensureTopics(admin, Topics.ALL, replicationFactor);
    }
    Configuration conf = SchedulerJob.configuration(o);
    SchedulerJob.restoreFrom(conf, from, allowNonRestored);
    String restoring = (from.isFresh() ? "empty state (" : "") + from.description()
        + (from.isFresh() ? ")" : "");
    if (clusterSavepoint() != null) {
      conf.set(StateRecoveryOptions.SAVEPOINT_PATH, clusterSavepoint());
      conf.set(StateRecoveryOptions.RESTORE_MODE, RecoveryClaimMode.NO_CLAIM);
      conf.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, allowNonRestored);
      restoring = "savepoint " + clusterSavepoint() + " (on the cluster's file system)";
    }
    if (savepoints() != null) {
      conf.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, savepoints().toUri().toString());
    }
    if (remote != null) {
      StringBuilder note = new StringBuilder();
      List<Path> ship = FlinkTarget.jars(jars, note);
      StreamExecutionEnvironment env = remote.environment(conf, ship);
      startLine(out, o, restoring, remote.url() + " (session cluster; "
          + (ship.isEmpty() ? note : "jar " + String.join(", ", ship.stream()
              .map(Path::toString).toList())) + ")");
      return submitted(out, env, o, remote.url(), remote::jobUrl, detached == null || detached);
    }
    if (program) {
      // flink run / application mode: Flink's environment submits; we return at once.
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
      startLine(out, o, restoring, "the Flink cluster of this program (execution.target "
          + env.getConfiguration().get(DeploymentOptions.TARGET) + ")");
      return submitted(out, env, o, null, null, true);
    }
    try {
      return runLocally(out, conf, o, restoring, from);
    } catch (StartClash e) {
      err.println("locus run: " + e.getMessage());
      err.flush();
      return 1;
    }
  }

  /** Submits; prints the job id and where to see it; follows the job unless detached. */
  private int submitted(PrintWriter out, StreamExecutionEnvironment env, SchedulerJob.Options o,
      String url,
      java.util.function.UnaryOperator<String> jobUrl, boolean detach) throws Exception {
    SchedulerJob.build(env, o);
    JobClient job = env.executeAsync(SchedulerJob.NAME);
    String id = job.getJobID().toString();
    out.println("locus run: job " + id + " submitted" + (jobUrl == null ? "" : "; web UI "
        + jobUrl.apply(id) + ", REST " + url + "/jobs/" + id));
    if (detach) {
      out.println("locus run: detached; stop it with: locus savepoint --stop"
          + (url == null ? "" : " --rest-url " + url) + " --job-id " + id);
      out.flush();
      return 0;
    }
    out.println("locus run: following job " + id + " until it ends (Ctrl-C leaves it running)");
    out.flush();
    Thread leave = new Thread(() -> {
      out.println("locus run: leaving; job " + id + " keeps running on " + url);
      out.flush();
    }, "locus-leave");
    Runtime.getRuntime().addShutdownHook(leave);
    int code = awaitEnd(job, out);
    Runtime.getRuntime().removeShutdownHook(leave);
    return code;
  }

  /**
   * Waits for the job to end: 0 when it finished or stopped (with a savepoint), 1 with one line
   * naming the cause when it failed or was cancelled.
   */
  private int awaitEnd(JobClient job, PrintWriter out) throws InterruptedException {
    String id = job.getJobID().toString();
    try {
      job.getJobExecutionResult().get();
      out.println("locus run: job " + id + " ended");
      out.flush();
      return 0;
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      String status;
      try {
        status = job.getJobStatus().get(5, java.util.concurrent.TimeUnit.SECONDS).name();
      } catch (Exception unknown) {
        status = "ended";
      }
      PrintWriter err = spec.commandLine().getErr();
      err.println("locus run: job " + id + " " + status.toLowerCase(Locale.ROOT) + ": "
          + root.getClass().getSimpleName() + (root.getMessage() == null ? ""
              : ": " + root.getMessage().lines().findFirst().orElse("")));
      err.flush();
      return 1;
    }
  }

  /**
   * The embedded MiniCluster: started first so that the start line names its real REST port; a
   * SIGTERM stops the job with a savepoint (LocalStop), then the MiniCluster closes.
   */
  private int runLocally(PrintWriter out, Configuration conf, SchedulerJob.Options o,
      String restoring, RestorePoint from) throws Exception {
    // Only a local run starts Flink's processes, hence its reporters; a cluster uses its own
    // configuration (metrics.reporter.prom.*, docs/operations.md "Metrics").
    String metricsLine = metrics.applyTo(conf);
    // The sink's committer runs in this JVM: its restore-time "fenced ... data loss" ERROR is
    // explained (INFO) where it is the harmless re-commit (FencedRecommitNotice).
    FencedRecommitNotice notice = new FencedRecommitNotice(from, checkpoints(), savepoints(),
        io.locus.connectors.LocusSinks.TRANSACTION_TIMEOUT, java.time.Clock.systemUTC());
    boolean explained = FencedRecommitNotice.install(notice);
    try (LocalFlink flink = LocalFlink.start(conf, parallelism, restPort)) {
      return runJob(out, conf, o, restoring, metricsLine, flink);
    } finally {
      if (explained) {
        FencedRecommitNotice.uninstall(notice);
      }
    }
  }

  private int runJob(PrintWriter out, Configuration conf, SchedulerJob.Options o,
      String restoring, String metricsLine, LocalFlink flink) throws Exception {
    startLine(out, o, restoring, flink.url() + " (embedded MiniCluster)");
    if (metricsLine != null) {
      out.println("locus run: " + metricsLine);
    }
    StreamExecutionEnvironment env = flink.environment(conf);
    SchedulerJob.build(env, o);
    JobClient job = env.executeAsync(SchedulerJob.NAME);
    String id = job.getJobID().toString();
    out.println("locus run: job " + id + " running; web UI " + flink.jobUrl(id));
    out.flush();
    AtomicBoolean ended = new AtomicBoolean();
    Runnable stopHook =
        () -> LocalStop.withSavepoint(job, savepoints(), stopTimeout, out, ended::get);
    // The signal handler stops the job while the MiniCluster is whole; the hook is the fallback
    // for a shutdown that does not come from a signal we handle (a no-op once the job ended).
    Thread hook = new Thread(stopHook, "locus-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    int code;
    try (AutoCloseable signals = StopSignal.install(stopHook)) {
      code = awaitEnd(job, out);
    } finally {
      ended.set(true);
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook stopped the job: it is running now
    }
    return code;
  }

  /** The one line that says what starts where. */
  private void startLine(PrintWriter out, SchedulerJob.Options o, String restoring,
      String flink) {
    Path cp = checkpoints();
    out.println("locus run: starting from " + restoring
        + " | Kafka " + kafka.bootstrap
        + " | Flink " + flink
        + " | checkpoints " + (cp == null ? "the cluster's execution.checkpointing.dir" : cp)
        + " every " + checkpointInterval()
        + " | delivery " + DeliveryMode.parse(delivery).name().toLowerCase(Locale.ROOT)
            .replace('_', '-')
        + " | pools " + pools(o.scheduler())
        + " | parallelism " + parallelism);
    out.flush();
    String unauthenticated = trustWarning(o.scheduler());
    if (unauthenticated != null) {
      PrintWriter err = spec.commandLine().getErr();
      err.println(unauthenticated);
      err.flush();
    }
  }

  /**
   * Said once at start, and only without a cluster node secret: then nothing tells one node's
   * records from another's, and the scheduler trusts whoever can write to the topics agents write
   * (issue 22; docs/operations.md, "Security").
   */
  static String trustWarning(SchedulerConfig cfg) {
    if (cfg.nodeSecret() != null) {
      return null;
    }
    return "locus run: WARN no --node-secret-file: task events and node reports are not "
        + "authenticated; any client that can write to the task-events or node-reports topics "
        + "can register, drain or remove any node and start, complete or fail any placed attempt "
        + "in its name (see docs/operations.md, Security)";
  }

  /** "* MCH" (every other pool) and each named pool with its policy. */
  String pools(SchedulerConfig cfg) {
    Set<String> named = new TreeSet<>(cfg.pools());
    named.addAll(poolPolicies.keySet());
    StringBuilder b = new StringBuilder("*=" + cfg.policyFor("*").name());
    for (String p : named) {
      b.append(", ").append(p).append('=').append(cfg.policyFor(p).name());
    }
    return b.toString();
  }

  private static boolean isLocal(StreamExecutionEnvironment env) {
    return "local".equals(env.getConfiguration().get(DeploymentOptions.TARGET));
  }

  /** On a cluster (--flink-rest, flink run), Locus's directories apply only when given. */
  private boolean onCluster() {
    return flinkRest != null || program;
  }

  private boolean given(String option) {
    return spec != null && spec.commandLine().getParseResult() != null
        && spec.commandLine().getParseResult().hasMatchedOption(option);
  }

  /**
   * A savepoint on a file system other than this host's (s3://, hdfs://...), given to a cluster
   * run: handed to Flink as it is (Flink refuses the job if it is not there), never claimed.
   */
  String clusterSavepoint() {
    return onCluster() && fromSavepoint != null && !fresh && fromSavepoint.contains("://")
        && !fromSavepoint.startsWith("file:") ? fromSavepoint : null;
  }

  /** --fresh, --from-savepoint, or the newest retained checkpoint or savepoint of the state dir. */
  RestorePoint restorePoint() {
    if (fresh && fromSavepoint != null) {
      throw new IllegalArgumentException("--fresh and --from-savepoint exclude each other");
    }
    if (fresh) {
      return RestorePoint.fresh("--fresh");
    }
    if (clusterSavepoint() != null) {
      return RestorePoint.fresh("no local state"); // the savepoint is set in call()
    }
    if (fromSavepoint != null) {
      return RestorePoint.savepoint(Path.of(fromSavepoint.startsWith("file:")
          ? java.net.URI.create(fromSavepoint).getPath() : fromSavepoint));
    }
    if (checkpoints() == null && savepoints() == null) {
      return RestorePoint.fresh("no --from-savepoint and no --state-dir on a cluster: a fresh start");
    }
    return RestorePoint.latest(checkpoints(), savepoints());
  }

  /** Null on a cluster without a directory given: the cluster's own configuration applies. */
  Path checkpoints() {
    if (onCluster() && checkpointDir == null && !given("--state-dir")) {
      return null; // the cluster's execution.checkpointing.dir
    }
    return (checkpointDir != null ? checkpointDir : stateDir.resolve("checkpoints")).toAbsolutePath();
  }

  Path savepoints() {
    if (onCluster() && savepointDir == null && !given("--state-dir")) {
      return null; // the cluster's execution.checkpointing.savepoint-dir
    }
    return (savepointDir != null ? savepointDir : stateDir.resolve("savepoints")).toAbsolutePath();
  }

  /** The job's options these flags describe; a bad value is an IllegalArgumentException. */
  public SchedulerJob.Options options() {
    Map<String, SchedulerConfig.PolicySpec> pools = new LinkedHashMap<>();
    poolPolicies.forEach((pool, p) -> pools.put(pool, policyOptions.spec(pool, p)));
    SchedulerConfig cfg = new SchedulerConfig(policyOptions.spec(policy), pools,
        policyOptions.metricsIntervalMs, policyOptions.maxRetries,
        provisioningOptions.provisioningConfig(), Map.of())
        .withRetryBackoff(policyOptions.retryBackoff());
    cfg = policyOptions.queues.apply(cfg);
    cfg = trust.apply(cfg);
    if (!shadowPolicies.isEmpty()) {
      Map<String, java.util.List<SchedulerConfig.PolicySpec>> shadows = new LinkedHashMap<>();
      shadowPolicies.forEach((pool, list) -> {
        java.util.List<SchedulerConfig.PolicySpec> specs = new java.util.ArrayList<>();
        for (String name : list.split(",")) {
          if (!name.isBlank()) {
            specs.add(policyOptions.spec(pool, name.trim()));
          }
        }
        if (specs.isEmpty()) {
          throw new IllegalArgumentException("--shadow-policy " + pool + "=: no policy named");
        }
        shadows.put(pool, specs);
      });
      cfg = cfg.withShadows(shadows).withShadowTimeScale(shadowTimeScale);
    }
    return new SchedulerJob.Options(kafka.bootstrap, kafka.overrides(), DeliveryMode.parse(delivery), cfg,
        checkpointInterval(), checkpoints(),
        stateBackend, parallelism, groupId, txnPrefix, restartAttempts);
  }
}
