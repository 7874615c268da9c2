package io.locus.jobs;

import io.locus.connectors.DeliveryMode;
import io.locus.connectors.LocusSinks;
import io.locus.connectors.LocusSources;
import io.locus.connectors.functions.ParseAndValidate;
import io.locus.connectors.records.LocusTypes;
import io.locus.kafka.Topics;
import io.locus.schemas.ControlAck;
import io.locus.schemas.ScaleRequest;
import io.locus.schemas.ShadowDecision;
import io.locus.operators.SchedulerConfig;
import io.locus.operators.SchedulerOperator;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobStatus;
import io.locus.schemas.NodeStatus;
import io.locus.schemas.Decision;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.internal.RawRecord;
import io.locus.schemas.internal.SchedulerInput;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.WorkflowStatus;
import io.locus.workflows.WorkflowInputs;
import io.locus.workflows.WorkflowRunner;
import io.locus.workflows.WorkflowTypes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.core.execution.RecoveryClaimMode;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The job "locus-scheduler": Kafka inputs → parse + validate (bad → dead-letters) → keyBy(pool) →
 * SchedulerOperator → decisions (keyed by node), with metrics and rejections as side outputs;
 * beside it, workflows + job-status → keyBy(workflow) → WorkflowRunner → job-arrivals (the
 * released jobs), job-status (WAITING, FAILED by a parent), workflow-status.
 * Every operator has a name and a stable uid so savepoints restore across versions.
 */
public final class SchedulerJob {
  public static final String NAME = "locus-scheduler";
  /** How long a partly filled network buffer may wait before it is sent downstream. */
  public static final Duration BUFFER_TIMEOUT = Duration.ofMillis(2);
  /** The Prometheus reporter's name in the Flink configuration ({@code metrics.reporter.prom.*}). */
  public static final String PROMETHEUS_REPORTER = "prom";
  /** Its factory (flink-metrics-prometheus, on the job's classpath and in the shaded jar). */
  public static final String PROMETHEUS_FACTORY =
      "org.apache.flink.metrics.prometheus.PrometheusReporterFactory";

  /** Everything the job needs; the CLI builds it from flags, tests build it directly. */
  public record Options(
      String bootstrap,
      Properties kafkaOverrides,
      DeliveryMode delivery,
      SchedulerConfig scheduler,
      Duration checkpointInterval,
      Path checkpointDir,
      String stateBackend,
      int parallelism,
      String groupId,
      String transactionalIdPrefix,
      int restartAttempts) {

    public Options {
      if (!stateBackend.equals("rocksdb") && !stateBackend.equals("hashmap")) {
        throw new IllegalArgumentException(
            "state backend must be 'rocksdb' or 'hashmap', got '" + stateBackend + "'");
      }
      if (parallelism < 1) {
        throw new IllegalArgumentException("parallelism must be ≥ 1");
      }
      kafkaOverrides = kafkaOverrides == null ? new Properties() : kafkaOverrides;
    }
  }

  private SchedulerJob() {}

  /**
   * Adds Flink's Prometheus reporter to {@code conf}: every TaskManager and the JobManager this
   * configuration starts (the local MiniCluster of {@code locus run} and of the demo) serve {@code
   * GET /metrics} on {@code ports}, a port ({@code 9249}) or a range ({@code 9249-9259}: each
   * process takes the first free one). A cluster started elsewhere (standalone, Kubernetes) reads
   * its own configuration instead: the same two keys go into its flink-conf (the helm chart does
   * that). The scheduler's series are listed in docs/operations.md.
   */
  public static void prometheus(Configuration conf, String ports) {
    checkPorts(ports);
    String prefix = "metrics.reporter." + PROMETHEUS_REPORTER + ".";
    conf.set(org.apache.flink.configuration.ConfigOptions.key(prefix + "factory.class")
        .stringType().noDefaultValue(), PROMETHEUS_FACTORY);
    conf.set(org.apache.flink.configuration.ConfigOptions.key(prefix + "port")
        .stringType().noDefaultValue(), ports.trim());
  }

