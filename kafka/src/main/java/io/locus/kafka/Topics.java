package io.locus.kafka;

import io.locus.schemas.Control;
import io.locus.schemas.ControlAck;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.ScaleRequest;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.codec.Codecs;
import java.util.List;
import java.util.Map;

/** The one registry of Locus topics. Every module names topics through this class. */
public final class Topics {
  private static final String DAY_MS = Long.toString(24L * 3600 * 1000);
  private static final String WEEK_MS = Long.toString(7L * 24 * 3600 * 1000);

  public static final TopicSpec<JobSubmitted> JOB_ARRIVALS =
      new TopicSpec<>("job-arrivals", 8, "pool", Codecs.JOB_SUBMITTED,
          Map.of("retention.ms", WEEK_MS));
  public static final TopicSpec<TaskEvent> TASK_EVENTS =
      new TopicSpec<>("task-events", 8, "pool", Codecs.TASK_EVENT,
          Map.of("retention.ms", WEEK_MS));
  /**
   * Stamped by the broker (LogAppendTime): the scheduler's liveness clock follows these
   * timestamps, so no node's own clock can move it (docs/reliability.md, "Clocks and liveness").
   */
  public static final TopicSpec<NodeReport> NODE_REPORTS =
      new TopicSpec<>("node-reports", 8, "pool", Codecs.NODE_REPORT,
          Map.of("retention.ms", WEEK_MS, "message.timestamp.type", "LogAppendTime"));
  public static final TopicSpec<Control> CONTROL =
      new TopicSpec<>("control", 1, "pool", Codecs.CONTROL,
          Map.of("retention.ms", WEEK_MS));
  /** The scheduler's answer to each control (locus control waits for its requestId here). */
  public static final TopicSpec<ControlAck> CONTROL_ACKS =
      new TopicSpec<>("control-acks", 1, "pool", Codecs.CONTROL_ACK,
          Map.of("retention.ms", WEEK_MS));
  /** Keyed by node id so that an agent reads one partition and filters by key. */
  public static final TopicSpec<Decision> DECISIONS =
      new TopicSpec<>("decisions", 16, "node", Codecs.DECISION,
          Map.of("retention.ms", WEEK_MS));
  public static final TopicSpec<SchedulerMetrics> SCHEDULER_METRICS =
      new TopicSpec<>("scheduler-metrics", 1, "pool", Codecs.SCHEDULER_METRICS,
          Map.of("retention.ms", DAY_MS));
  /** Dynamic provisioning requests for an external autoscaler. */
  public static final TopicSpec<ScaleRequest> SCALE_REQUESTS =
      new TopicSpec<>("scale-requests", 1, "pool", Codecs.SCALE_REQUEST,
          Map.of("retention.ms", WEEK_MS));
  /** Bad input, kept long enough for someone to look at it. */
  public static final TopicSpec<DeadLetter> DEAD_LETTERS =
      new TopicSpec<>("dead-letters", 1, "none", Codecs.DEAD_LETTER,
          Map.of("retention.ms", Long.toString(30L * 24 * 3600 * 1000)));

  /** Shadow policies' would-be placements and running scores (advisory; nothing acts on them). */
  public static final TopicSpec<io.locus.schemas.ShadowDecision> SHADOW_DECISIONS =
      new TopicSpec<>("shadow-decisions", 1, "pool", Codecs.SHADOW_DECISION,
          Map.of("retention.ms", DAY_MS));

  /**
   * The scheduler's verdicts about nodes (registered, draining, left, lost, or an instance
   * refused), compacted so that a reader starting late still finds every node's latest verdict.
   * The dashboard, {@code locus status} and the agents take node state from here, not from the raw
   * node reports, which anyone with write access may have sent. Key {@code pool/node}.
   */
  public static final TopicSpec<io.locus.schemas.NodeStatus> NODE_STATUS =
      new TopicSpec<>("node-status", 1, "pool/node", Codecs.NODE_STATUS,
          Map.of("cleanup.policy", "compact"));

  /** The key of a node's verdicts on {@link #NODE_STATUS}. */
  public static String nodeStatusKey(String pool, String node) {
    return pool + "/" + node;
  }

  /**
   * Users' commands about their jobs (cancel). Keyed by pool, like the jobs, so a command is
   * ordered after nothing else of the pool's inputs: a cancel that overtakes its job is refused.
   */
  public static final TopicSpec<io.locus.schemas.JobCommand> JOB_COMMANDS =
      new TopicSpec<>("job-commands", 8, "pool", Codecs.JOB_COMMAND,
          Map.of("retention.ms", WEEK_MS));

  /**
   * Every transition of every job (queued, placed, running, completed, failed, cancelled, ...)
   * with its reason, attempt, node and times. Compacted, so the latest record of a key is the
   * job's state; deleted after a week like the inputs, so finished jobs do not accumulate. Key
   * {@code pool/jobId} ({@link #jobStatusKey}).
   */
  public static final TopicSpec<io.locus.schemas.JobStatus> JOB_STATUS =
      new TopicSpec<>("job-status", 8, "pool/jobId", Codecs.JOB_STATUS,
          Map.of("cleanup.policy", "compact,delete", "retention.ms", WEEK_MS));

  /** Workflow submissions (a DAG of jobs, in parts), run by the scheduler job. Key workflowId. */
  public static final TopicSpec<io.locus.schemas.WorkflowSubmitted> WORKFLOWS =
      new TopicSpec<>("workflows", 8, "workflowId", Codecs.WORKFLOW_SUBMITTED,
          Map.of("retention.ms", WEEK_MS));

  /** Each workflow's progress and end (compacted, deleted after a week). Key workflowId. */
  public static final TopicSpec<io.locus.schemas.WorkflowStatus> WORKFLOW_STATUS =
      new TopicSpec<>("workflow-status", 8, "workflowId", Codecs.WORKFLOW_STATUS,
          Map.of("cleanup.policy", "compact,delete", "retention.ms", WEEK_MS));

  /** The key of a job's transitions on {@link #JOB_STATUS}. */
  public static String jobStatusKey(String pool, String jobId) {
    return pool + "/" + jobId;
  }

  /** The topics the scheduler job reads. */
  public static final List<TopicSpec<?>> INPUTS =
      List.of(JOB_ARRIVALS, TASK_EVENTS, NODE_REPORTS, CONTROL, JOB_COMMANDS);

  public static final List<TopicSpec<?>> ALL =
      List.of(JOB_ARRIVALS, TASK_EVENTS, NODE_REPORTS, CONTROL, CONTROL_ACKS, DECISIONS,
          SCHEDULER_METRICS, SCALE_REQUESTS, DEAD_LETTERS, SHADOW_DECISIONS, NODE_STATUS,
          JOB_COMMANDS, JOB_STATUS, WORKFLOWS, WORKFLOW_STATUS);

  private Topics() {}

  public static TopicSpec<?> byName(String name) {
    for (TopicSpec<?> t : ALL) {
      if (t.name().equals(name)) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown topic '" + name + "'; known: "
        + ALL.stream().map(TopicSpec::name).toList());
  }

  /** Partition of a string key, as Kafka's default partitioner computes it. */
  public static int partitionOf(String key, int partitions) {
    byte[] bytes = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    return org.apache.kafka.common.utils.Utils.toPositive(
        org.apache.kafka.common.utils.Utils.murmur2(bytes)) % partitions;
  }
}
