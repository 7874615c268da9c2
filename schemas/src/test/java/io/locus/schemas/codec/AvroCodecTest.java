package io.locus.schemas.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.schemas.CachedFile;
import io.locus.schemas.CancelTask;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.EventSegment;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.FetchSource;
import io.locus.schemas.InputPlan;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.ReplicateFile;
import io.locus.schemas.ResourceProfile;
import io.locus.schemas.ScaleAction;
import io.locus.schemas.ScaleRequest;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AvroCodecTest {
  static JobSubmitted job() {
    return JobSubmitted.newBuilder().setJobId("j1").setPool("p").setSubmitTimeMs(5)
        .setInputs(List.of(DataUnit.newBuilder().setId("f1").setBytes(10).setComputeSeconds(0.5)
            .setLocation("file:///data/f1").setChecksum("ab").build()))
        .setComputeSeconds(1.5).setSplittable(true)
        .setProfile(ResourceProfile.newBuilder().setCpu(0.5).setIo(0.25).setMem(0.1).build())
        .setPriority(3).setTemplate("checksum").setArgs(List.of("--fast")).build();
  }

  /** A splittable event-range job (CERN, issue 5). */
  static JobSubmitted eventJob() {
    return JobSubmitted.newBuilder().setJobId("cern-1").setPool("p").setSubmitTimeMs(6)
        .setInputs(List.of()).setSplittable(true)
        .setProfile(ResourceProfile.newBuilder().setCpu(0.8).setIo(0.1).setNet(0.3).build())
        .setEvents(new EventRange("lhcb-2004", 1_000L, 41_000L)).build();
  }

  /** A subjob of an event-range job: its range and the planned source and cost of its events. */
  static PlaceTask placeRange() {
    return PlaceTask.newBuilder().setTaskId("cern-1/0").setJobId("cern-1").setAttempt(2)
        .setInputs(List.of())
        .setReason(PlacementReason.newBuilder().setPolicy("OUT_OF_ORDER").build())
        .setEvents(new EventRange("lhcb-2004", 1_000L, 5_000L))
        .setEventSegments(List.of(
            new EventSegment(1_000L, 1_500L, FetchSource.LOCAL, null, 0.26),
            new EventSegment(1_500L, 3_000L, FetchSource.PEER, "n3", 0.26),
            new EventSegment(3_000L, 5_000L, FetchSource.STORAGE, null, 0.8)))
        .build();
  }

  static TaskEvent.Builder taskEvent(TaskEventType type) {
    return TaskEvent.newBuilder().setPool("p").setTaskId("t").setJobId("j").setAttempt(0)
        .setNode("n").setType(type).setDecisionId("d").setEpoch(1).setTimeMs(4);
  }

  static PlaceTask place() {
    return PlaceTask.newBuilder().setTaskId("t").setJobId("j").setAttempt(1)
        .setInputs(List.of(InputPlan.newBuilder().setFileId("f").setBytes(3)
            .setSource(FetchSource.PEER).setPeerNode("n2").build()))
        .setReason(PlacementReason.newBuilder().setPolicy("MCH").setScore(0.5).setLocalBytes(1)
            .setPeerBytes(2).setStorageBytes(3).build())
        .build();
  }

  static Decision decision(Object action) {
    return Decision.newBuilder().setDecisionId("p/t/1").setEpoch(2).setPool("p").setNode("n1")
        .setTimeMs(9).setAction(action).setSignature("sig").build();
  }

  /** One instance of every record that travels on a topic, with every union branch. */
  static Stream<Object[]> records() {
    return Stream.of(
        new Object[] {Codecs.JOB_SUBMITTED, job()},
        new Object[] {Codecs.TASK_EVENT, TaskEvent.newBuilder().setPool("p").setTaskId("t")
            .setJobId("j").setAttempt(0).setNode("n").setType(TaskEventType.COMPLETED)
            .setDecisionId("d").setEpoch(1).setTimeMs(4).setStartTimeMs(1).setEndTimeMs(4)
            .setBytesLocal(1).setBytesPeer(2).setBytesStorage(3).setExitCode(0)
            .setMessage("ok").build()},
        new Object[] {Codecs.JOB_SUBMITTED, eventJob()},
        new Object[] {Codecs.JOB_SUBMITTED, JobSubmitted.newBuilder(job()).setOutputs(List.of(
            DataUnit.newBuilder().setId("out-1").setBytes(42).build())).build()},
        new Object[] {Codecs.TASK_EVENT, taskEvent(TaskEventType.SHRUNK).setStopAt(3_100L)
            .build()},
        new Object[] {Codecs.TASK_EVENT, taskEvent(TaskEventType.SUSPENDED).setStopAt(2_000L)
            .setEvents(new EventRange("lhcb-2004", 1_000L, 2_000L)).build()},
        new Object[] {Codecs.TASK_EVENT, taskEvent(TaskEventType.COMPLETED)
            .setEvents(new EventRange("lhcb-2004", 1_000L, 3_100L)).build()},
        new Object[] {Codecs.NODE_REPORT, NodeReport.newBuilder().setPool("p").setNode("n")
            .setType(NodeReportType.CACHE_DELTA).setTimeMs(1).setSlots(2)
            .setCacheCapacityBytes(100).setSeq(7).setAdded(List.of(new CachedFile("f", 5L)))
            .setRemoved(List.of("g")).setDraining(true).setEndpoint("http://h:1").build()},
        new Object[] {Codecs.CONTROL, Control.newBuilder().setPool("p")
            .setType(ControlType.SET_POLICY).setTimeMs(1).setPolicy("GCC")
            .setParams(Map.of("theta", "0.8")).setNode(null).build()},
        new Object[] {Codecs.DECISION, decision(place())},
        new Object[] {Codecs.DECISION, decision(EvictFiles.newBuilder()
            .setFiles(List.of("a", "b")).setReason("full").build())},
        new Object[] {Codecs.DECISION, decision(ReplicateFile.newBuilder().setFileId("f")
            .setBytes(4).setSource(FetchSource.STORAGE).setReason("DLL").build())},
        new Object[] {Codecs.DECISION, decision(CancelTask.newBuilder().setTaskId("t")
            .setAttempt(0).setReason("drain").build())},
        new Object[] {Codecs.DECISION, decision(CancelTask.newBuilder().setTaskId("t")
            .setAttempt(1).setReason("queue b below its guarantee").setPreempt(true)
            .setGraceMs(30_000).build())},
        new Object[] {Codecs.DECISION, decision(placeRange())},
        new Object[] {Codecs.DECISION, decision(ShrinkTask.newBuilder().setTaskId("cern-1/0")
            .setJobId("cern-1").setAttempt(2).setNewEnd(3_000L).build())},
        new Object[] {Codecs.DECISION, decision(SuspendTask.newBuilder().setTaskId("cern-1/0")
            .setJobId("cern-1").setAttempt(2).build())},
        new Object[] {Codecs.SCHEDULER_METRICS, SchedulerMetrics.newBuilder().setPool("p")
            .setTimeMs(1).setEpoch(1).setPolicy("FA").setQueueLength(2).setRunningTasks(3)
            .setRegisteredNodes(4).setTotalSlots(8).setBusySlots(3).setPlacements(10)
            .setCompletions(7).setFailures(0).setBytesLocal(1).setBytesPeer(2).setBytesStorage(3)
            .build()},
        new Object[] {Codecs.SCHEDULER_METRICS, metricsWithQueues()},
        new Object[] {Codecs.SCALE_REQUEST, ScaleRequest.newBuilder().setRequestId("p/1")
            .setPool("p").setTimeMs(1).setEpoch(1).setAction(ScaleAction.ACQUIRE).setNodes(4)
            .setReason("queue").build()},
        new Object[] {Codecs.DEAD_LETTER, DeadLetter.newBuilder().setSourceTopic("job-arrivals")
            .setPartition(1).setOffset(2).setKey(ByteBuffer.wrap(new byte[] {1}))
            .setValue(ByteBuffer.wrap(new byte[] {2, 3})).setReason("bad").setTimeMs(3).build()});
  }

  @ParameterizedTest
  @MethodSource("records")
  @SuppressWarnings({"unchecked", "rawtypes"})
  void everyRecordRoundTrips(AvroCodec codec, SpecificRecord record) {
    byte[] bytes = codec.encode(record);
    // single-object encoding: marker C3 01, then the 8-byte fingerprint, then the body
    assertThat(bytes[0]).isEqualTo((byte) 0xC3);
    assertThat(bytes[1]).isEqualTo((byte) 0x01);
    assertThat(codec.decode(bytes)).isEqualTo(record);
  }

  @Test
  void aRecordWrittenWithTheOlderSchemaIsReadByTheCurrentReader() throws Exception {
    Schema v1;
    try (InputStream in = getClass().getResourceAsStream(
        "/io/locus/schemas/history/JobSubmitted-v1.avsc")) {
      v1 = new Schema.Parser().parse(in);
    }
    GenericRecord unit = new GenericData.Record(v1.getField("inputs").schema().getElementType());
    unit.put("id", "f1");
    unit.put("bytes", 42L);
    unit.put("computeSeconds", 0.0);
    unit.put("location", null);
    GenericRecord old = new GenericData.Record(v1);
    old.put("jobId", "old-job");
    old.put("pool", "p");
    old.put("submitTimeMs", 7L);
    old.put("inputs", List.of(unit));
    old.put("computeSeconds", 2.0);
    old.put("splittable", false);
    byte[] bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(old).array();

    JobSubmitted read = Codecs.JOB_SUBMITTED.decode(bytes);
    assertThat(read.getJobId()).isEqualTo("old-job");
    assertThat(read.getInputs().get(0).getBytes()).isEqualTo(42L);
    // fields added after v1 take their defaults
    assertThat(read.getPriority()).isZero();
    assertThat(read.getTemplate()).isNull();
    assertThat(read.getArgs()).isEmpty();
    assertThat(read.getInputs().get(0).getChecksum()).isNull();
  }

  @Test
  void anUnknownFingerprintIsAClearError() throws Exception {
    Schema other = Schema.createRecord("JobSubmitted", null, "io.locus.schemas", false,
        List.of(new Schema.Field("somethingElse", Schema.create(Schema.Type.STRING))));
    GenericRecord r = new GenericData.Record(other);
    r.put("somethingElse", "x");
    byte[] bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), other).encode(r).array();
    assertThatThrownBy(() -> Codecs.JOB_SUBMITTED.decode(bytes))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("unknown schema fingerprint")
        .hasMessageContaining("known:");
  }

  @Test
  void garbageAndEmptyValuesAreClearErrors() {
    assertThatThrownBy(() -> Codecs.TASK_EVENT.decode("hello".getBytes()))
        .isInstanceOf(SchemaException.class).hasMessageContaining("not an Avro single-object");
    assertThatThrownBy(() -> Codecs.TASK_EVENT.decode(null))
        .isInstanceOf(SchemaException.class).hasMessageContaining("empty value");
    byte[] truncated = java.util.Arrays.copyOf(Codecs.JOB_SUBMITTED.encode(job()), 14);
    assertThatThrownBy(() -> Codecs.JOB_SUBMITTED.decode(truncated))
        .isInstanceOf(SchemaException.class).hasMessageContaining("corrupt");
  }

  /** Every shipped older version must stay readable by the current schema (compatibility gate). */
  @Test
  void currentSchemasCanReadEveryHistoricVersion() {
    for (AvroCodec<?> codec : List.of(Codecs.JOB_SUBMITTED, Codecs.TASK_EVENT, Codecs.NODE_REPORT,
        Codecs.CONTROL, Codecs.CONTROL_ACK, Codecs.DECISION, Codecs.SCHEDULER_METRICS,
        Codecs.SCALE_REQUEST,
        Codecs.DEAD_LETTER, Codecs.JOB_COMMAND, Codecs.JOB_STATUS, Codecs.WORKFLOW_SUBMITTED,
        Codecs.WORKFLOW_STATUS)) {
      for (Schema old : AvroCodec.SchemaHistory.versionsOf(codec.schema().getName())) {
        var result = SchemaCompatibility.checkReaderWriterCompatibility(codec.schema(), old);
        assertThat(result.getType())
            .as("%s cannot read its older version: %s", codec.schema().getName(),
                result.getDescription())
            .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
      }
    }
    assertThat(AvroCodec.SchemaHistory.versionsOf("JobSubmitted")).hasSize(5);
    assertThat(AvroCodec.SchemaHistory.versionsOf("SchedulerMetrics")).hasSize(4);
    assertThat(AvroCodec.SchemaHistory.versionsOf("Control")).hasSize(1);
    assertThat(AvroCodec.SchemaHistory.versionsOf("ControlAck")).hasSize(1);
    assertThat(AvroCodec.SchemaHistory.versionsOf("JobStatus")).hasSize(1);
    assertThat(AvroCodec.SchemaHistory.versionsOf("TaskEvent")).hasSize(4);
    assertThat(AvroCodec.SchemaHistory.versionsOf("Decision")).hasSize(5);
    assertThat(AvroCodec.SchemaHistory.versionsOf("NodeReport")).hasSize(1);
    assertThat(AvroCodec.SchemaHistory.versionsOf("DeadLetter")).hasSize(1);
  }

  /**
   * A history file is what older producers wrote: its fingerprint must stay the one they put in
   * their records. (Docs may change; they are not part of the fingerprint.)
   */
  @Test
  void historicFingerprintsAreThoseOfTheReleasedSchemas() {
    assertThat(fingerprint(AvroCodec.SchemaHistory.versionsOf("JobSubmitted").get(1)))
        .isEqualTo("0x252d545936a2c73a");
    assertThat(fingerprint(AvroCodec.SchemaHistory.versionsOf("TaskEvent").get(0)))
        .isEqualTo("0x2079c4a78a6360ec");
    assertThat(fingerprint(AvroCodec.SchemaHistory.versionsOf("Decision").get(0)))
        .isEqualTo("0x33b4cc29f80161cf");
    // and the current ones differ: the issue-5 fields are a new version
    assertThat(fingerprint(Codecs.TASK_EVENT.schema())).isNotEqualTo("0x2079c4a78a6360ec");
  }

  /** A pool's metrics with a two-queue tree and each queue's usage (issue 24). */
  static SchedulerMetrics metricsWithQueues() {
    return SchedulerMetrics.newBuilder().setPool("p").setTimeMs(1).setEpoch(1).setPolicy("MCH")
        .setQueueLength(5).setRunningTasks(4).setRegisteredNodes(2).setTotalSlots(4)
        .setBusySlots(4).setPlacements(9).setCompletions(5).setFailures(0).setBytesLocal(1)
        .setBytesPeer(2).setBytesStorage(3)
        .setQueues(List.of(io.locus.schemas.QueueConfig.newBuilder().setName("a")
            .setGuaranteedSlots(2).setLimitSlots(4).build()))
        .setQueueUsage(List.of(
            io.locus.schemas.QueueUsage.newBuilder().setQueue("a").setGuarantee(2)
                .setLimit(4).setRunning(3).setPending(5).setShare(0.75).setFairShare(2.5)
                .setBorrowed(1).setPreempted(2).build(),
            io.locus.schemas.QueueUsage.newBuilder().setQueue("default").setRunning(1)
                .setShare(0.25).setFairShare(1.5).setBorrowed(1).build()))
        .build();
  }

  private static String fingerprint(Schema s) {
    return String.format("0x%016x", SchemaNormalization.parsingFingerprint64(s));
  }

  /** Records whose new fields are at their defaults, written by the previous producers. */
  static Stream<Object[]> previousVersions() {
    return Stream.of(
        new Object[] {Codecs.JOB_SUBMITTED, "JobSubmitted", 2, job()},
        // v3 has no outputs: read as an empty list (issue 15)
        new Object[] {Codecs.JOB_SUBMITTED, "JobSubmitted", 3, job()},
        // v5 has no queue, Control v1 no queues, JobStatus v1 no queue: null / empty (issue 24)
        new Object[] {Codecs.JOB_SUBMITTED, "JobSubmitted", 5, job()},
        new Object[] {Codecs.CONTROL, "Control", 1, Control.newBuilder().setPool("p")
            .setType(ControlType.PAUSE_POOL).setTimeMs(1).setRequestId("r").build()},
        new Object[] {Codecs.JOB_STATUS, "JobStatus", 1, io.locus.schemas.JobStatus.newBuilder()
            .setPool("p").setJobId("j").setState(io.locus.schemas.JobState.QUEUED).setTimeMs(3)
            .build()},
        new Object[] {Codecs.DECISION, "Decision", 3, decision(place())},
        // v4 has no queueUsage: read as an empty list (issue 24, the queues seen)
        new Object[] {Codecs.SCHEDULER_METRICS, "SchedulerMetrics", 4,
            SchedulerMetrics.newBuilder(metricsWithQueues()).setQueueUsage(List.of()).build()},
        // v4 has no PlaceTask.proof, v3 of TaskEvent no placementProof: read as null (issue 22)
        new Object[] {Codecs.DECISION, "Decision", 4, decision(place())},
        new Object[] {Codecs.TASK_EVENT, "TaskEvent", 3, TaskEvent.newBuilder().setPool("p")
            .setTaskId("t").setJobId("j").setAttempt(0).setNode("n")
            .setType(TaskEventType.COMPLETED).setDecisionId("p/t/0").setEpoch(2).setTimeMs(4)
            .setInstanceId("i").setSignature("ab".repeat(32)).build()},
        new Object[] {Codecs.TASK_EVENT, "TaskEvent", 1, TaskEvent.newBuilder().setPool("p")
            .setTaskId("t").setJobId("j").setAttempt(3).setNode("n")
            .setType(TaskEventType.REFUSED).setDecisionId("d").setEpoch(1).setTimeMs(4)
            .setMessage("no free slot").build()},
        // v5 has no CancelTask.preempt nor graceMs, v4 of TaskEvent no PREEMPTED: a cancel of an
        // older scheduler is a plain cancel (issue 24)
        new Object[] {Codecs.DECISION, "Decision", 5, decision(CancelTask.newBuilder()
            .setTaskId("t").setAttempt(2).setReason("drain").setOnlyIfQueued(true).build())},
        new Object[] {Codecs.TASK_EVENT, "TaskEvent", 4, TaskEvent.newBuilder().setPool("p")
            .setTaskId("t").setJobId("j").setAttempt(0).setNode("n")
            .setType(TaskEventType.WITHDRAWN).setDecisionId("p/t/0").setEpoch(2).setTimeMs(4)
            .setPlacementProof("cd".repeat(32)).setInstanceId("i").build()},
        new Object[] {Codecs.DECISION, "Decision", 1, decision(place())},
        new Object[] {Codecs.DECISION, "Decision", 1, decision(CancelTask.newBuilder()
            .setTaskId("t").setAttempt(0).setReason("drain").build())});
  }

  /**
   * What a previous producer wrote (the record re-built under the history schema and encoded with
   * it) is read by the current reader as the same record, the new fields at their defaults.
   */
  @ParameterizedTest
  @MethodSource("previousVersions")
  @SuppressWarnings({"unchecked", "rawtypes"})
  void aRecordOfThePreviousVersionIsReadByTheCurrentReader(AvroCodec codec, String name,
      int version, SpecificRecord expected) throws Exception {
    Schema old = AvroCodec.SchemaHistory.versionsOf(name).get(version - 1);
    GenericRecord written = (GenericRecord) asOld(expected, old);
    byte[] bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), old)
        .encode(written).array();
    assertThat(fingerprintOf(bytes)).isEqualTo(SchemaNormalization.parsingFingerprint64(old));
    assertThat(codec.decode(bytes)).isEqualTo(expected);
  }

  @Test
  void aPreviousTaskEventHasNoRangeNorStopAt() throws Exception {
    Schema old = AvroCodec.SchemaHistory.versionsOf("TaskEvent").get(0);
    TaskEvent e = TaskEvent.newBuilder().setPool("p").setTaskId("t").setJobId("j").setAttempt(0)
        .setNode("n").setType(TaskEventType.COMPLETED).setTimeMs(1).build();
    byte[] bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), old)
        .encode((GenericRecord) asOld(e, old)).array();
    TaskEvent read = Codecs.TASK_EVENT.decode(bytes);
    assertThat(read.getEvents()).isNull();
    assertThat(read.getStopAt()).isNull();
    JobSubmitted j = Codecs.JOB_SUBMITTED.decode(new BinaryMessageEncoder<GenericRecord>(
        GenericData.get(), AvroCodec.SchemaHistory.versionsOf("JobSubmitted").get(1))
        .encode((GenericRecord) asOld(job(), AvroCodec.SchemaHistory.versionsOf("JobSubmitted")
            .get(1))).array());
    assertThat(j.getEvents()).isNull();
    assertThat(j.getProfile().getNet()).isZero();
    assertThat(j.getProfile().getCpu()).isEqualTo(0.5);
  }

  private static long fingerprintOf(byte[] bytes) {
    return ByteBuffer.wrap(bytes, 2, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
  }

  /** A current (specific) value re-built under an older schema, field by field by name. */
  private static Object asOld(Object value, Schema old) {
    switch (old.getType()) {
      case RECORD -> {
        SpecificRecord r = (SpecificRecord) value;
        GenericRecord g = new GenericData.Record(old);
        for (Schema.Field f : old.getFields()) {
          Schema.Field cur = r.getSchema().getField(f.name());
          g.put(f.name(), asOld(r.get(cur.pos()), f.schema()));
        }
        return g;
      }
      case UNION -> {
        if (value == null) {
          return null;
        }
        for (Schema branch : old.getTypes()) {
          boolean fits = switch (branch.getType()) {
            case RECORD -> value instanceof SpecificRecord r
                && r.getSchema().getFullName().equals(branch.getFullName());
            case STRING -> value instanceof CharSequence;
            case LONG -> value instanceof Long;
            case INT -> value instanceof Integer;
            case NULL -> false;
            default -> throw new IllegalArgumentException("branch " + branch);
          };
          if (fits) {
            return asOld(value, branch);
          }
        }
        throw new IllegalArgumentException(value + " fits no branch of " + old);
      }
      case ARRAY -> {
        List<Object> out = new ArrayList<>();
        for (Object o : (List<?>) value) {
          out.add(asOld(o, old.getElementType()));
        }
        return new GenericData.Array<>(old, out);
      }
      case ENUM -> {
        return new GenericData.EnumSymbol(old, value.toString());
      }
      default -> {
        return value;
      }
    }
  }
}
