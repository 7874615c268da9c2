package io.locus.connectors.functions;

import static io.locus.connectors.Fixtures.control;
import static io.locus.connectors.Fixtures.job;
import static io.locus.connectors.Fixtures.register;
import static io.locus.connectors.Fixtures.taskEvent;
import static io.locus.connectors.Fixtures.unit;
import static io.locus.connectors.KafkaJobTests.hugeStringRecord;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.Topics;
import io.locus.schemas.ControlType;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.AvroCodec;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.RawRecord;
import io.locus.schemas.internal.SchedulerInput;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.metrics.groups.InternalOperatorMetricGroup;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;
import org.apache.flink.runtime.metrics.util.InterceptingOperatorMetricGroup;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ParseAndValidate inside Flink's operator test harness: main output, side output, metrics. */
class ParseAndValidateTest {
  private static final String POOL = "pool-a";
  private static final long NOW = 1_700_000_000_000L;

  private OneInputStreamOperatorTestHarness<RawRecord, SchedulerInput> harness;
  private long nextOffset;

  @BeforeEach
  void setUp() throws Exception {
    harness = ProcessFunctionTestHarnesses.forProcessFunction(new ParseAndValidate());
    harness.setProcessingTime(NOW);
  }

  @AfterEach
  void tearDown() throws Exception {
    harness.close();
  }

  private static byte[] utf8(String s) {
    return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
  }

  private RawRecord raw(String topic, byte[] key, byte[] value) {
    return new RawRecord(topic, 3, nextOffset++, NOW - 5,
        key == null ? null : ByteBuffer.wrap(key), value == null ? null : ByteBuffer.wrap(value));
  }

  private RawRecord send(String topic, String key, byte[] value) throws Exception {
    return send(topic, utf8(key), value);
  }

  private RawRecord send(String topic, byte[] key, byte[] value) throws Exception {
    RawRecord r = raw(topic, key, value);
    harness.processElement(r, NOW - 5);
    return r;
  }

  private List<DeadLetter> deadLetters() {
    var queue = harness.getSideOutput(ParseAndValidate.DEAD_LETTERS);
    return queue == null ? List.of() : queue.stream().map(StreamRecord::getValue).toList();
  }

  private String onlyReason() {
    assertThat(harness.extractOutputValues()).isEmpty();
    assertThat(deadLetters()).hasSize(1);
    return deadLetters().get(0).getReason();
  }

  @Test
  void everyInputTypeIsDecodedAndTaggedWithItsPool() throws Exception {
    JobSubmitted j = job(POOL, "j-1").build();
    var t = taskEvent(POOL).build();
    NodeReport n = register(POOL, "n-1").build();
    var c = control(POOL, ControlType.SET_POLICY).setPolicy("gcc").build();
    send(Topics.JOB_ARRIVALS.name(), POOL, Topics.JOB_ARRIVALS.value(j));
    send(Topics.TASK_EVENTS.name(), POOL, Topics.TASK_EVENTS.value(t));
    send(Topics.NODE_REPORTS.name(), POOL, Topics.NODE_REPORTS.value(n));
    send(Topics.CONTROL.name(), (String) null, Topics.CONTROL.value(c)); // no key: allowed
    var k = io.locus.schemas.JobCommand.newBuilder().setPool(POOL).setJobId("j-1")
        .setType(io.locus.schemas.JobCommandType.CANCEL).setTimeMs(NOW).setRequestId("r").build();
    send(Topics.JOB_COMMANDS.name(), POOL, Topics.JOB_COMMANDS.value(k));

    assertThat(harness.extractOutputValues()).containsExactly(
        new SchedulerInput(POOL, j, "job-arrivals", 3, 0L, NOW - 5),
        new SchedulerInput(POOL, t, "task-events", 3, 1L, NOW - 5),
        new SchedulerInput(POOL, n, "node-reports", 3, 2L, NOW - 5),
        new SchedulerInput(POOL, c, "control", 3, 3L, NOW - 5),
        new SchedulerInput(POOL, k, "job-commands", 3, 4L, NOW - 5));
    assertThat(deadLetters()).isEmpty();
  }

