package io.locus.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.DeliveryMode;
import io.locus.connectors.records.LocusTypes;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.Control;
import io.locus.schemas.ControlAck;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.NodeStatus;
import io.locus.schemas.Decision;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.WorkflowFailurePolicy;
import io.locus.schemas.WorkflowStatus;
import io.locus.schemas.WorkflowSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ScaleRequest;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.ShadowDecision;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.RawRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.flink.connector.datagen.functions.IndexLookupGeneratorFunction;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole job graph (parse and validate, the scheduler operator on RocksDB, every sink, dead
 * letters from both) on a MiniCluster, fed by a bounded in-memory source instead of Kafka: no
 * broker. The job ends when its input does, then the collected outputs are checked.
 */
@Tag("integration")
@Timeout(120)
class SchedulerJobGraphTest {
  private static final String POOL = "pool-a";
  private static final long MB = 1_000_000L;

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder()
          .setNumberTaskManagers(1)
          .setNumberSlotsPerTaskManager(2)
          .build());

  /** The inputs, in the order they are numbered; each is its topic's next offset. */
  private final List<RawRecord> inputs = new ArrayList<>();

  @Test
  void placesSubmittedJobsOnRegisteredNodesAndDeadLettersWhatItCannotUse(@TempDir Path dir)
      throws Exception {
    send(Topics.NODE_REPORTS, register("n1", 1));
    send(Topics.NODE_REPORTS, register("n2", 2));
    for (int i = 0; i < 3; i++) {
      send(Topics.JOB_ARRIVALS, job("j" + i, 10 + i));
    }
    RawRecord malformed = sendBytes(Topics.JOB_ARRIVALS,
        new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef});
    send(Topics.CONTROL, Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY)
        .setTimeMs(20).setPolicy("NOPE").build());

    Outputs out = new Outputs();
    run(options(dir), out.io(source(inputs)));

    // Three jobs, three slots: every job placed once, on a node that registered.
    List<Decision> decisions = out.decisions.received();
    assertThat(decisions).allSatisfy(d -> {
      assertThat(d.getPool()).isEqualTo(POOL);
      assertThat(d.getNode()).isIn("n1", "n2");
      assertThat(d.getAction()).isInstanceOf(PlaceTask.class);
    });
    assertThat(decisions).extracting(d -> ((PlaceTask) d.getAction()).getJobId())
        .containsExactlyInAnyOrder("j0", "j1", "j2");

    // Bytes that are no JobSubmitted (parse) and a policy no one knows (scheduler): dead letters.
    List<DeadLetter> dead = out.deadLetters.received();
    assertThat(dead).hasSize(2);
    assertThat(dead).filteredOn(l -> l.getCode().equals(DeadLetterCodes.CORRUPT))
        .singleElement().satisfies(l -> {
          assertThat(l.getSourceTopic()).isEqualTo(Topics.JOB_ARRIVALS.name());
          assertThat(l.getOffset()).isEqualTo(malformed.getOffset());
          assertThat(l.getValue()).isEqualTo(malformed.getValue());
          assertThat(l.getReason()).contains("not an Avro single-object encoded JobSubmitted");
        });
    assertThat(dead).filteredOn(l -> l.getSourceTopic().equals(Topics.CONTROL.name()))
        .singleElement().satisfies(l -> assertThat(l.getReason()).contains("unknown policy 'NOPE'"));
    assertThat(out.controlAcks.received()).singleElement()
        .satisfies(a -> assertThat(a.getPool()).isEqualTo(POOL));
    // the scheduler's verdicts on the two registrations reach their sink
    assertThat(out.nodeStatus.received())
        .extracting(NodeStatus::getNode, s -> s.getState().name())
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("n1", "REGISTERED"),
            org.assertj.core.groups.Tuple.tuple("n2", "REGISTERED"));
    // every job's transitions reach the job-status sink: accepted, then placed
    assertThat(out.jobStatus.received())
        .extracting(s -> s.getJobId() + ":" + s.getState())
        .containsExactlyInAnyOrder("j0:QUEUED", "j0:PLACED", "j1:QUEUED", "j1:PLACED",
            "j2:QUEUED", "j2:PLACED");
  }

  @Test
  void runsWorkflowsBesideTheSchedulerAndRefusesAnInvalidOne(@TempDir Path dir) throws Exception {
    List<RawRecord> workflowInputs = new ArrayList<>();
    JobSubmitted a = job("a", 10);
    JobSubmitted b = JobSubmitted.newBuilder(job("b", 10)).setParents(List.of("a")).build();
    workflowInputs.add(workflowRecord(0, WorkflowSubmitted.newBuilder().setWorkflowId("wf-1")
        .setSubmitTimeMs(500).setOnFailure(WorkflowFailurePolicy.FAIL_DESCENDANTS)
        .setJobs(List.of(a, b)).build()));
    JobSubmitted loop = JobSubmitted.newBuilder(job("x", 10)).setParents(List.of("x")).build();
    workflowInputs.add(workflowRecord(1, WorkflowSubmitted.newBuilder().setWorkflowId("wf-2")
        .setSubmitTimeMs(500).setOnFailure(WorkflowFailurePolicy.FAIL_WORKFLOW)
        .setJobs(List.of(loop)).build()));
    workflowInputs.add(statusOfJobOutsideWorkflows());
    send(Topics.NODE_REPORTS, register("n1", 1));

    Outputs out = new Outputs();
    run(options(dir), out.io(source(inputs), source(workflowInputs)));

    // the root goes to job-arrivals with its workflow; the child waits for it
    assertThat(out.released.received()).singleElement().satisfies(j -> {
      assertThat(j.getJobId()).isEqualTo("a");
      assertThat(j.getWorkflow()).isEqualTo("wf-1");
    });
    assertThat(out.jobStatus.received()).singleElement().satisfies(s -> {
      assertThat(s.getJobId()).isEqualTo("b");
      assertThat(s.getState()).isEqualTo(JobState.WAITING);
      assertThat(s.getPendingCode()).isEqualTo("parents");
    });
    assertThat(out.workflowStatus.received())
        .extracting(WorkflowStatus::getWorkflowId, s -> s.getState().name())
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("wf-1", "RUNNING"),
            org.assertj.core.groups.Tuple.tuple("wf-2", "REFUSED"));
    assertThat(out.deadLetters.received()).singleElement().satisfies(l -> {
      assertThat(l.getCode()).isEqualTo(DeadLetterCodes.INVALID_WORKFLOW);
      assertThat(l.getSourceTopic()).isEqualTo(Topics.WORKFLOWS.name());
      assertThat(l.getOffset()).isEqualTo(1L);
      assertThat(l.getReason()).isEqualTo("invalid workflow 'wf-2': cycle: 'x' → 'x'");
    });
  }

  /** A job-status record of a job outside any workflow: not the runner's business. */
  private static RawRecord statusOfJobOutsideWorkflows() {
    return new RawRecord(Topics.JOB_STATUS.name(), 0, 0L, 600L, null,
        ByteBuffer.wrap(Topics.JOB_STATUS.value(JobStatus.newBuilder().setPool(POOL)
            .setJobId("j0").setState(JobState.QUEUED).setTimeMs(600).build())));
  }

  private static RawRecord workflowRecord(long offset, WorkflowSubmitted w) {
    return new RawRecord(Topics.WORKFLOWS.name(), 0, offset, 500L,
        ByteBuffer.wrap(w.getWorkflowId().getBytes(StandardCharsets.UTF_8)),
        ByteBuffer.wrap(Topics.WORKFLOWS.value(w)));
  }

  /** The job's sinks, each collecting in this JVM. */
  private static final class Outputs {
    final CollectingSink<Decision> decisions = new CollectingSink<>();
    final CollectingSink<SchedulerMetrics> metrics = new CollectingSink<>();
    final CollectingSink<ScaleRequest> scaleRequests = new CollectingSink<>();
    final CollectingSink<ControlAck> controlAcks = new CollectingSink<>();
    final CollectingSink<ShadowDecision> shadowDecisions = new CollectingSink<>();
    final CollectingSink<DeadLetter> deadLetters = new CollectingSink<>();
    final CollectingSink<NodeStatus> nodeStatus = new CollectingSink<>();
    final CollectingSink<JobStatus> jobStatus = new CollectingSink<>();
    final CollectingSink<JobSubmitted> released = new CollectingSink<>();
    final CollectingSink<WorkflowStatus> workflowStatus = new CollectingSink<>();

    SchedulerJob.Io io(DataGeneratorSource<RawRecord> inputs) {
      // not an empty source: a bounded generator of no records emits a null
      return io(inputs, source(List.of(statusOfJobOutsideWorkflows())));
    }

    SchedulerJob.Io io(DataGeneratorSource<RawRecord> inputs,
        DataGeneratorSource<RawRecord> workflowInputs) {
      return new SchedulerJob.Io(inputs, decisions, metrics, scaleRequests, controlAcks,
          shadowDecisions, deadLetters, nodeStatus, jobStatus, workflowInputs, released,
          workflowStatus);
    }
  }

  /** Runs the job to its end: the source is bounded. */
  private static void run(SchedulerJob.Options o, SchedulerJob.Io io) throws Exception {
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(SchedulerJob.configuration(o));
    SchedulerJob.build(env, o, io);
    env.execute("scheduler-job-graph-test");
  }

  /** The options a real run would have, on RocksDB; no Kafka setting is read. */
  private static SchedulerJob.Options options(Path dir) {
    return new SchedulerJob.Options("unused:9092", new Properties(), DeliveryMode.AT_LEAST_ONCE,
        SchedulerConfig.defaults("FA"), Duration.ofSeconds(1), dir.resolve("checkpoints"),
        "rocksdb", 2, "test-group", "test", 0);
  }

  /** A bounded source of these records (copied with their Avro serializer, so none is shared). */
  private static DataGeneratorSource<RawRecord> source(List<RawRecord> records) {
    return new DataGeneratorSource<>(
        new IndexLookupGeneratorFunction<>(LocusTypes.RAW_RECORD, records), records.size(),
        LocusTypes.RAW_RECORD);
  }

  private <V extends org.apache.avro.specific.SpecificRecord> RawRecord send(TopicSpec<V> topic,
      V value) {
    return sendBytes(topic, topic.value(value));
  }

  /** The record a Kafka source would emit for {@code value} written to {@code topic}, keyed by pool. */
  private RawRecord sendBytes(TopicSpec<?> topic, byte[] value) {
    long offset = inputs.stream().filter(r -> r.getTopic().equals(topic.name())).count();
    RawRecord r = new RawRecord(topic.name(), 0, offset, 1_000L + inputs.size(),
        ByteBuffer.wrap(POOL.getBytes(StandardCharsets.UTF_8)), ByteBuffer.wrap(value));
    inputs.add(r);
    return r;
  }

  private static NodeReport register(String node, int slots) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(1).setSlots(slots).setCacheCapacityBytes(1000 * MB).build();
  }

  private static JobSubmitted job(String id, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId("data/" + id).setBytes(10 * MB).build()))
        .setComputeSeconds(1.0).build();
  }
}
