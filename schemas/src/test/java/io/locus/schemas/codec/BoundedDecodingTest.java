package io.locus.schemas.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile length prefixes: hand-built records whose string, bytes, array or map declares far more
 * than the record holds. Each must fail fast with a precise reason and allocate almost nothing
 * (Avro's own decoder allocates what the prefix says: 2 GB for an 18-byte record).
 */
class BoundedDecodingTest {
  private static final long HUGE = 2_147_483_000L;
  /** Far below any of the declared sizes, far above what decoding a small record needs. */
  private static final long MAX_ALLOCATED = 1_000_000;

  /** Builds a record body by hand: Avro binary (zigzag varints, length-prefixed strings). */
  static final class Body {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    static Body of(AvroCodec<?> codec) {
      Body b = new Body();
      b.out.write(0xC3);
      b.out.write(0x01);
      long fp = SchemaNormalization.parsingFingerprint64(codec.schema());
      for (int i = 0; i < 8; i++) {
        b.out.write((int) (fp >>> (8 * i)) & 0xff);
      }
      return b;
    }

    Body varint(long v) {
      long z = (v << 1) ^ (v >> 63);
      while ((z & ~0x7FL) != 0) {
        out.write((int) ((z & 0x7F) | 0x80));
        z >>>= 7;
      }
      out.write((int) z);
      return this;
    }

    Body string(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      varint(b.length);
      out.writeBytes(b);
      return this;
    }

    Body raw(int... bytes) {
      for (int b : bytes) {
        out.write(b);
      }
      return this;
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }

  /** The issue's record: 18 bytes, a JobSubmitted whose jobId declares 2,147,483,000 bytes. */
  static byte[] hugeJobId() {
    return Body.of(Codecs.JOB_SUBMITTED).varint(HUGE).raw('a', 'b', 'c').bytes();
  }

  static Stream<Arguments> hostile() {
    return Stream.of(
        Arguments.of("string", Codecs.JOB_SUBMITTED, hugeJobId(),
            "declares a string of 2147483000 bytes but only 3 remain"),
        Arguments.of("negative string", Codecs.JOB_SUBMITTED,
            Body.of(Codecs.JOB_SUBMITTED).varint(-5).bytes(),
            "declares a string of negative length -5"),
        // DeadLetter: sourceTopic, partition, offset, then key = union branch 1 (bytes)
        Arguments.of("bytes", Codecs.DEAD_LETTER, Body.of(Codecs.DEAD_LETTER).string("t")
            .varint(0).varint(0).varint(1).varint(HUGE).raw(1, 2).bytes(),
            "declares a bytes value of 2147483000 bytes but only 2 remain"),
        // JobSubmitted: jobId, pool, submitTimeMs, then inputs = an array of HUGE items
        Arguments.of("array", Codecs.JOB_SUBMITTED, Body.of(Codecs.JOB_SUBMITTED).string("j")
            .string("p").varint(0).varint(HUGE).raw(1).bytes(),
            "declares an array of 2147483000 items but only 1 bytes remain"),
        // the same with Avro's block encoding: a negative count followed by the block's size
        Arguments.of("sized array block", Codecs.JOB_SUBMITTED, Body.of(Codecs.JOB_SUBMITTED)
            .string("j").string("p").varint(0).varint(-HUGE).varint(12).raw(1).bytes(),
            "declares an array of 2147483000 items but only 1 bytes remain"),
        // Control: pool, type, timeMs, policy = null branch, then params = a map of HUGE entries
        Arguments.of("map", Codecs.CONTROL, Body.of(Codecs.CONTROL).string("p").varint(0)
            .varint(0).varint(0).varint(HUGE).raw(2, 'k').bytes(),
            "declares a map of 2147483000 items but only 2 bytes remain"),
        // nested: one input whose id declares HUGE bytes (followed by as many bytes as the
        // smallest DataUnit takes, so Avro's own per-item minimum does not catch it first)
        Arguments.of("nested string", Codecs.JOB_SUBMITTED, Body.of(Codecs.JOB_SUBMITTED)
            .string("j").string("p").varint(0).varint(1).varint(HUGE)
            .raw(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16).bytes(),
            "declares a string of 2147483000 bytes but only 16 remain"),
        // nested: NodeReport.removed holds one string that declares HUGE bytes
        Arguments.of("nested array item", Codecs.NODE_REPORT, Body.of(Codecs.NODE_REPORT)
            .string("p").string("n").varint(0).varint(0).varint(0).varint(0).varint(0)
            .varint(0).varint(1).varint(HUGE).bytes(),
            "declares a string of 2147483000 bytes but only 0 remain"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostile")
  void aLengthBeyondTheRecordFailsFastWithoutAllocatingIt(String kind, AvroCodec<?> codec,
      byte[] bytes, String reason) {
    // warm up: class loading and the per-thread resolver are not the record's allocation
    decodeQuietly(codec, bytes);
    long before = allocatedBytes();
    SchemaException e = catchThrowableOfType(SchemaException.class, () -> codec.decode(bytes));
    long allocated = allocatedBytes() - before;

    assertThat(e).as(kind).isNotNull();
    assertThat(e.getMessage()).contains("corrupt " + codec.schema().getName() + " record ("
        + bytes.length + " bytes)").contains(reason);
    assertThat(e.code()).isEqualTo(DeadLetterCodes.CORRUPT);
    assertThat(allocated).as("bytes allocated decoding %s", kind).isLessThan(MAX_ALLOCATED);
  }

  @Test
  void theIssuesRecordIsEighteenBytes() {
    assertThat(hugeJobId()).hasSize(18);
  }

  @Test
  void aRecordLargerThanOneMebibyteIsRefusedBeforeDecoding() {
    JobSubmitted job = AvroCodecTest.job();
    job.setJobId("x".repeat(AvroCodec.MAX_RECORD_BYTES));
    byte[] bytes = Codecs.JOB_SUBMITTED.encode(job);
    assertThat(bytes.length).isGreaterThan(AvroCodec.MAX_RECORD_BYTES);

    assertThatThrownBy(() -> Codecs.JOB_SUBMITTED.decode(bytes))
        .isInstanceOf(SchemaException.class)
        .hasMessage("JobSubmitted record of " + bytes.length + " bytes is larger than the limit"
            + " of 1048576 bytes; not decoded")
        .extracting(t -> ((SchemaException) t).code()).isEqualTo(DeadLetterCodes.TOO_LARGE);
  }

  @Test
  void aRecordJustUnderTheLimitStillDecodes() {
    JobSubmitted job = AvroCodecTest.job();
    job.setJobId("x".repeat(AvroCodec.MAX_RECORD_BYTES - 200));
    byte[] bytes = Codecs.JOB_SUBMITTED.encode(job);
    assertThat(bytes.length).isLessThanOrEqualTo(AvroCodec.MAX_RECORD_BYTES);
    assertThat(Codecs.JOB_SUBMITTED.decode(bytes)).isEqualTo(job);
  }

  @Test
  void headerErrorsAreCorruptWithTheirReason() {
    SchemaException shortHeader = catchThrowableOfType(SchemaException.class,
        () -> Codecs.TASK_EVENT.decode(new byte[] {(byte) 0xC3, 0x01, 7}));
    assertThat(shortHeader.getMessage()).isEqualTo("not an Avro single-object encoded TaskEvent:"
        + " only 3 bytes, shorter than the 10-byte header");
    assertThat(shortHeader.code()).isEqualTo(DeadLetterCodes.CORRUPT);
    assertThatThrownBy(() -> Codecs.TASK_EVENT.decode("hello world".getBytes()))
        .hasMessage("not an Avro single-object encoded TaskEvent: starts with 0x68 0x65, not the"
            + " marker 0xc3 0x01");
    assertThat(catchThrowableOfType(SchemaException.class, () -> Codecs.TASK_EVENT.decode(null))
        .code()).isEqualTo(DeadLetterCodes.CORRUPT);
  }

  @Test
  void validRecordsWithEveryVariableLengthKindStillDecode() {
    List<SpecificRecord> records = List.of(
        Control.newBuilder().setPool("p").setType(ControlType.SET_POLICY).setTimeMs(1)
            .setPolicy("GCC").setParams(Map.of("theta", "0.8", "k", "")).build(),
        NodeReport.newBuilder().setPool("p").setNode("n").setType(NodeReportType.HEARTBEAT)
            .setTimeMs(1).setRemoved(List.of("a", "b")).build(),
        DeadLetter.newBuilder().setSourceTopic("t").setPartition(0).setOffset(0)
            .setKey(ByteBuffer.wrap(new byte[0])).setValue(ByteBuffer.wrap(new byte[] {1, 2}))
            .setReason("r").setTimeMs(0).build());
    assertThat(Codecs.CONTROL.decode(Codecs.CONTROL.encode((Control) records.get(0))))
        .isEqualTo(records.get(0));
    assertThat(Codecs.NODE_REPORT.decode(Codecs.NODE_REPORT.encode((NodeReport) records.get(1))))
        .isEqualTo(records.get(1));
    assertThat(Codecs.DEAD_LETTER.decode(Codecs.DEAD_LETTER.encode((DeadLetter) records.get(2))))
        .isEqualTo(records.get(2));
  }

  /**
   * Issue 22: a valid record followed by bytes was accepted (Avro's own decoder stops reading at
   * the record's end). Every record type now refuses them, with how many and where they start.
   */
  @ParameterizedTest
  @MethodSource("io.locus.schemas.codec.AvroCodecTest#records")
  @SuppressWarnings({"rawtypes", "unchecked"})
  void aRecordFollowedByTrailingBytesIsCorrupt(AvroCodec codec, SpecificRecord record) {
    byte[] valid = codec.encode(record);
    byte[] garbage = new byte[16];
    new java.util.Random(22).nextBytes(garbage);
    byte[] withGarbage = java.util.Arrays.copyOf(valid, valid.length + garbage.length);
    System.arraycopy(garbage, 0, withGarbage, valid.length, garbage.length);

    SchemaException e = catchThrowableOfType(SchemaException.class,
        () -> codec.decode(withGarbage));
    assertThat(e).isNotNull();
    assertThat(e.code()).isEqualTo(DeadLetterCodes.CORRUPT);
    assertThat(e.getMessage()).isEqualTo("corrupt " + codec.schema().getName() + " record ("
        + withGarbage.length + " bytes): 16 trailing bytes after the record, which ends after "
        + valid.length + " bytes");
    // One zero byte is enough to be refused; the record alone is still accepted.
    byte[] oneZero = java.util.Arrays.copyOf(valid, valid.length + 1);
    assertThat(catchThrowableOfType(SchemaException.class, () -> codec.decode(oneZero))
        .getMessage()).contains("1 trailing bytes after the record");
    assertThat(codec.decode(valid)).isEqualTo(record);
  }

  private static void decodeQuietly(AvroCodec<?> codec, byte[] bytes) {
    try {
      codec.decode(bytes);
    } catch (SchemaException expected) {
      // the warm-up fails like the measured call
    }
  }

  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }
}