  @Test
  void deadLetterKeepsCoordinatesKeyValueAndProcessingTime() throws Exception {
    byte[] garbage = {1, 2, 3, 4, 5};
    RawRecord r = send(Topics.JOB_ARRIVALS.name(), POOL, garbage);

    DeadLetter dl = deadLetters().get(0);
    assertThat(dl.getSourceTopic()).isEqualTo("job-arrivals");
    assertThat(dl.getPartition()).isEqualTo(3);
    assertThat(dl.getOffset()).isEqualTo(r.getOffset());
    assertThat(dl.getKey()).isEqualTo(ByteBuffer.wrap(utf8(POOL)));
    assertThat(dl.getValue()).isEqualTo(ByteBuffer.wrap(garbage));
    assertThat(dl.getTimeMs()).isEqualTo(NOW);
    assertThat(dl.getReason()).contains("not an Avro single-object encoded JobSubmitted");
  }

  @Test
  void nullValueIsDeadLettered() throws Exception {
    send(Topics.TASK_EVENTS.name(), POOL, null);
    assertThat(onlyReason()).isEqualTo("empty value: expected a TaskEvent on task-events");
    assertThat(deadLetters().get(0).getValue()).isNull();
  }

  @Test
  void emptyValueIsDeadLettered() throws Exception {
    send(Topics.NODE_REPORTS.name(), POOL, new byte[0]);
    assertThat(onlyReason()).startsWith("empty value");
  }

  @Test
  void unknownTopicIsDeadLettered() throws Exception {
    send("decisions", POOL, Topics.JOB_ARRIVALS.value(job(POOL, "j-1").build()));
    assertThat(onlyReason()).startsWith("unknown input topic 'decisions'");
  }

  @Test
  void recordOfAnotherTypeIsAnUnknownFingerprint() throws Exception {
    send(Topics.JOB_ARRIVALS.name(), POOL, Topics.NODE_REPORTS.value(register(POOL, "n").build()));
    assertThat(onlyReason()).contains("unknown schema fingerprint").contains("JobSubmitted");
  }

  @Test
  void truncatedBodyIsCorrupt() throws Exception {
    byte[] full = Topics.JOB_ARRIVALS.value(job(POOL, "j-1").build());
    send(Topics.JOB_ARRIVALS.name(), POOL, Arrays.copyOf(full, full.length - 7));
    assertThat(onlyReason()).contains("corrupt JobSubmitted");
  }

  /** Issue 22: a valid record followed by 16 garbage bytes was accepted. */
  @Test
  void aRecordFollowedByTrailingBytesIsCorruptAndTheRecordAloneIsAccepted() throws Exception {
    byte[] full = Topics.JOB_ARRIVALS.value(job(POOL, "j-1").build());
    byte[] padded = Arrays.copyOf(full, full.length + 16);
    Arrays.fill(padded, full.length, padded.length, (byte) 0x5a);
    send(Topics.JOB_ARRIVALS.name(), POOL, padded);
    assertThat(onlyReason()).isEqualTo("corrupt JobSubmitted record (" + padded.length
        + " bytes): 16 trailing bytes after the record, which ends after " + full.length
        + " bytes");
    DeadLetter dl = deadLetters().get(0);
    assertThat(dl.getCode()).isEqualTo(DeadLetterCodes.CORRUPT);
    assertThat(dl.getValue()).isEqualTo(ByteBuffer.wrap(padded));

    send(Topics.JOB_ARRIVALS.name(), POOL, full);
    assertThat(harness.extractOutputValues()).hasSize(1);
    assertThat(deadLetters()).hasSize(1);
  }

  @Test
  void validationFailureIsDeadLetteredWithTheRule() throws Exception {
    JobSubmitted bad = job(POOL, "j-1").setInputs(List.of(unit("/etc/passwd", 1))).build();
    send(Topics.JOB_ARRIVALS.name(), POOL, Topics.JOB_ARRIVALS.value(bad));
    assertThat(onlyReason())
        .isEqualTo("invalid JobSubmitted: inputs[0].id '/etc/passwd' is an absolute path");
  }

  /**
   * Issue 22: file ids of up to 1,024 characters were accepted, though every agent refuses one
   * over 255 bytes as a file name: the job was placed, then failed on every node.
   */
  @Test
  void aJobWhoseFileIdNoAgentCanStoreIsDeadLetteredTooLarge() throws Exception {
    String id = "d/" + "x".repeat(296); // 300 bytes as an agent's file name ("/" is "%2F")
    JobSubmitted bad = job(POOL, "j-1").setInputs(List.of(unit(id, 1))).build();
    send(Topics.JOB_ARRIVALS.name(), POOL, Topics.JOB_ARRIVALS.value(bad));
    assertThat(onlyReason()).startsWith("invalid JobSubmitted: inputs[0].id 'd/xxx")
        .endsWith("' is 300 bytes as a file name, more than the limit of 255 (agents name"
            + " cached files by it)");
    assertThat(deadLetters().get(0).getCode()).isEqualTo(DeadLetterCodes.TOO_LARGE);

    JobSubmitted ok = job(POOL, "j-2").setInputs(List.of(unit("x".repeat(255), 1))).build();
    send(Topics.JOB_ARRIVALS.name(), POOL, Topics.JOB_ARRIVALS.value(ok));
    assertThat(harness.extractOutputValues()).hasSize(1);
  }

