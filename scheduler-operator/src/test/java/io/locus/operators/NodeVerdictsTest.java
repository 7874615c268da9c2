package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.Decision;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.NodeStatus;
import io.locus.schemas.NodeStatusType;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler's verdicts about nodes (node-status), through the operator in Flink's test
 * harness on RocksDB: a registration accepted or refused (and to whom), a LEAVE, a drain by
 * control or by the agent, a lost node; and the same verdicts after a snapshot and restore.
 */
@Timeout(60)
class NodeVerdictsTest {
  private static final String POOL = "pool-a";
  private static final long TIMEOUT = SchedulerConfig.DEFAULT_NODE_TIMEOUT_MS;

  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;

  private void open(SchedulerConfig config, OperatorSubtaskState from) throws Exception {
    harness = OperatorHarness.open(new SchedulerOperator(config), from);
  }

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private static SchedulerInput in(String pool, Object event) {
    return SchedulerInput.newBuilder().setPool(pool).setEvent(event).build();
  }

  private static NodeReport.Builder report(String node, NodeReportType type, long t,
      String instance) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(type).setTimeMs(t)
        .setInstanceId(instance);
  }

  private static NodeReport register(String node, long t, String instance) {
    return report(node, NodeReportType.REGISTER, t, instance).setSlots(2)
        .setCacheCapacityBytes(1_000_000_000L).build();
  }

  private static Control control(ControlType type, String node, String requestId, long t) {
    return Control.newBuilder().setPool(POOL).setType(type).setNode(node).setTimeMs(t)
        .setRequestId(requestId).build();
  }

  private void send(Object event, long t) throws Exception {
    harness.processElement(in(POOL, event), t);
  }

  private List<NodeStatus> verdicts() {
    List<NodeStatus> out = new ArrayList<>();
    var q = harness.getSideOutput(SchedulerOperator.NODE_STATUS);
    if (q != null) {
      q.forEach(r -> out.add(r.getValue()));
      q.clear();
    }
    return out;
  }

  private static String shown(NodeStatus s) {
    return s.getNode() + " " + s.getState() + " " + s.getInstanceId();
  }

  @Test
  void anImpostorIsRefusedByNameAndTheOwnerStaysRegisteredThroughItsLeave() throws Exception {
    open(SchedulerConfig.defaults("FA"), null);
    send(register("n1", 1000, "real"), 1000);
    List<NodeStatus> v = verdicts();
    assertThat(v).extracting(NodeVerdictsTest::shown).containsExactly("n1 REGISTERED real");
    assertThat(v.get(0).getSlots()).isEqualTo(2);
    assertThat(v.get(0).getTimeMs()).as("the record clock").isEqualTo(1000);
    assertThat(v.get(0).getRegistration()).as("a REGISTER accepted").isTrue();

    send(register("n1", 2000, "copy"), 2000);
    v = verdicts();
    // the refusal is addressed to the impostor; the node's own verdict follows it, so the
    // compacted topic keeps the owner as the latest record of pool-a/n1
    assertThat(v).extracting(NodeVerdictsTest::shown)
        .containsExactly("n1 REFUSED copy", "n1 REGISTERED real");
    assertThat(v.get(0).getCode()).isEqualTo(DeadLetterCodes.FORGED);
    assertThat(v.get(0).getReason()).contains("owned by live agent instance 'real'");
    assertThat(v.get(1).getRegistration()).as("the owner's verdict repeated").isFalse();

    // the impostor's LEAVE is refused (a dead letter) and changes no verdict
    send(report("n1", NodeReportType.LEAVE, 3000, "copy").build(), 3000);
    assertThat(verdicts()).isEmpty();
    send(report("n1", NodeReportType.HEARTBEAT, 4000, "real").build(), 4000);
    assertThat(verdicts()).as("a heartbeat is not news").isEmpty();

    send(report("n1", NodeReportType.LEAVE, 5000, "real").build(), 5000);
    assertThat(verdicts()).extracting(NodeVerdictsTest::shown).containsExactly("n1 LEFT real");
  }

  @Test
  void drainsByControlAndByTheAgentAreVerdicts() throws Exception {
    open(SchedulerConfig.defaults("FA"), null);
    send(register("n1", 1000, "i1"), 1000);
    verdicts();
    send(control(ControlType.DRAIN_NODE, "n1", "d-1", 1100), 1100);
    List<NodeStatus> v = verdicts();
    assertThat(v).extracting(NodeVerdictsTest::shown).containsExactly("n1 DRAINING i1");
    assertThat(v.get(0).getReason()).contains("d-1");
    send(control(ControlType.RESUME_NODE, "n1", "r-1", 1200), 1200);
    v = verdicts();
    assertThat(v).extracting(NodeVerdictsTest::shown).containsExactly("n1 REGISTERED i1");
    assertThat(v.get(0).getRegistration()).as("a resume is no registration").isFalse();
    // a drain of a node the pool does not have is refused, and is no verdict
    send(control(ControlType.DRAIN_NODE, "ghost", "d-2", 1300), 1300);
    assertThat(verdicts()).isEmpty();
    // an agent that drains itself (its heartbeat says so)
    send(report("n1", NodeReportType.HEARTBEAT, 1400, "i1").setDraining(true).build(), 1400);
    assertThat(verdicts()).extracting(NodeVerdictsTest::shown)
        .containsExactly("n1 DRAINING i1");
    send(report("n1", NodeReportType.HEARTBEAT, 1500, "i1").setDraining(true).build(), 1500);
    assertThat(verdicts()).as("still draining: no news").isEmpty();
  }

  @Test
  void aSilentNodeIsLost() throws Exception {
    open(SchedulerConfig.defaults("FA"), null);
    send(register("n1", 1000, "i1"), 1000);
    send(register("n2", 1000, "i2"), 1000);
    send(report("n2", NodeReportType.HEARTBEAT, 2000, "i2").build(), 2000);
    verdicts();
    send(report("n2", NodeReportType.HEARTBEAT, 1001 + TIMEOUT, "i2").build(), 1001 + TIMEOUT);
    List<NodeStatus> v = verdicts();
    assertThat(v).extracting(NodeVerdictsTest::shown).containsExactly("n1 LOST i1");
    assertThat(v.get(0).getReason()).contains("not heard from since 1000 ms");
  }

  @Test
  void aRegistrationForAnUndeclaredPoolIsRefused() throws Exception {
    open(SchedulerConfig.defaults("FA").withPools(Set.of(POOL)), null);
    harness.processElement(in("elsewhere", NodeReport.newBuilder().setPool("elsewhere")
        .setNode("n1").setType(NodeReportType.REGISTER).setTimeMs(7).setSlots(1)
        .setInstanceId("i1").build()), 7);
    List<NodeStatus> v = verdicts();
    assertThat(v).extracting(NodeStatus::getPool, NodeVerdictsTest::shown)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("elsewhere", "n1 REFUSED i1"));
    assertThat(v.get(0).getCode()).isEqualTo(DeadLetterCodes.UNKNOWN_POOL);
  }

  @Test
  void aReplayAfterARestoreMakesTheSameVerdicts() throws Exception {
    List<Object> inputs = List.of(register("n1", 1000, "real"), register("n2", 1000, "other"),
        register("n1", 2000, "copy"), control(ControlType.DRAIN_NODE, "n2", "d", 2100),
        report("n1", NodeReportType.LEAVE, 3000, "copy").build(),
        report("n2", NodeReportType.HEARTBEAT, 3500, "other").build(),
        report("n2", NodeReportType.HEARTBEAT, 2000 + TIMEOUT, "other").build(),
        report("n2", NodeReportType.LEAVE, 2001 + TIMEOUT, "other").build());
    open(SchedulerConfig.defaults("FA"), null);
    List<String> straight = new ArrayList<>();
    OperatorSubtaskState snap = null;
    for (int i = 0; i < inputs.size(); i++) {
      send(inputs.get(i), i);
      verdicts().forEach(s -> straight.add(shown(s) + " " + s.getTimeMs() + " " + s.getReason()));
      if (i == 2) {
        snap = harness.snapshot(1, i);
      }
    }
    assertThat(straight).extracting(s -> s.substring(0, s.indexOf(' ', s.indexOf(' ') + 1)))
        .containsExactly("n1 REGISTERED", "n2 REGISTERED", "n1 REFUSED", "n1 REGISTERED",
            "n2 DRAINING", "n1 LOST", "n2 LEFT");
    harness.close();
    open(SchedulerConfig.defaults("FA"), snap);
    List<String> replayed = new ArrayList<>();
    for (int i = 3; i < inputs.size(); i++) {
      send(inputs.get(i), i);
      verdicts().forEach(s -> replayed.add(shown(s) + " " + s.getTimeMs() + " " + s.getReason()));
    }
    assertThat(replayed).isEqualTo(straight.subList(4, straight.size()));
  }
}
