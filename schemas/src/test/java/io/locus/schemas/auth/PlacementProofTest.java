package io.locus.schemas.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class PlacementProofTest {
  private static final byte[] CLUSTER = "cluster secret".getBytes(StandardCharsets.UTF_8);
  private final PlacementProof proofs = new PlacementProof(CLUSTER);

  @Test
  void aProofIsTheHmacOfItsFieldsUnderAKeyDerivedFromTheClusterSecret() throws Exception {
    // Computed here without PlacementProof: the format is what other implementations must match.
    Mac derive = Mac.getInstance("HmacSHA256");
    derive.init(new SecretKeySpec(CLUSTER, "HmacSHA256"));
    byte[] key = derive.doFinal("locus-placement-proof/v1".getBytes(StandardCharsets.UTF_8));
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    ByteBuffer msg = ByteBuffer.allocate(4 + 6 + 4 + 2 + 4 + 2 + 4);
    for (String s : new String[] {"p/t1/2", "n1", "t1"}) {
      msg.putInt(s.length()).put(s.getBytes(StandardCharsets.UTF_8));
    }
    msg.putInt(2);
    String expected = HexFormat.of().formatHex(mac.doFinal(msg.array()));

    String proof = proofs.proof("p/t1/2", "n1", "t1", 2);
    assertThat(proof).isEqualTo(expected).hasSize(PlacementProof.LENGTH).matches("[0-9a-f]{64}");
    assertThat(proofs.verify(proof, "p/t1/2", "n1", "t1", 2)).isTrue();
  }

  @Test
  void aProofBindsItsNodeTaskAttemptDecisionAndCluster() {
    String proof = proofs.proof("p/t1/0", "n1", "t1", 0);
    assertThat(proofs.verify(proof, "p/t1/0", "n2", "t1", 0)).as("another node").isFalse();
    assertThat(proofs.verify(proof, "p/t2/0", "n1", "t2", 0)).as("another task").isFalse();
    assertThat(proofs.verify(proof, "p/t1/1", "n1", "t1", 1)).as("another attempt").isFalse();
    assertThat(proofs.verify(proof, "q/t1/0", "n1", "t1", 0)).as("another pool").isFalse();
    assertThat(new PlacementProof("other".getBytes(StandardCharsets.UTF_8))
        .verify(proof, "p/t1/0", "n1", "t1", 0)).as("another cluster").isFalse();
    // the same attempt placed on two nodes (after a restore): one proof each, both valid
    String other = proofs.proof("p/t1/0", "n2", "t1", 0);
    assertThat(other).isNotEqualTo(proof);
    assertThat(proofs.verify(other, "p/t1/0", "n2", "t1", 0)).isTrue();
  }

  @Test
  void fieldsCannotBeShiftedFromOneToAnother() {
    assertThat(proofs.proof("p/a/0", "n|x", "a", 0))
        .isNotEqualTo(proofs.proof("p/a/0", "n", "|xa", 0));
    assertThat(proofs.proof("p/ab/0", "n", "ab", 0))
        .isNotEqualTo(proofs.proof("p/ab/0n", "", "ab", 0));
  }

  @Test
  void missingOrMalformedProofsDoNotVerify() {
    String proof = proofs.proof("p/t/0", "n", "t", 0);
    assertThat(proofs.verify(null, "p/t/0", "n", "t", 0)).isFalse();
    assertThat(proofs.verify("", "p/t/0", "n", "t", 0)).isFalse();
    assertThat(proofs.verify(proof.substring(1), "p/t/0", "n", "t", 0)).isFalse();
    assertThat(proofs.verify(proof + "0", "p/t/0", "n", "t", 0)).isFalse();
    assertThat(proofs.verify("z".repeat(64), "p/t/0", "n", "t", 0)).isFalse();
    char flipped = proof.charAt(0) == '0' ? '1' : '0';
    assertThat(proofs.verify(flipped + proof.substring(1), "p/t/0", "n", "t", 0)).isFalse();
  }

  @Test
  void noNodeKeyIsThePlacementKey() {
    // An agent holds its node key: were it the placement key, that node could prove anything.
    NodeKeys keys = new NodeKeys(CLUSTER);
    String proof = proofs.proof("p/t/0", "n", "t", 0);
    for (String node : new String[] {"n", "locus-placement-proof/v1", "/v1"}) {
      String byNodeKey = HexFormat.of().formatHex(new RecordSigner(keys.key(node)).mac(
          ByteBuffer.allocate(4 + 5 + 4 + 1 + 4 + 1 + 4).putInt(5).put(bytes("p/t/0")).putInt(1)
              .put(bytes("n")).putInt(1).put(bytes("t")).putInt(0).array()));
      assertThat(byNodeKey).as("node key of '%s'", node).isNotEqualTo(proof);
    }
    assertThat(proofs.toString()).doesNotContain("cluster");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