  @Test
  void keyMustMatchPool() throws Exception {
    send(Topics.JOB_ARRIVALS.name(), "pool-b", Topics.JOB_ARRIVALS.value(job(POOL, "j").build()));
    assertThat(onlyReason()).contains("does not match the record key 'pool-b'");
  }

  @Test
  void keyThatIsNotUtf8IsDeadLettered() throws Exception {
    send(Topics.JOB_ARRIVALS.name(), new byte[] {(byte) 0xc3, (byte) 0x28},
        Topics.JOB_ARRIVALS.value(job(POOL, "j").build()));
    assertThat(onlyReason()).isEqualTo("record key is not valid UTF-8");
  }

  @Test
  void aCancelOfAnUnknownTypeIsDeadLetteredWithItsReason() throws Exception {
    send(Topics.JOB_COMMANDS.name(), POOL, Topics.JOB_COMMANDS.value(
        io.locus.schemas.JobCommand.newBuilder().setPool(POOL).setJobId("j-1")
            .setType(io.locus.schemas.JobCommandType.UNKNOWN).setTimeMs(NOW).build()));
    assertThat(harness.extractOutputValues()).isEmpty();
    assertThat(deadLetters()).singleElement().satisfies(d -> {
      assertThat(d.getCode()).isEqualTo(DeadLetterCodes.INVALID);
      assertThat(d.getSourceTopic()).isEqualTo("job-commands");
      assertThat(d.getReason()).startsWith("invalid JobCommand: type UNKNOWN is not a command");
    });
  }

  @Test
  void badRecordsDoNotStopTheStream() throws Exception {
    send(Topics.JOB_ARRIVALS.name(), POOL, new byte[] {9});
    send(Topics.JOB_ARRIVALS.name(), POOL, Topics.JOB_ARRIVALS.value(job(POOL, "j-1").build()));
    send(Topics.CONTROL.name(), POOL, Topics.CONTROL.value(
        control(POOL, ControlType.DRAIN_NODE).build())); // no node: invalid
    send(Topics.JOB_ARRIVALS.name(), POOL, Topics.JOB_ARRIVALS.value(job(POOL, "j-2").build()));

    assertThat(harness.extractOutputValues()).extracting(i -> ((JobSubmitted) i.getEvent())
        .getJobId()).containsExactly("j-1", "j-2");
    assertThat(deadLetters()).extracting(DeadLetter::getOffset).containsExactly(0L, 2L);
    assertThat(deadLetters().get(1).getReason())
        .isEqualTo("invalid Control: DRAIN_NODE needs a node");
  }

  @Test
  void badEventRangeRecordsAreDeadLetteredWhileValidOnesFlow() throws Exception {
    JobSubmitted ok = job(POOL, "cern-1").setInputs(List.of()).setSplittable(true)
        .setEvents(new EventRange("lhcb", 0L, 40_000L)).build();
    JobSubmitted notSplittable = job(POOL, "cern-2").setInputs(List.of())
        .setEvents(new EventRange("lhcb", 0L, 10L)).build();
    JobSubmitted reversed = job(POOL, "cern-3").setInputs(List.of()).setSplittable(true)
        .setEvents(new EventRange("lhcb", 10L, 0L)).build();
    TaskEvent ack = taskEvent(POOL).setType(TaskEventType.SHRUNK).setStopAt(2_000L).build();
    TaskEvent ackWithoutStop = taskEvent(POOL).setType(TaskEventType.SUSPENDED)
        .setEvents(new EventRange("lhcb", 0L, 9L)).build();
    send(Topics.JOB_ARRIVALS.name(), POOL, Topics.JOB_ARRIVALS.value(notSplittable));
    send(Topics.JOB_ARRIVALS.name(), POOL, Topics.JOB_ARRIVALS.value(ok));
    send(Topics.TASK_EVENTS.name(), POOL, Topics.TASK_EVENTS.value(ackWithoutStop));
    send(Topics.JOB_ARRIVALS.name(), POOL, Topics.JOB_ARRIVALS.value(reversed));
    send(Topics.TASK_EVENTS.name(), POOL, Topics.TASK_EVENTS.value(ack));

    assertThat(harness.extractOutputValues()).extracting(SchedulerInput::getEvent)
        .containsExactly(ok, ack);
    assertThat(deadLetters()).extracting(DeadLetter::getOffset).containsExactly(0L, 2L, 3L);
    assertThat(deadLetters()).extracting(DeadLetter::getReason).containsExactly(
        "invalid JobSubmitted: events is set but splittable is false: an event-range job must be"
            + " splittable",
        "invalid TaskEvent: SUSPENDED needs stopAt",
        "invalid JobSubmitted: events [10, 0) is empty: start must be < end");
  }