  /** A port (1-65535) or a range FROM-TO of them; anything else is an IllegalArgumentException. */
  public static void checkPorts(String ports) {
    String p = ports == null ? "" : ports.trim();
    String[] parts = p.split("-", -1);
    boolean ok = parts.length == 1 || parts.length == 2;
    int from = 0;
    int to = 0;
    try {
      from = ok ? Integer.parseInt(parts[0].trim()) : 0;
      to = parts.length == 2 ? Integer.parseInt(parts[1].trim()) : from;
    } catch (NumberFormatException e) {
      ok = false;
    }
    if (!ok || from < 1 || to > 65535 || to < from) {
      throw new IllegalArgumentException("metrics port must be a port (1-65535) or a range "
          + "FROM-TO such as 9249-9259, got '" + ports + "'");
    }
  }

  /** The Flink configuration for these options: state backend, checkpoints, restarts, no Kryo. */
  public static Configuration configuration(Options o) {
    Configuration conf = new Configuration();
    conf.set(StateBackendOptions.STATE_BACKEND, o.stateBackend());
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, o.checkpointInterval());
    conf.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
    if (o.checkpointDir() != null) {
      conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, o.checkpointDir().toUri().toString());
    }
    // A cancelled or killed job keeps its last checkpoint, so the next start can restore it
    // (RestorePoint finds it); Flink still deletes checkpoints once a newer one subsumes them.
    conf.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    if (o.restartAttempts() == 0) {
      conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    } else {
      conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
      conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, o.restartAttempts());
      conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
    }
    // A decision waits in a network buffer until the buffer is full or this timeout passes; Flink's
    // default (100 ms) would be most of an at-least-once placement's latency at low rates. Under
    // load the 32 KiB buffers fill long before the timeout, so throughput does not change.
    conf.set(ExecutionOptions.BUFFER_TIMEOUT, BUFFER_TIMEOUT);
    // Every record and state type has an Avro or Flink serializer; a Kryo fallback is a bug.
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    return conf;
  }

  /**
   * Makes the job start from {@code point} (nothing for a fresh start). A retained checkpoint that
   * Locus found is claimed (Flink deletes it once the new job's checkpoints subsume it, so restarts
   * do not pile up state); a savepoint the operator gave is never claimed.
   */
  public static void restoreFrom(Configuration conf, RestorePoint point, boolean allowNonRestored) {
    if (point.isFresh()) {
      return;
    }
    conf.set(StateRecoveryOptions.SAVEPOINT_PATH, point.path().toUri().toString());
    conf.set(StateRecoveryOptions.RESTORE_MODE,
        point.claim() ? RecoveryClaimMode.CLAIM : RecoveryClaimMode.NO_CLAIM);
    conf.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, allowNonRestored);
  }

  /**
   * Where the job reads and writes: one source of raw input records (the input topics,
   * undecoded, each naming the topic it came from), one of the workflow runner's (workflows and
   * job-status) and one sink per output. Production uses
   * {@link #kafka}; a test passes bounded in-memory sources and collecting sinks, so the whole
   * graph runs on a MiniCluster without a broker.
   */
  public record Io(
      Source<RawRecord, ?, ?> inputs,
      Sink<Decision> decisions,
      Sink<SchedulerMetrics> metrics,
      Sink<ScaleRequest> scaleRequests,
      Sink<ControlAck> controlAcks,
      Sink<ShadowDecision> shadowDecisions,
      Sink<DeadLetter> deadLetters,
      Sink<NodeStatus> nodeStatus,
      Sink<JobStatus> jobStatus,
      Source<RawRecord, ?, ?> workflowInputs,
      Sink<JobSubmitted> releasedJobs,
      Sink<WorkflowStatus> workflowStatus) {

    public Io {
      Objects.requireNonNull(inputs, "inputs");
      Objects.requireNonNull(decisions, "decisions");
      Objects.requireNonNull(metrics, "metrics");
      Objects.requireNonNull(scaleRequests, "scaleRequests");
      Objects.requireNonNull(controlAcks, "controlAcks");
      Objects.requireNonNull(shadowDecisions, "shadowDecisions");
      Objects.requireNonNull(deadLetters, "deadLetters");
      Objects.requireNonNull(nodeStatus, "nodeStatus");
      Objects.requireNonNull(jobStatus, "jobStatus");
      Objects.requireNonNull(workflowInputs, "workflowInputs");
      Objects.requireNonNull(releasedJobs, "releasedJobs");
      Objects.requireNonNull(workflowStatus, "workflowStatus");
    }

    /** The Kafka topics of {@code o}'s cluster, with {@code o}'s delivery guarantee. */
    public static Io kafka(Options o) {
      String prefix = o.transactionalIdPrefix();
      return new Io(
          LocusSources.inputs(o.bootstrap(), o.kafkaOverrides(), o.groupId()),
          LocusSinks.decisions(o.bootstrap(), o.kafkaOverrides(), o.delivery(),
              prefix + "-decisions"),
          // Metrics are superseded every interval: a duplicate after a restart misleads no one.
          LocusSinks.metrics(o.bootstrap(), o.kafkaOverrides(), DeliveryMode.AT_LEAST_ONCE,
              prefix + "-metrics"),
          LocusSinks.sink(Topics.SCALE_REQUESTS, ScaleRequest::getPool, o.bootstrap(),
              o.kafkaOverrides(), o.delivery(), prefix + "-scale-requests"),
          LocusSinks.sink(Topics.CONTROL_ACKS, ControlAck::getPool, o.bootstrap(),
              o.kafkaOverrides(), o.delivery(), prefix + "-control-acks"),
          // Advice only, so at least once: a shadow decision seen twice misleads no one.
          LocusSinks.sink(Topics.SHADOW_DECISIONS, ShadowDecision::getPool, o.bootstrap(),
              o.kafkaOverrides(), DeliveryMode.AT_LEAST_ONCE, prefix + "-shadow-decisions"),
          LocusSinks.deadLetters(o.bootstrap(), o.kafkaOverrides(), o.delivery(),
              prefix + "-dead-letters"),
          // Verdicts in the job's delivery mode, so that a replay after a restore never shows a
          // verdict the restored state did not make (exactly-once: transactional).
          LocusSinks.sink(Topics.NODE_STATUS,
              s -> Topics.nodeStatusKey(s.getPool(), s.getNode()), o.bootstrap(),
              o.kafkaOverrides(), o.delivery(), prefix + "-node-status"),
          // Job transitions likewise: a replay never shows one the restored state did not make.
          // One sink for the scheduler's transitions and the workflow runner's (WAITING, FAILED
          // by a parent).
          LocusSinks.sink(Topics.JOB_STATUS, s -> Topics.jobStatusKey(s.getPool(), s.getJobId()),
              o.bootstrap(), o.kafkaOverrides(), o.delivery(), prefix + "-job-status"),
          LocusSources.workflowInputs(o.bootstrap(), o.kafkaOverrides(), o.groupId()),
          // The runner's outputs in the job's delivery mode: with exactly-once, a restore never
          // releases a job twice (WorkflowRunner's class comment says why).
          LocusSinks.sink(Topics.JOB_ARRIVALS, JobSubmitted::getPool, o.bootstrap(),
              o.kafkaOverrides(), o.delivery(), prefix + "-workflow-jobs"),
          LocusSinks.sink(Topics.WORKFLOW_STATUS, WorkflowStatus::getWorkflowId, o.bootstrap(),
              o.kafkaOverrides(), o.delivery(), prefix + "-workflow-status"));
    }
  }

  /** Adds the job's operators to {@code env}, reading and writing {@code o}'s Kafka topics. */
  public static void build(StreamExecutionEnvironment env, Options o) {
    build(env, o, Io.kafka(o));
  }

  /**
   * Adds the job's operators to {@code env}, reading from and writing to {@code io}. The uids do
   * not depend on {@code io}: they name state in savepoints, which must restore across versions.
   */
  public static void build(StreamExecutionEnvironment env, Options o, Io io) {
    env.setParallelism(o.parallelism());
    DataStream<RawRecord> raw = env
        .fromSource(io.inputs(), WatermarkStrategy.noWatermarks(), "kafka-inputs",
            LocusTypes.RAW_RECORD)
        .uid("kafka-inputs");

    SingleOutputStreamOperator<SchedulerInput> parsed = parse(raw);
    SingleOutputStreamOperator<Decision> decisions = schedule(parsed, o.scheduler());

    decisions.sinkTo(io.decisions())
        .name("decisions-sink")
        .uid("decisions-sink");
    decisions.getSideOutput(SchedulerOperator.METRICS).sinkTo(io.metrics())
        .name("metrics-sink")
        .uid("metrics-sink");
    decisions.getSideOutput(SchedulerOperator.SCALE_REQUESTS).sinkTo(io.scaleRequests())
        .name("scale-requests-sink")
        .uid("scale-requests-sink");
    decisions.getSideOutput(SchedulerOperator.CONTROL_ACKS).sinkTo(io.controlAcks())
        .name("control-acks-sink")
        .uid("control-acks-sink");
    decisions.getSideOutput(SchedulerOperator.SHADOW_DECISIONS).sinkTo(io.shadowDecisions())
        .name("shadow-decisions-sink")
        .uid("shadow-decisions-sink");
    decisions.getSideOutput(SchedulerOperator.NODE_STATUS).sinkTo(io.nodeStatus())
        .name("node-status-sink")
        .uid("node-status-sink");
    SingleOutputStreamOperator<RawRecord> workflowInputs = workflowInputs(env, io);
    SingleOutputStreamOperator<JobSubmitted> released = runWorkflows(workflowInputs);
    released.sinkTo(io.releasedJobs())
        .name("released-jobs-sink")
        .uid("released-jobs-sink");
    decisions.getSideOutput(SchedulerOperator.JOB_STATUS)
        .union(released.getSideOutput(WorkflowRunner.JOB_STATUS))
        .sinkTo(io.jobStatus())
        .name("job-status-sink")
        .uid("job-status-sink");
    released.getSideOutput(WorkflowRunner.WORKFLOW_STATUS).sinkTo(io.workflowStatus())
        .name("workflow-status-sink")
        .uid("workflow-status-sink");
    deadLetters(parsed, decisions)
        .union(workflowInputs.getSideOutput(WorkflowInputs.DEAD_LETTERS),
            released.getSideOutput(WorkflowRunner.DEAD_LETTERS))
        .sinkTo(io.deadLetters())
        .name("dead-letters-sink")
        .uid("dead-letters-sink");
  }

  /**
   * The workflow runner's inputs ({@code workflows} and {@code job-status}: the scheduler's own
   * output read back, the loop through Kafka), keyed by the workflow they belong to.
   */
  private static SingleOutputStreamOperator<RawRecord> workflowInputs(
      StreamExecutionEnvironment env, Io io) {
    return env
        .fromSource(io.workflowInputs(), WatermarkStrategy.noWatermarks(), "workflow-inputs",
            LocusTypes.RAW_RECORD)
        .uid("workflow-inputs")
        .process(new WorkflowInputs(), LocusTypes.RAW_RECORD)
        .name("workflow-keying")
        .uid("workflow-keying");
  }

  /** One runner per workflow: releases its jobs to job-arrivals as their parents complete. */
  private static SingleOutputStreamOperator<JobSubmitted> runWorkflows(
      DataStream<RawRecord> inputs) {
    return inputs
        .keyBy(WorkflowInputs::workflowId, Types.STRING)
        .process(new WorkflowRunner(), WorkflowTypes.JOB_SUBMITTED)
        .name("workflow-runner")
        .uid("workflow-runner");
  }

  /** Decodes and validates every raw record; bad ones go to the dead-letter side output. */
  private static SingleOutputStreamOperator<SchedulerInput> parse(DataStream<RawRecord> raw) {
    return raw
        .process(new ParseAndValidate(), LocusTypes.SCHEDULER_INPUT)
        .name("parse-validate")
        .uid("parse-validate");
  }

  /** One scheduler per pool: the inputs keyed by pool, into the SchedulerOperator. */
  private static SingleOutputStreamOperator<Decision> schedule(
      DataStream<SchedulerInput> parsed, SchedulerConfig config) {
    return parsed
        .keyBy(SchedulerInput::getPool, Types.STRING)
        .process(new SchedulerOperator(config), LocusTypes.DECISION)
        .name("scheduler")
        .uid("scheduler");
  }

  /** Records that could not be parsed and inputs the scheduler rejected, in one stream. */
  private static DataStream<DeadLetter> deadLetters(
      SingleOutputStreamOperator<SchedulerInput> parsed,
      SingleOutputStreamOperator<Decision> decisions) {
    return parsed.getSideOutput(ParseAndValidate.DEAD_LETTERS)
        .union(decisions.getSideOutput(SchedulerOperator.REJECTED));
  }
}
