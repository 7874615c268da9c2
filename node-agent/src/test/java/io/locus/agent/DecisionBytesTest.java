package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.Topics;
import io.locus.schemas.Decision;
import io.locus.schemas.EvictFiles;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.SchemaNormalization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class DecisionBytesTest {
  private static final Decision OK = Decision.newBuilder().setDecisionId("d1").setEpoch(1)
      .setPool("p").setNode("n").setTimeMs(0)
      .setAction(EvictFiles.newBuilder().setFiles(List.of("a", "b")).setReason("r").build())
      .setInstanceId("i").setSignature("s").build();

  private static byte[] header(long declaredLength) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(0xC3);
    b.write(0x01);
    long fp = SchemaNormalization.parsingFingerprint64(Decision.getClassSchema());
    for (int i = 0; i < 8; i++) {
      b.write((int) (fp >>> (8 * i)) & 0xff);
    }
    long zz = (declaredLength << 1) ^ (declaredLength >> 63);
    while ((zz & ~0x7fL) != 0) {
      b.write((int) ((zz & 0x7f) | 0x80));
      zz >>>= 7;
    }
    b.write((int) zz);
    b.writeBytes(new byte[] {1, 2, 3});
    return b.toByteArray();
  }

  @Test
  void aValidDecisionPasses() {
    assertThat(DecisionBytes.problem(Topics.DECISIONS.value(OK))).isNull();
  }

  @Test
  void aDeclaredLengthBeyondTheRecordIsRefusedBeforeDecoding() {
    byte[] twoGb = header(2_147_483_000L);
    assertThat(twoGb).hasSizeLessThan(20);
    assertThat(DecisionBytes.problem(twoGb)).contains("2147483000 bytes").contains("left");
    assertThat(DecisionBytes.problem(header(-5))).contains("-5 bytes");
    // Every truncation of a valid record is caught too.
    byte[] ok = Topics.DECISIONS.value(OK);
    for (int n = 11; n < ok.length; n++) {
      assertThat(DecisionBytes.problem(Arrays.copyOf(ok, n))).as("first %d bytes", n).isNotNull();
    }
  }

  @Test
  void recordsOverOneMebibyteAndNullsAreRefused() {
    assertThat(DecisionBytes.problem(new byte[DecisionBytes.MAX_RECORD_BYTES + 1]))
        .contains("over the limit");
    assertThat(DecisionBytes.problem(null)).isEqualTo("no value");
    // Another schema (or garbage): left to the codec.
    assertThat(DecisionBytes.problem("garbage".getBytes())).isNull();
  }
}