  @Test
  void aShrinkDecisionIsNotAnInput() throws Exception {
    // Decisions go to agents; one written to an input topic is refused, never acted on.
    Decision shrink = Decision.newBuilder().setDecisionId("d").setEpoch(1).setPool(POOL)
        .setNode("n-1").setTimeMs(1).setAction(ShrinkTask.newBuilder().setTaskId("t")
            .setJobId("j").setAttempt(0).setNewEnd(5L).build()).build();
    send(Topics.TASK_EVENTS.name(), POOL, Topics.DECISIONS.value(shrink));
    assertThat(onlyReason()).contains("unknown schema fingerprint").contains("TaskEvent");
  }

  @Test
  void longReasonsAreCut() {
    DeadLetter dl = ParseAndValidate.deadLetter(raw("x", null, null), "invalid", "r".repeat(5000), 1L);
    assertThat(dl.getReason()).hasSize(ParseAndValidate.MAX_REASON + 3);
  }

  @Test
  void functionIsJavaSerializable() throws Exception {
    ParseAndValidate copy = InstantiationUtil.clone(new ParseAndValidate());
    assertThat(copy).isNotNull();
    assertThat(InstantiationUtil.clone(ParseAndValidate.DEAD_LETTERS))
        .isEqualTo(ParseAndValidate.DEAD_LETTERS);
  }

  // ---- issue 12: codes, bounded copies, per-code metrics ----

  private DeadLetter only() {
    assertThat(harness.extractOutputValues()).isEmpty();
    assertThat(deadLetters()).hasSize(1);
    return deadLetters().get(0);
  }


  @Test
  void deadLettersCarryTheirCode() throws Exception {
    send(Topics.JOB_ARRIVALS.name(), POOL, new byte[] {1, 2, 3});
    send(Topics.JOB_ARRIVALS.name(), POOL, Topics.JOB_ARRIVALS.value(
        job(POOL, "j").setComputeSeconds(Double.NaN).build()));
    send(Topics.JOB_ARRIVALS.name(), POOL, Topics.JOB_ARRIVALS.value(
        job(POOL, "x".repeat(300)).build()));
    send(Topics.CONTROL.name(), POOL, null);
    send("nowhere", POOL, new byte[] {1});
    assertThat(deadLetters()).extracting(DeadLetter::getCode).containsExactly(
        DeadLetterCodes.CORRUPT, DeadLetterCodes.INVALID, DeadLetterCodes.TOO_LARGE,
        DeadLetterCodes.CORRUPT, DeadLetterCodes.INVALID);
  }

  @Test
  void theEighteenByteTwoGigabyteStringIsCorruptAndAllocatesNothingBig() throws Exception {
    byte[] bytes = hugeStringRecord();
    assertThat(bytes).hasSize(18);
    send(Topics.JOB_ARRIVALS.name(), POOL, bytes);
    DeadLetter dl = only();
    assertThat(dl.getCode()).isEqualTo(DeadLetterCodes.CORRUPT);
    assertThat(dl.getReason()).isEqualTo("corrupt JobSubmitted record (18 bytes): declares a"
        + " string of 2147483000 bytes but only 3 remain");
    assertThat(dl.getValue()).isEqualTo(ByteBuffer.wrap(bytes));
  }

