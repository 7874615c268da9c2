package io.locus.cli;

import io.locus.kafka.KafkaClientOptions;
import io.locus.cli.replay.AckedPublisher;
import io.locus.cli.replay.JobRecords;
import io.locus.cli.replay.Progress;
import io.locus.cli.replay.Replayer;
import io.locus.cli.replay.SubmissionWatch;
import io.locus.cli.replay.WorkflowParts;
import io.locus.cli.replay.WorkflowReplay;
import io.locus.schemas.WorkflowFailurePolicy;
import io.locus.cli.replay.TaskEventFeed;
import io.locus.cli.replay.WorkloadScan;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.KafkaReachability;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import io.locus.workloads.TraceFormatException;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code locus replay}: publishes a trace (or a generated workload). A trace whose jobs have
 * parents is a workflow: submitted once, whole, to topic workflows ({@link WorkflowReplay}); the
 * scheduler job runs it to completion, so the replay may exit at once ({@code --no-wait}).
 * Otherwise each job goes to job-arrivals at its arrival time, a stage of a staged trace once the
 * previous one completed ({@link Replayer}). Every record is confirmed by Kafka. When it waits,
 * it follows the scheduler's verdicts on its own records and fails at once with the scheduler's
 * reason (a dead letter, a job failed or cancelled for good, a workflow refused or failed).
 * Exit codes: 0 = every job published (and, when waiting, completed); 1 = something was not
 * (the message says what and why), or Kafka is not reachable; 2 = a bad argument or a malformed
 * trace.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "Publish a trace or a generated workload to a Kafka cluster: a trace whose jobs"
        + " have parents as one workflow the scheduler runs, others job by job to job-arrivals.")
