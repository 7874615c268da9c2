package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CachedFile;
import io.locus.schemas.CancelTask;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.QueueConfig;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler-wide queue settings ({@code locus run --max-locality-wait}, {@code
 * --preemption-grace}) reach every file pool's scheduler in Flink's harness on RocksDB: a grace
 * given is the grace sent, {@code off} (NaN) sends no preemption where the default sends two, a
 * longer max locality wait holds a head that PT0S places at once, and a restore takes the
 * settings from the configuration it is opened with (they are configuration, not state).
 */
@Timeout(60)
class QueueSettingsOperatorTest {
  private static final String POOL = "p";
  private static final long MB = 1_000_000L;
  private final List<KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision>>
      opened = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (var h : opened) {
      h.close();
    }
  }

  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> open(
      SchedulerConfig config, OperatorSubtaskState from) throws Exception {
    var h = OperatorHarness.open(config, from);
    h.setProcessingTime(0);
    opened.add(h);
    return h;
  }

  private static void send(KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision>
      h, Object event, long t) throws Exception {
    h.processElement(new StreamRecord<>(
        SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build(), t));
  }

  private static List<Decision> decisions(
      KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> h) {
    List<Decision> out = new ArrayList<>(h.extractOutputValues());
    h.getOutput().clear();
    return out;
  }

  private static List<CancelTask> preemptions(List<Decision> ds) {
    return ds.stream().filter(d -> d.getAction() instanceof CancelTask c && c.getPreempt())
        .map(d -> (CancelTask) d.getAction()).toList();
  }

  private static List<String> placements(List<Decision> ds) {
    return ds.stream().filter(d -> d.getAction() instanceof PlaceTask)
        .map(d -> d.getNode() + "<-" + ((PlaceTask) d.getAction()).getTaskId()).toList();
  }

  private static Control queues(QueueConfig... qs) {
    return Control.newBuilder().setPool(POOL).setType(ControlType.SET_QUEUES).setTimeMs(1)
        .setRequestId("q").setQueues(List.of(qs)).build();
  }

  private static QueueConfig queue(String name, int guaranteed) {
    return QueueConfig.newBuilder().setName(name).setWeight(1).setGuaranteedSlots(guaranteed)
        .build();
  }

  private static NodeReport register(String node, int slots, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(slots).setCacheCapacityBytes(1000 * MB).build();
  }

  private static NodeReport heartbeat(String node, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.HEARTBEAT)
        .setTimeMs(t).build();
  }

  private static JobSubmitted job(String id, String queue, String file, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId(file).setBytes(10 * MB).build()))
        .setComputeSeconds(1000.0).setQueue(queue).build();
  }

  private static TaskEvent started(String task, String node, long t) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task).setAttempt(0)
        .setNode(node).setType(TaskEventType.STARTED).setTimeMs(t)
        .setDecisionId(POOL + "/" + task + "/0").build();
  }

  /**
   * Queue a fills both nodes' 4 slots, then b (guaranteed 2) submits two jobs at 1 s: the case in
   * which the default preempts two of a's tasks. Returns the decisions after b's arrival.
   */
  private static List<Decision> aFillsThePoolAndBArrives(
      KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> h)
      throws Exception {
    send(h, queues(queue("a", 2), queue("b", 2)), 1);
    send(h, register("n1", 2, 2), 2);
    send(h, register("n2", 2, 3), 3);
    for (int i = 0; i < 4; i++) {
      send(h, job("a" + i, "a", "f-a" + i, 10 + i), 10 + i);
    }
    List<Decision> placed = decisions(h);
    assertThat(placements(placed)).hasSize(4);
    for (Decision d : placed) {
      send(h, started(((PlaceTask) d.getAction()).getTaskId(), d.getNode(), 20), 20);
    }
    send(h, job("b0", "b", "f-b0", 1000), 1000);
    send(h, job("b1", "b", "f-b1", 1001), 1001);
    return decisions(h);
  }

  @Test
  void theGraceGivenIsTheGraceSentAndOffSendsNoPreemptionWhereTheDefaultSendsTwo()
      throws Exception {
    var byDefault = open(SchedulerConfig.defaults("FA"), null);
    assertThat(preemptions(aFillsThePoolAndBArrives(byDefault))).hasSize(2)
        .allSatisfy(c -> assertThat(c.getGraceMs()).isEqualTo(30_000));

    var graced = open(SchedulerConfig.defaults("FA").withPreemptionGrace(5), null);
    assertThat(preemptions(aFillsThePoolAndBArrives(graced))).hasSize(2)
        .allSatisfy(c -> assertThat(c.getGraceMs()).isEqualTo(5_000));

    SchedulerConfig off = SchedulerConfig.defaults("FA").withPreemptionGrace(Double.NaN);
    var never = open(off, null);
    assertThat(aFillsThePoolAndBArrives(never)).as("b waits for a's tasks to end").isEmpty();
    send(never, heartbeat("n1", 5_000), 5_000);
    send(never, heartbeat("n2", 20_000), 20_000);
    assertThat(decisions(never)).isEmpty();

    // restored with the same options: still off; restored with the default: it preempts, so the
    // setting comes from the configuration the job is (re)started with, not from state
    OperatorSubtaskState snap = never.snapshot(1, 20_001);
    var stillOff = open(off, snap);
    send(stillOff, heartbeat("n1", 21_000), 21_000);
    assertThat(decisions(stillOff)).isEmpty();
    var nowOn = open(SchedulerConfig.defaults("FA"), snap);
    send(nowOn, heartbeat("n1", 21_000), 21_000);
    assertThat(preemptions(decisions(nowOn))).hasSize(2)
        .allSatisfy(c -> assertThat(c.getTaskId()).startsWith("a"));
  }

  /**
   * Under MCH with one queue, y's file is cached on n1, busy with x; n2 is free. PT0S places y on
   * n2 at once; PT10S holds it for n1 until 10 s after it was first held (its submission), then
   * places it on n2 at the first event past that.
   */
  private static List<String> headOnBusyHolder(
      KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> h)
      throws Exception {
    send(h, queues(queue("a", 1)), 1);
    send(h, register("n1", 1, 2), 2);
    send(h, register("n2", 1, 3), 3);
    send(h, NodeReport.newBuilder().setPool(POOL).setNode("n1")
        .setType(NodeReportType.CACHE_DELTA).setTimeMs(4).setSeq(1)
        .setAdded(List.of(new CachedFile("f", 10 * MB))).build(), 4);
    send(h, job("x", "a", "f", 10), 10);
    assertThat(placements(decisions(h))).containsExactly("n1<-x");
    send(h, started("x", "n1", 20), 20);
    send(h, job("y", "a", "f", 1_000), 1_000);
    return placements(decisions(h));
  }

  @Test
  void aLongerMaxLocalityWaitHoldsTheHeadThatPT0SPlacesAtOnce() throws Exception {
    SchedulerConfig mch = SchedulerConfig.defaults("MCH");
    var noWait = open(mch.withMaxLocalityWait(0), null);
    assertThat(headOnBusyHolder(noWait)).containsExactly("n2<-y");

    SchedulerConfig tenSeconds = mch.withMaxLocalityWait(10);
    var waits = open(tenSeconds, null);
    assertThat(headOnBusyHolder(waits)).as("held for n1").isEmpty();
    send(waits, heartbeat("n2", 5_000), 5_000);
    assertThat(placements(decisions(waits))).as("past the default 3 s, still held").isEmpty();

    // a restore with the same options holds it on to the same end
    OperatorSubtaskState snap = waits.snapshot(1, 5_001);
    var restored = open(tenSeconds, snap);
    for (var h : List.of(waits, restored)) {
      send(h, heartbeat("n2", 10_500), 10_500);
      assertThat(placements(decisions(h))).isEmpty();
      send(h, heartbeat("n2", 11_500), 11_500);
      assertThat(placements(decisions(h))).as("its wait ended at 11 s").containsExactly("n2<-y");
    }
  }
}
