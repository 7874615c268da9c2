package io.locus.schemas.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.schemas.CancelTask;
import io.locus.schemas.Decision;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.JobSubmitted;
import org.junit.jupiter.api.Test;

class RecordSignerTest {
  private static TaskEvent event(String node) {
    return TaskEvent.newBuilder().setPool("p").setTaskId("t").setJobId("j").setAttempt(0)
        .setNode(node).setType(TaskEventType.COMPLETED).setDecisionId("p/t/0").setTimeMs(5)
        .build();
  }

  @Test
  void aSignedTaskEventVerifiesAndAnyChangeBreaksIt() {
    RecordSigner key = RecordSigner.of("node key");
    TaskEvent signed = key.sign(event("n1"));
    assertThat(signed.getSignature()).hasSize(RecordSigner.LENGTH);
    assertThat(key.verify(signed)).isTrue();
    assertThat(RecordSigner.of("other key").verify(signed)).isFalse();
    TaskEvent moved = TaskEvent.newBuilder(signed).setNode("n2").build();
    assertThat(key.verify(moved)).isFalse();
    assertThat(key.verify(event("n1"))).as("unsigned").isFalse();
    TaskEvent garbage = TaskEvent.newBuilder(signed).setSignature("z".repeat(64)).build();
    assertThat(key.verify(garbage)).isFalse();
  }

  @Test
  void signingLeavesTheOriginalUntouchedAndIgnoresAnOldSignature() {
    RecordSigner key = RecordSigner.of("k");
    NodeReport r = NodeReport.newBuilder().setPool("p").setNode("n").setType(NodeReportType.HEARTBEAT)
        .setTimeMs(1).setSignature("stale").build();
    NodeReport signed = key.sign(r);
    assertThat(r.getSignature()).isEqualTo("stale");
    assertThat(key.signature(r)).isEqualTo(signed.getSignature());
  }

  @Test
  void decisionsSignTheSameWayAsBefore() {
    Decision d = Decision.newBuilder().setDecisionId("p/cancel/1").setEpoch(3).setPool("p")
        .setNode("n").setTimeMs(9)
        .setAction(CancelTask.newBuilder().setTaskId("t").setAttempt(1).setReason("r").build())
        .build();
    RecordSigner key = RecordSigner.of("pool secret");
    assertThat(key.verify(key.sign(d))).isTrue();
    assertThat(key.toString()).doesNotContain("pool secret");
  }

  @Test
  void aRecordWithoutASignatureFieldCannotBeSigned() {
    JobSubmitted j = JobSubmitted.newBuilder().setJobId("j").setPool("p").setSubmitTimeMs(0)
        .setInputs(java.util.List.of()).build();
    assertThatThrownBy(() -> RecordSigner.canonicalBytes(j))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no signature field");
    assertThat(RecordSigner.of("k").verify(j)).isFalse();
  }
}