public final class ReplayCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Mixin WorkloadSource source;

  @Mixin KafkaClientOptions kafka;

  @Option(names = "--pool", paramLabel = "POOL",
      description = "Pool of every job (overrides the trace's pool; required when the trace has none).")
  String pool;

  @Option(names = "--pools", paramLabel = "P1,P2,...", split = ",",
      description = "Several pools: each trace file (instance) goes to the next one in turn.")
  List<String> pools;

  @Option(names = "--speedup", defaultValue = "1",
      description = "Trace seconds per real second; 0 publishes as fast as possible. Default: ${DEFAULT-VALUE}.")
  double speedup;

  @Option(names = "--limit", defaultValue = "-1", description = "Publish at most this many jobs.")
  long limit;

  @Option(names = "--wait", negatable = true, fallbackValue = "true",
      description = "Wait until every published job completed (read from task-events), failing"
          + " at once on the scheduler's refusal or a job failed for good. Default: on when jobs"
          + " have parents or stages, or with --summary-csv; --no-wait submits a workflow and"
          + " exits.")
  Boolean waitForCompletion;

  @Option(names = "--workflow-id", paramLabel = "ID",
      description = "Id of the workflow (a trace whose jobs have parents); used once. Default:"
          + " the trace's name and a random UUID.")
  String workflowId;

  @Option(names = "--on-failure", paramLabel = "POLICY",
      description = "When a job of the workflow fails for good: fail-descendants (the jobs that"
          + " depend on it fail, the rest runs on) or fail-workflow (every job not yet released"
          + " fails). Default: fail-descendants.")
  String onFailure;

  @Option(names = {"--timeout", "--stage-timeout"}, defaultValue = "1h", paramLabel = "DURATION",
      description = "Give up when the replay can only go on through completions (a workflow, a"
          + " stage, --wait) and nothing moved for this long. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Option(names = "--connect-timeout", defaultValue = "5s", paramLabel = "DURATION",
      description = "Fail when no Kafka broker answers within this, before anything is published."
          + " Default: ${DEFAULT-VALUE}.")
  Duration connectTimeout;

  @Option(names = "--summary-csv", paramLabel = "FILE",
      description = "Also write the summary (makespan, mean response, hit ratios, bytes moved) as"
          + " CSV.")
  Path summaryCsv;

  @Option(names = "--priority", paramLabel = "N",
      description = "Priority of every job that sets none (WfCommons and SWF have no such field;"
          + " a Locus trace's job may leave it out): an integer in [-1000, 1000], higher first"
          + " in its pool's queue. Default: 0.")
  Integer priority;

  @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
  boolean quiet;

  /**
   * The note for jobs that name a queue: the scheduler refuses a job whose queue its pool does not
   * have (dead letter unknown-queue), so a replay of a trace with queues into a pool configured
   * without them would lose those jobs; said before anything is sent.
   */
  public static final String QUEUES_NOTE = "%d jobs of %s name a queue: their pools must have"
      + " it as a leaf queue (locus queues apply), else the scheduler refuses them (dead letter"
      + " unknown-queue)";

  @Override
  public Integer call() throws Exception {
    if (speedup < 0 || Double.isNaN(speedup) || Double.isInfinite(speedup)) {
      throw new IllegalArgumentException("--speedup must be ≥ 0 (0 = as fast as possible)");
    }
    if (pool != null && pools != null) {
      throw new IllegalArgumentException("give --pool or --pools, not both");
    }
    if (timeout.isNegative() || timeout.isZero() || connectTimeout.isNegative()
        || connectTimeout.isZero()) {
      throw new IllegalArgumentException("--timeout and --connect-timeout must be > 0");
    }
    List<String> poolList = pool != null ? List.of(pool) : pools == null ? List.of() : pools;
    if (poolList.stream().anyMatch(String::isBlank)) {
      throw new IllegalArgumentException("--pools: a pool name is empty");
    }
    if (priority != null && !io.locus.core.model.Priority.valid(priority)) {
      throw new IllegalArgumentException("--priority: "
          + io.locus.core.model.Priority.outOfRange(priority));
    }
    Workload w = source.open(poolList);
    if (priority != null) {
      w = w.withDefaultPriority(priority);
    }
    String only = poolList.size() == 1 ? poolList.get(0) : null;
    Function<TraceJob, String> poolOf = j -> only != null ? only : j.pool();
    WorkloadScan scan;
    try {
      scan = WorkloadScan.of(w, limit, poolOf);
    } catch (TraceFormatException | IllegalArgumentException e) {
      throw e;
    } catch (IllegalStateException e) {
      // the workload's own contract (order, count) broken
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    if (scan.queued() > 0) {
      spec.commandLine().getErr().println("note: " + QUEUES_NOTE.formatted(scan.queued(),
          w.name()));
      spec.commandLine().getErr().flush();
    }
    boolean waits = waitForCompletion != null ? waitForCompletion
        : scan.hasParents() || scan.hasStages() || summaryCsv != null;
    if (scan.hasParents() && scan.hasStages()) {
      throw new IllegalArgumentException(w.name() + " has both stages and jobs with parents:"
          + " a workflow is released by its parents only; give one or the other");
    }
    if (!scan.hasParents() && (workflowId != null || onFailure != null)) {
      throw new IllegalArgumentException((workflowId != null ? "--workflow-id" : "--on-failure")
          + ": no job of " + w.name() + " has parents, so it is not submitted as a workflow");
    }
    WorkflowFailurePolicy policy = failurePolicy(onFailure);
    if (workflowId != null) {
      var bad = io.locus.connectors.functions.Validation.id("--workflow-id", workflowId);
      if (bad != null) {
        throw new IllegalArgumentException(bad.reason());
      }
    }
    if (!waits && scan.hasStages()) {
      throw new IllegalArgumentException("--no-wait: " + w.name() + " has stages, which are"
          + " released by completions: the replay must follow them");
    }
    if (!waits && summaryCsv != null) {
      throw new IllegalArgumentException("--summary-csv needs the completions: drop --no-wait");
    }

    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Properties client = kafka.clientProperties();
    KafkaReachability.check(client, connectTimeout); // names the address, exit 1
    Replayer.Outcome outcome;
    String workflow = scan.hasParents()
        ? (workflowId != null ? workflowId : WorkflowParts.idFor(w.name())) : null;
    TaskEventFeed feed;
    SubmissionWatch watch;
    try {
      feed = waits ? new TaskEventFeed(client, scan.pools()) : null;
    } catch (org.apache.kafka.common.KafkaException e) {
      err.println(spec.qualifiedName() + ": cannot follow task-events (needed to wait for"
          + " completions): " + e.getMessage());
      err.flush();
      return 1;
    }
    try {
      watch = waits ? new SubmissionWatch(client, workflow, scan.pools()) : null;
    } catch (org.apache.kafka.common.KafkaException e) {
      feed.close();
      // e.g. no READ on job-status: say so before anything is published
      err.println(spec.qualifiedName() + ": cannot follow job-status, workflow-status and"
          + " dead-letters (needed to fail fast on the scheduler's verdicts): " + e.getMessage());
      err.flush();
      return 1;
    }
    try (feed; watch; AckedPublisher publisher = new AckedPublisher(client)) {
      Progress progress = Progress.forStderr(err, quiet);
      try {
        if (workflow != null) {
          outcome = new WorkflowReplay(w, poolOf,
              new WorkflowReplay.Settings(workflow, policy, limit, waits, timeout), publisher,
              watch, feed, progress, out).run();
        } else {
          outcome = new Replayer(w, poolOf,
              new Replayer.Settings(speedup, limit, waits, timeout), publisher, feed, watch,
              progress, out, scan.jobs()).run();
        }
      } catch (IllegalStateException e) {
        // a consumer failed mid-replay; what was published stays published
        err.println(spec.qualifiedName() + ": " + e.getMessage() + " (published so far: "
            + publisher.acked() + " record(s))");
        err.flush();
        return 1;
      }
      if (workflow == null) {
        out.printf("published %d of %d jobs of %s to %s (acknowledged by Kafka: %d, failed:"
            + " %d)%n", publisher.acked(), scan.jobs(), w.name(), Topics.JOB_ARRIVALS.name(),
            publisher.acked(), publisher.failed());
      }
    }
    if (waits) {
      out.println();
      out.print(outcome.summary().table());
      if (summaryCsv != null) {
        outcome.summary().writeCsv(summaryCsv);
        out.println("summary written to " + summaryCsv);
      }
    }
    out.flush();
    if (!outcome.ok()) {
      err.println(spec.qualifiedName() + ": " + outcome.problem());
      err.flush();
      return 1;
    }
    return 0;
  }

  /** The --on-failure value as the record's policy (FAIL_DESCENDANTS when not given). */
  static WorkflowFailurePolicy failurePolicy(String value) {
    if (value == null) {
      return WorkflowFailurePolicy.FAIL_DESCENDANTS;
    }
    return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "fail-descendants" -> WorkflowFailurePolicy.FAIL_DESCENDANTS;
      case "fail-workflow" -> WorkflowFailurePolicy.FAIL_WORKFLOW;
      default -> throw new IllegalArgumentException("--on-failure must be fail-descendants or"
          + " fail-workflow, got '" + value + "'");
    };
  }

  static JobSubmitted toJob(TraceJob t, String pool, long submitMs) {
    return JobRecords.toJob(t, pool, submitMs);
  }
}
