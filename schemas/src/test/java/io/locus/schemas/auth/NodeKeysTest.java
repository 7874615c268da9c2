package io.locus.schemas.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NodeKeysTest {
  @Test
  void eachNodeHasItsOwnKeyAndOnlyItVerifies() {
    NodeKeys keys = new NodeKeys("cluster secret".getBytes(StandardCharsets.UTF_8));
    assertThat(keys.key("n1")).isEqualTo(keys.key("n1")).isNotEqualTo(keys.key("n2"));
    assertThat(keys.key("n1")).isNotEqualTo(
        new NodeKeys("other".getBytes(StandardCharsets.UTF_8)).key("n1"));
    NodeReport r = NodeReport.newBuilder().setPool("p").setNode("n1")
        .setType(NodeReportType.HEARTBEAT).setTimeMs(1).build();
    NodeReport signed = keys.signer("n1").sign(r);
    assertThat(keys.signer("n1").verify(signed)).isTrue();
    assertThat(keys.signer("n2").verify(signed)).as("another node's key").isFalse();
    assertThat(new RecordSigner(keys.key("n1")).verify(signed)).isTrue();
  }
}
