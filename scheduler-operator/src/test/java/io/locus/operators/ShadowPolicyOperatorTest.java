package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.shadow.ShadowScore;
import io.locus.schemas.CachedFile;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.ShadowDecision;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shadow policies in the scheduler operator (Flink's harness, RocksDB): they see the pool's
 * accepted inputs, emit would-be placements with scores to their side output and the metrics,
 * never change a real decision, and start afresh from the real pool after a restore.
 */
@Timeout(60)
class ShadowPolicyOperatorTest {
  private static final String POOL = "p";
  private static final long MB = 1_000_000L;
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;
  private SchedulerOperator operator;

  private void open(SchedulerConfig config, OperatorSubtaskState restoreFrom) throws Exception {
    operator = new SchedulerOperator(config);
    harness = OperatorHarness.open(operator, restoreFrom);
    harness.setProcessingTime(0);
  }

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private static SchedulerConfig config(boolean shadows) {
    SchedulerConfig c = new SchedulerConfig(new SchedulerConfig.PolicySpec("MCH", Map.of()),
        Map.of(), 1000, 3);
    return shadows ? c.withShadows(Map.of(POOL, List.of(
        new SchedulerConfig.PolicySpec("FA", Map.of()),
        new SchedulerConfig.PolicySpec("MCH", Map.of())))) : c; // MCH again: run once
  }

  private void send(Object event, long t) throws Exception {
    harness.processElement(new StreamRecord<>(
        SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build(), t));
  }

  private static NodeReport register(String node, long t, String cached) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(1).setCacheCapacityBytes(1000 * MB).setSeq(1)
        .setAdded(List.of(new CachedFile(cached, 100 * MB))).build();
  }

  private static JobSubmitted job(String id, String file, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId(file).setBytes(100 * MB).build()))
        .setComputeSeconds(1.0).build();
  }

  private static TaskEvent completed(String task, String node, long t) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task).setAttempt(0)
        .setNode(node).setType(TaskEventType.COMPLETED).setTimeMs(t).setStartTimeMs(t - 1500)
        .setEndTimeMs(t).setBytesLocal(100 * MB)
        .setDecisionId(POOL + "/" + task + "/0").build();
  }

  /** The same inputs for every run: two nodes caching f1 and f2, four jobs, two completions. */
  private void workload() throws Exception {
    send(register("n1", 1_000, "f1"), 1_000);
    send(register("n2", 1_001, "f2"), 1_001);
    send(job("a", "f2", 2_000), 2_000);
    send(job("b", "f1", 2_001), 2_001);
    send(job("c", "f1", 2_002), 2_002);
    send(job("d", "f2", 2_003), 2_003);
    send(completed("a", "n2", 4_000), 4_000);
    send(completed("b", "n1", 4_001), 4_001);
  }

  private List<String> realDecisions() {
    List<String> out = new ArrayList<>();
    for (Decision d : harness.extractOutputValues()) {
      out.add(d.getDecisionId() + "@" + d.getNode() + ":" + d.getAction());
    }
    return out;
  }

  private List<ShadowDecision> shadows() {
    List<ShadowDecision> out = new ArrayList<>();
    var q = harness.getSideOutput(SchedulerOperator.SHADOW_DECISIONS);
    if (q != null) {
      q.forEach(r -> out.add(r.getValue()));
      q.clear();
    }
    return out;
  }

  @Test
  void shadowsScoreTheirOwnPlacementsAndNeverChangeARealDecision() throws Exception {
    open(config(false), null);
    workload();
    List<String> without = realDecisions();
    assertThat(shadows()).isEmpty();
    close();

    open(config(true), null);
    workload();
    assertThat(realDecisions()).isEqualTo(without);
    List<ShadowDecision> s = shadows();
    assertThat(s).extracting(ShadowDecision::getPolicy).containsOnly("MCH", "FA");
    assertThat(s).allMatch(d -> d.getActive() == d.getPolicy().equals("MCH"));
    assertThat(s).allMatch(d -> d.getEpoch() == 1);

    // MCH's shadow puts a reader of f1 on n1, where f1 is cached: all its bytes local
    ShadowDecision b = s.stream().filter(d -> d.getPolicy().equals("MCH")
        && d.getTaskId().equals("b")).findFirst().orElseThrow();
    assertThat(b.getNode()).isEqualTo("n1");
    assertThat(b.getLocalBytes()).isEqualTo(100 * MB);
    assertThat(b.getPredictedEndMs()).isGreaterThan(b.getPredictedStartMs());
    // FA reads from storage and never caches: every byte it places is moved
    assertThat(s.stream().filter(d -> d.getPolicy().equals("FA")))
        .allMatch(d -> d.getLocalBytes() == 0 && d.getStorageBytes() == 100 * MB);

    ShadowScore fa = operator.shadowMetricsOrNull(POOL).latest("FA");
    ShadowScore mch = operator.shadowMetricsOrNull(POOL).latest("MCH");
    assertThat(fa.placed()).isGreaterThanOrEqualTo(2);
    assertThat(fa.bytesToMove()).isEqualTo(fa.placed() * 100 * MB);
    assertThat(mch.bytesToMove()).isLessThan(fa.bytesToMove());
  }

  @Test
  void afterARestoreShadowsStartAgainFromTheRealPoolInTheNewEpoch() throws Exception {
    open(config(true), null);
    send(register("n1", 1_000, "f1"), 1_000);
    send(job("a", "f1", 2_000), 2_000);
    send(job("b", "f1", 2_001), 2_001); // queued behind a on the pool's only slot
    shadows();
    OperatorSubtaskState snap = harness.snapshot(1, 3);
    close();

    open(config(true), snap);
    // the first input after the restore rebuilds the pool: the shadows start from its queue (b)
    send(NodeReport.newBuilder().setPool(POOL).setNode("n2").setType(NodeReportType.REGISTER)
        .setTimeMs(3_000).setSlots(1).setCacheCapacityBytes(1000 * MB).build(), 3_000);
    List<ShadowDecision> s = shadows();
    assertThat(s).isNotEmpty().allMatch(d -> d.getEpoch() == 2);
    assertThat(s).filteredOn(d -> d.getPolicy().equals("FA"))
        .extracting(ShadowDecision::getTaskId).contains("b");
  }
}
