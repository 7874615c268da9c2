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
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
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
        new Object[] {Codecs.SCHEDULER_METRICS, SchedulerMetrics.newBuilder().setPool("p")
            .setTimeMs(1).setEpoch(1).setPolicy("FA").setQueueLength(2).setRunningTasks(3)
            .setRegisteredNodes(4).setTotalSlots(8).setBusySlots(3).setPlacements(10)
            .setCompletions(7).setFailures(0).setBytesLocal(1).setBytesPeer(2).setBytesStorage(3)
            .build()},
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
        Codecs.CONTROL, Codecs.DECISION, Codecs.SCHEDULER_METRICS, Codecs.SCALE_REQUEST,
        Codecs.DEAD_LETTER)) {
      for (Schema old : AvroCodec.SchemaHistory.versionsOf(codec.schema().getName())) {
        var result = SchemaCompatibility.checkReaderWriterCompatibility(codec.schema(), old);
        assertThat(result.getType())
            .as("%s cannot read its older version: %s", codec.schema().getName(),
                result.getDescription())
            .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
      }
    }
    assertThat(AvroCodec.SchemaHistory.versionsOf("JobSubmitted")).hasSize(1);
  }
}
