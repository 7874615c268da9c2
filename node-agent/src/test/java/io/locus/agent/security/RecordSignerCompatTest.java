package io.locus.agent.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.kafka.Topics;
import io.locus.schemas.auth.RecordSigner;
import io.locus.schemas.auth.Secrets;
import io.locus.schemas.Decision;
import io.locus.schemas.EvictFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class RecordSignerCompatTest {
  private static Decision decision(String id, long epoch) {
    return Decision.newBuilder().setDecisionId(id).setEpoch(epoch).setPool("p").setNode("n")
        .setTimeMs(123).setAction(EvictFiles.newBuilder().setFiles(List.of("a", "b")).build())
        .build();
  }

  @Test
  void aSignedDecisionVerifiesAlsoAfterATripThroughKafkasEncoding() {
    RecordSigner s = RecordSigner.of("secret");
    Decision signed = s.sign(decision("d1", 3));
    assertThat(signed.getSignature()).matches("[0-9a-f]{64}");
    Decision decoded = Topics.DECISIONS.decode(Topics.DECISIONS.value(signed));
    assertThat(s.verify(decoded)).isTrue();
    // The signature field itself is not signed: re-signing gives the same value.
    assertThat(s.signature(signed)).isEqualTo(signed.getSignature());
    assertThat(s.verify(Decision.newBuilder(signed)
        .setSignature(signed.getSignature().toUpperCase()).build())).isTrue();
  }

  @Test
  void anyChangeOrAnotherSecretBreaksTheSignature() {
    RecordSigner s = RecordSigner.of("secret");
    Decision signed = s.sign(decision("d1", 3));
    assertThat(s.verify(Decision.newBuilder(signed).setEpoch(4).build())).isFalse();
    assertThat(s.verify(Decision.newBuilder(signed).setNode("m").build())).isFalse();
    assertThat(s.verify(Decision.newBuilder(signed)
        .setAction(EvictFiles.newBuilder().setFiles(List.of("a")).build()).build())).isFalse();
    assertThat(RecordSigner.of("other").verify(signed)).isFalse();
    assertThat(s.verify(decision("d1", 3))).as("unsigned").isFalse();
    assertThat(s.verify(Decision.newBuilder(signed).setSignature("zz").build())).isFalse();
    assertThat(s.verify(Decision.newBuilder(signed).setSignature("g".repeat(64)).build()))
        .isFalse();
  }

  @Test
  void theCanonicalBytesAreTheAvroBinaryEncodingWithoutTheSignature() {
    // A known answer, so another implementation (the scheduler's, another language) can check
    // itself: HmacSHA256("secret", avro-binary(decision with signature null)).
    Decision d = decision("d1", 3);
    byte[] canonical = RecordSigner.canonicalBytes(d);
    assertThat(canonical).isEqualTo(RecordSigner.canonicalBytes(
        Decision.newBuilder(d).setSignature("anything").build()));
    assertThat(HexFormat.of().formatHex(canonical))
        .isEqualTo("046431" + "06" + "0270" + "026e" + "f601" + "02" + "04" + "0261" + "0262"
            + "00" + "00" + "00" + "00");
    // Computed independently (Python's hmac module over the bytes above).
    assertThat(RecordSigner.of("secret").signature(d))
        .isEqualTo("59a36dc96678b6c6f54ce3132ae70f3f594c8525093955c849de3d1c77abf4c4");
  }

  @Test
  void secretsAreReadWithoutTheTrailingNewline(@TempDir Path tmp) throws Exception {
    Path f = Files.writeString(tmp.resolve("secret"), "s3cret\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
    assertThat(RecordSigner.of("s3cret").signature(decision("x", 1)))
        .isEqualTo(new RecordSigner(Secrets.read(f)).signature(decision("x", 1)));
    Path empty = Files.writeString(tmp.resolve("empty"), "\n");
    assertThatThrownBy(() -> Secrets.read(empty)).hasMessageContaining("is empty");
    assertThat(RecordSigner.of("s3cret").toString()).doesNotContain("s3cret");
  }
}