  @Test
  void aMillionCharJobIdIsTooLargeAndItsCopyIsCapped() throws Exception {
    byte[] value = Topics.JOB_ARRIVALS.value(job(POOL, "j".repeat(1_000_000)).build());
    assertThat(value.length).isBetween(1_000_000, AvroCodec.MAX_RECORD_BYTES);
    send(Topics.JOB_ARRIVALS.name(), POOL, value);
    DeadLetter dl = only();
    assertThat(dl.getCode()).isEqualTo(DeadLetterCodes.TOO_LARGE);
    assertThat(dl.getReason()).startsWith("invalid JobSubmitted: jobId is 1000000 chars long,"
        + " more than the limit of 256: 'jjj").endsWith("(value cut to its first 65536 of "
        + value.length + " bytes)");
    assertThat(dl.getValue().remaining()).isEqualTo(ParseAndValidate.MAX_DEAD_VALUE_BYTES);
    assertThat(dl.getValue()).isEqualTo(ByteBuffer.wrap(value, 0, 65536));
    // and the dead letter itself is small enough to write anywhere
    assertThat(Topics.DEAD_LETTERS.value(dl).length).isLessThan(70_000);
  }

  @Test
  void aValueOverOneMebibyteIsRefusedUndecoded() throws Exception {
    byte[] value = new byte[AvroCodec.MAX_RECORD_BYTES + 1];
    send(Topics.NODE_REPORTS.name(), POOL, value);
    DeadLetter dl = only();
    assertThat(dl.getCode()).isEqualTo(DeadLetterCodes.TOO_LARGE);
    assertThat(dl.getReason()).startsWith("NodeReport record of 1048577 bytes is larger than the"
        + " limit of 1048576 bytes; not decoded");
    assertThat(dl.getValue().remaining()).isEqualTo(ParseAndValidate.MAX_DEAD_VALUE_BYTES);
  }

  @Test
  void aHugeKeyIsTooLargeAndCapped() throws Exception {
    String key = "k".repeat(100_000);
    send(Topics.CONTROL.name(), key, Topics.CONTROL.value(
        control(POOL, ControlType.SET_POLICY).setPolicy("gcc").build()));
    DeadLetter dl = only();
    assertThat(dl.getCode()).isEqualTo(DeadLetterCodes.TOO_LARGE);
    assertThat(dl.getReason()).startsWith("record key is 100000 chars long, more than the limit"
        + " of 256 for a pool").contains("(key cut to its first 65536 of 100000 bytes)");
    assertThat(dl.getKey().remaining()).isEqualTo(ParseAndValidate.MAX_DEAD_VALUE_BYTES);
  }

  /** A task metric group whose operator group keeps what the operator registers. */
  private static final class InterceptingTaskMetrics
      extends UnregisteredMetricGroups.UnregisteredTaskMetricGroup {
    final InterceptingOperatorMetricGroup operator = new InterceptingOperatorMetricGroup();

    @Override
    public InternalOperatorMetricGroup getOrAddOperator(OperatorID id, String name,
        Map<String, String> variables) {
      return operator;
    }
  }

  @Test
  void deadLettersAreCountedByReason() throws Exception {
    InterceptingTaskMetrics metrics = new InterceptingTaskMetrics();
    MockEnvironment env = new MockEnvironmentBuilder().setMetricGroup(metrics).build();
    ParseAndValidate f = new ParseAndValidate();
    try (var h = new OneInputStreamOperatorTestHarness<RawRecord, SchedulerInput>(
        new ProcessOperator<>(f), env)) {
      h.setup();
      h.open();
      h.processElement(raw(Topics.JOB_ARRIVALS.name(), utf8(POOL), new byte[] {7}), 1);
      h.processElement(raw(Topics.JOB_ARRIVALS.name(), utf8(POOL), hugeStringRecord()), 2);
      h.processElement(raw(Topics.JOB_ARRIVALS.name(), utf8(POOL),
          Topics.JOB_ARRIVALS.value(job(POOL, "j".repeat(257)).build())), 3);
      h.processElement(raw(Topics.JOB_ARRIVALS.name(), utf8(POOL),
          Topics.JOB_ARRIVALS.value(job(POOL, "ok").build())), 4);

      assertThat(f.validInputs()).isEqualTo(1);
      assertThat(f.deadLetters(DeadLetterCodes.CORRUPT)).isEqualTo(2);
      assertThat(f.deadLetters(DeadLetterCodes.TOO_LARGE)).isEqualTo(1);
      for (String code : DeadLetterCodes.ALL) { // registered (as 0) before they happen
        long expected = code.equals(DeadLetterCodes.CORRUPT) ? 2
            : code.equals(DeadLetterCodes.TOO_LARGE) ? 1 : 0;
        assertThat(f.deadLetters(code)).as(code).isEqualTo(expected);
      }
      // the names under the locus group are checked as Prometheus series by MetricsScrapeTest
      assertThat(metrics.operator.get("deadLetters")).as("no flat total any more").isNull();
    }
  }
}
