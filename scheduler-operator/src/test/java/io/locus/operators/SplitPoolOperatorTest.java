package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.EventSegment;
import io.locus.schemas.FetchSource;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Split pools (CERN policies over event ranges) in the scheduler operator, on RocksDB: job
 * arrivals, registrations and the agents' acknowledgements in, PlaceTask / ShrinkTask /
 * SuspendTask out. The held-RUN protocol, a restore in the middle, and bad records.
 */
@Timeout(120)
class SplitPoolOperatorTest {
  private static final String POOL = "cern";
  private static final long T0 = 1_000_000L;
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;

  private static SchedulerConfig config(String policy, Map<String, String> params) {
    return new SchedulerConfig(new SchedulerConfig.PolicySpec("MCH", Map.of()),
        Map.of(POOL, new SchedulerConfig.PolicySpec(policy, params)), 1000, 3);
  }

  private static KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> open(
      SchedulerConfig cfg, OperatorSubtaskState from) throws Exception {
    // These agents send no heartbeats while their subjobs run (minutes of record clock): no
    // liveness timeout here (InputGateTest covers it).
    return OperatorHarness.open(cfg.withNodeTimeoutMs(Long.MAX_VALUE), from);
  }

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private static SchedulerInput in(Object event) {
    return SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build();
  }

  private static SchedulerInput register(String node, long t) {
    return in(NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(1).build());
  }

  private static SchedulerInput job(String id, String dataset, long start, long end, long t) {
    return in(JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of()).setSplittable(true).setTemplate("analyse").setArgs(List.of("-v"))
        .setEvents(new EventRange(dataset, start, end)).build());
  }

  private static SchedulerInput event(TaskEventType type, String task, int attempt, String node,
      String decision, long t, Long stopAt, long[] events) {
    TaskEvent.Builder b = TaskEvent.newBuilder().setPool(POOL).setTaskId(task)
        .setJobId(task.substring(0, task.indexOf('/'))).setAttempt(attempt).setNode(node)
        .setType(type).setDecisionId(decision).setTimeMs(t).setStopAt(stopAt);
    if (events != null) {
      b.setEvents(new EventRange("lhcb", events[0], events[1]));
    }
    return in(b.build());
  }

  private void send(SchedulerInput i) throws Exception {
    harness.processElement(i, 0);
  }

  private List<Decision> drain() {
    List<Decision> out = new ArrayList<>(harness.extractOutputValues());
    harness.getOutput().clear();
    return out;
  }

  private List<String> rejected() {
    List<String> out = new ArrayList<>();
    var q = harness.getSideOutput(SchedulerOperator.REJECTED);
    if (q != null) {
      for (StreamRecord<DeadLetter> r : q) {
        out.add(r.getValue().getReason());
      }
      q.clear();
    }
    return out;
  }

  private static final Map<String, String> OOO = Map.of("cacheEvents", "1000", "dataset", "lhcb");

  /**
   * Spec W6-style steal, through the operator: n1 runs [0,200) alone at 0.8 s/event; n2 registers
   * at 40 s and steals k = ⌊0.8·150 / 1.6⌋ = 75 tail events, so n1 is shrunk to 125. The tail's
   * placement is held until n1 acknowledges, and then starts where n1 said it stops (130, past the
   * requested end), not at 125.
   */
  @Test
  void aStolenTailIsPlacedOnlyAfterTheShrinkIsAcknowledgedAtTheAcknowledgedEnd() throws Exception {
    harness = open(config("out-of-order", OOO), null);
    send(register("n1", T0));
    send(job("j1", "lhcb", 0, 200, T0));
    List<Decision> first = drain();
    assertThat(first).hasSize(1);
    Decision d1 = first.get(0);
    assertThat(d1.getDecisionId()).isEqualTo("cern/j1/1/0");
    assertThat(d1.getNode()).isEqualTo("n1");
    PlaceTask p1 = (PlaceTask) d1.getAction();
    assertThat(p1.getTaskId()).isEqualTo("j1/1");
    assertThat(p1.getJobId()).isEqualTo("j1");
    assertThat(p1.getAttempt()).isZero();
    assertThat(p1.getInputs()).isEmpty();
    assertThat(p1.getTemplate()).isEqualTo("analyse");
    assertThat(p1.getArgs()).containsExactly("-v");
    assertThat(p1.getEvents()).isEqualTo(new EventRange("lhcb", 0L, 200L));
    assertThat(p1.getEventSegments()).containsExactly(
        new EventSegment(0L, 200L, FetchSource.STORAGE, null, 0.8));
    assertThat(p1.getComputeSeconds()).isCloseTo(160.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(p1.getReason().getPolicy()).isEqualTo("OUT_OF_ORDER");
    assertThat(p1.getReason().getStorageBytes()).isEqualTo(200 * 600_000L);

    send(register("n2", T0 + 40_000));
    List<Decision> steal = drain();
    assertThat(steal).as("only the shrink: the tail waits for its acknowledgement").hasSize(1);
    assertThat(steal.get(0).getDecisionId()).isEqualTo("cern/shrink/1");
    assertThat(steal.get(0).getNode()).isEqualTo("n1");
    assertThat(steal.get(0).getAction()).isEqualTo(new ShrinkTask("j1/1", "j1", 0, 125L));

    // A heartbeat and a stale answer change nothing meanwhile (the answer is a dead letter).
    // (A REGISTER of n1 would: nothing of the pool runs on a freshly registered node.)
    send(in(NodeReport.newBuilder().setPool(POOL).setNode("n2").setType(NodeReportType.HEARTBEAT)
        .setTimeMs(T0 + 40_500).build()));
    send(event(TaskEventType.COMPLETED, "j1/1", 3, "n1", "cern/j1/1/3", T0 + 40_700, null,
        new long[] {0, 200}));
    assertThat(drain()).isEmpty();
    assertThat(rejected()).singleElement().asString().contains("attempt 0 is the placed one");

    send(event(TaskEventType.SHRUNK, "j1/1", 0, "n1", "cern/shrink/1", T0 + 41_000, 130L, null));
    List<Decision> tail = drain();
    assertThat(tail).hasSize(1);
    assertThat(tail.get(0).getNode()).isEqualTo("n2");
    assertThat(tail.get(0).getDecisionId()).isEqualTo("cern/j1/2/0");
    assertThat(tail.get(0).getTimeMs()).isEqualTo(T0 + 41_000);
    PlaceTask p2 = (PlaceTask) tail.get(0).getAction();
    assertThat(p2.getEvents()).isEqualTo(new EventRange("lhcb", 130L, 200L));
    assertThat(p2.getEventSegments()).containsExactly(
        new EventSegment(130L, 200L, FetchSource.STORAGE, null, 0.8));

    send(event(TaskEventType.COMPLETED, "j1/1", 0, "n1", "cern/j1/1/0", T0 + 104_000, null,
        new long[] {0, 130}));
    send(event(TaskEventType.COMPLETED, "j1/2", 0, "n2", "cern/j1/2/0", T0 + 97_000, null,
        new long[] {130, 200}));
    assertThat(drain()).isEmpty();
    assertThat(rejected()).isEmpty();
    // the same completion again (at-least-once delivery) is harmless: a dead letter
    send(event(TaskEventType.COMPLETED, "j1/2", 0, "n2", "cern/j1/2/0", T0 + 104_100, null,
        new long[] {130, 200}));
    assertThat(drain()).isEmpty();
    assertThat(rejected()).singleElement().asString().contains("no such subjob");

    harness.setProcessingTime(1000);
    SchedulerMetrics m = harness.getSideOutput(SchedulerOperator.METRICS).peek().getValue();
    assertThat(m.getPolicy()).isEqualTo("OUT_OF_ORDER");
    assertThat(m.getRegisteredNodes()).isEqualTo(2);
    assertThat(m.getPlacements()).isEqualTo(2);
    assertThat(m.getCompletions()).isEqualTo(2);
    assertThat(m.getQueueLength()).isZero();
    assertThat(m.getRunningTasks()).isZero();
    assertThat(m.getBytesStorage()).isEqualTo(200 * 600_000L);
    assertThat(m.getBytesLocal()).isZero();

    // the finished job's id cannot come back
    send(job("j1", "lhcb", 0, 10, T0 + 105_000));
    assertThat(drain()).isEmpty();
    assertThat(rejected()).singleElement().asString()
        .contains("duplicate job id 'j1'", "retention window");
  }

  /**
   * The same subjob shrunk twice: a late duplicate of the first SHRUNK (decision cern/shrink/1)
   * arriving while the second shrink waits must not settle it; only the answer to cern/shrink/2
   * places the second tail, where that answer says.
   */
  @Test
  void anAnswerToAnEarlierShrinkDoesNotSettleTheNextOne() throws Exception {
    harness = open(config("OUT_OF_ORDER", OOO), null);
    send(register("n1", T0));
    send(job("j1", "lhcb", 0, 200, T0));
    send(register("n2", T0 + 40_000));
    send(event(TaskEventType.SHRUNK, "j1/1", 0, "n1", "cern/shrink/1", T0 + 41_000, 130L, null));
    assertThat(drain()).extracting(Decision::getDecisionId)
        .containsExactly("cern/j1/1/0", "cern/shrink/1", "cern/j1/2/0");
    // n3 at 50 s: n1 has 68 events (54 s) left, n2 59 (47.2 s): n3 steals
    // k = ⌊54 / (0.8 + 54/68)⌋ = 33 events of n1's subjob
    send(register("n3", T0 + 50_000));
    List<Decision> second = drain();
    assertThat(second).singleElement().extracting(Decision::getAction)
        .isEqualTo(new ShrinkTask("j1/1", "j1", 0, 97L));
    assertThat(second.get(0).getDecisionId()).isEqualTo("cern/shrink/2");
    send(event(TaskEventType.SHRUNK, "j1/1", 0, "n1", "cern/shrink/1", T0 + 50_100, 130L, null));
    assertThat(drain()).as("a duplicate of the first answer places nothing").isEmpty();
    assertThat(rejected()).singleElement().asString().contains("not the pending stop");
    send(event(TaskEventType.SHRUNK, "j1/1", 0, "n1", "cern/shrink/2", T0 + 50_200, 99L, null));
    List<Decision> tail = drain();
    assertThat(tail).singleElement().extracting(Decision::getNode).isEqualTo("n3");
    assertThat(((PlaceTask) tail.get(0).getAction()).getEvents())
        .isEqualTo(new EventRange("lhcb", 99L, 130L));
    assertThat(rejected()).isEmpty();
  }

  /**
   * A cached piece preempts an uncached (preemptible) subjob on its owner: SUSPEND, then the cached
   * piece runs there; the suspended remainder is placed after the SUSPENDED report, from where the
   * agent actually stopped (behind the model: 30 instead of 50).
   */
  @Test
  void aSuspendedRemainderRestartsWhereTheAgentStopped() throws Exception {
    harness = open(config("OUT_OF_ORDER", OOO), null);
    send(register("n1", T0));
    send(job("a", "lhcb", 0, 100, T0));
    PlaceTask a1 = (PlaceTask) drain().get(0).getAction();
    assertThat(a1.getEvents()).isEqualTo(new EventRange("lhcb", 0L, 100L));
    send(event(TaskEventType.COMPLETED, "a/1", 0, "n1", "cern/a/1/0", T0 + 80_000, null,
        new long[] {0, 100}));
    send(job("b", "lhcb", 500, 700, T0 + 81_000));
    assertThat(((PlaceTask) drain().get(0).getAction()).getTaskId()).isEqualTo("b/1");
    // at 40 s of b/1 (50 events at 0.8 s), job c reads [0,100), cached on n1: b/1 is preempted
    send(job("c", "lhcb", 0, 100, T0 + 121_000));
    List<Decision> ds = drain();
    assertThat(ds).hasSize(2);
    assertThat(ds.get(0).getDecisionId()).isEqualTo("cern/suspend/1");
    assertThat(ds.get(0).getAction()).isEqualTo(new SuspendTask("b/1", "b", 0));
    PlaceTask c1 = (PlaceTask) ds.get(1).getAction();
    assertThat(c1.getTaskId()).isEqualTo("c/1");
    assertThat(c1.getEventSegments()).containsExactly(
        new EventSegment(0L, 100L, FetchSource.LOCAL, null, 0.26));
    assertThat(c1.getReason().getLocalBytes()).isEqualTo(100 * 600_000L);
    send(event(TaskEventType.SUSPENDED, "b/1", 0, "n1", "cern/suspend/1", T0 + 121_100, 530L,
        new long[] {500, 530}));
    assertThat(drain()).as("n1 is busy with c/1; the remainder waits in Q_nc").isEmpty();
    send(event(TaskEventType.COMPLETED, "c/1", 0, "n1", "cern/c/1/0", T0 + 147_000, null,
        new long[] {0, 100}));
    List<Decision> rest = drain();
    assertThat(rest).hasSize(1);
    PlaceTask b2 = (PlaceTask) rest.get(0).getAction();
    assertThat(b2.getJobId()).isEqualTo("b");
    assertThat(b2.getEvents()).isEqualTo(new EventRange("lhcb", 530L, 700L));
    assertThat(rejected()).isEmpty();
  }

  /** Runs the scripted cluster; with {@code restoreEvery} > 0 the operator restores that often. */
  private List<String> simulate(String policy, Map<String, String> params, int restoreEvery,
      SplitCluster cluster) throws Exception {
    SchedulerConfig cfg = config(policy, params);
    harness = open(cfg, null);
    SplittableRandom rnd = new SplittableRandom(17);
    for (int i = 1; i <= 4; i++) {
      cluster.register("n" + i, T0);
    }
    long t = T0;
    for (int j = 0; j < 18; j++) {
      long len = 60 + rnd.nextInt(400);
      long start = rnd.nextInt(3) == 0 ? rnd.nextInt(3000) : 800 + rnd.nextInt(400);
      cluster.submit("j" + j, start, start + len, t);
      t += rnd.nextInt(90_000);
    }
    cluster.heartbeat("n1", T0 + 20_000);
    int step = 0;
    SchedulerInput i;
    while ((i = cluster.next()) != null) {
      if (restoreEvery > 0 && step > 0 && step % restoreEvery == 0) {
        OperatorSubtaskState snap = harness.snapshot(1, step);
        harness.close();
        harness = open(cfg, snap);
      }
      harness.processElement(i, step);
      cluster.saw(drain());
      assertThat(rejected()).as("step %d: %s", step, i).isEmpty();
      if (i.getEvent() instanceof NodeReport r && r.getType() == NodeReportType.HEARTBEAT
          && cluster.exactlyOnceProblem() != null) {
        cluster.heartbeat("n1", cluster.clock + 20_000);
      }
      step++;
      assertThat(step).as("the run ends").isLessThan(20_000);
    }
    assertThat(step).as("restores inside the run").isGreaterThan(3 * restoreEvery);
    return cluster.log;
  }

  @ParameterizedTest
  @ValueSource(strings = {"OUT_OF_ORDER", "CACHE_JOB_SPLITTING", "JOB_SPLITTING", "DELAYED"})
  void restoresInTheMiddleChangeNoDecisionAndEveryEventRunsOnce(String policy) throws Exception {
    Map<String, String> params = new java.util.HashMap<>(Map.of("cacheEvents", "800",
        "dataset", "lhcb", "min", "10"));
    if (policy.equals("DELAYED")) {
      params.put("period", "120s");
      params.put("stripe", "200");
    }
    SplitCluster straight = new SplitCluster(POOL, "lhcb", 7, T0);
    List<String> a = simulate(policy, params, -1, straight);
    harness.close();
    SplitCluster restored = new SplitCluster(POOL, "lhcb", 7, T0);
    List<String> b = simulate(policy, params, 23, restored);
    assertThat(b).isEqualTo(a);
    assertThat(straight.exactlyOnceProblem()).isNull();
    assertThat(straight.refusals).isEmpty();
    assertThat(straight.runningCount()).isZero();
    assertThat(straight.placements).isGreaterThan(18);
    System.out.printf("%s: %d placements, %d shrinks, %d suspends%n", policy,
        straight.placements, straight.shrinks, straight.suspends);
    if (policy.equals("OUT_OF_ORDER")) {
      assertThat(straight.shrinks).as("idle nodes steal tails of running subjobs").isPositive();
      assertThat(straight.suspends).as("cached pieces preempt uncached work").isPositive();
    }
  }

  @Test
  void badRecordsAreRejectedWithAReasonAndTheStateStaysUsable() throws Exception {
    harness = open(config("out_of_order", OOO), null);
    send(register("n1", T0));
    send(register("n2", T0));
    send(job("j1", "lhcb", 0, 200, T0));
    assertThat(drain()).hasSize(2); // split over the two idle nodes: [0,100), [100,200)
    send(job("j2", "atlas", 0, 10, T0 + 1));
    send(in(JobSubmitted.newBuilder().setJobId("f1").setPool(POOL).setSubmitTimeMs(T0 + 2)
        .setInputs(List.of(DataUnit.newBuilder().setId("file").setBytes(1).build())).build()));
    send(job("j1", "lhcb", 300, 400, T0 + 3));
    send(job("x/y", "lhcb", 300, 400, T0 + 4));
    send(event(TaskEventType.SUSPENDED, "j1/1", 0, "n1", "cern/suspend/9", T0 + 5, null,
        new long[] {0, 5}));
    send(in(Control.newBuilder().setPool(POOL).setType(ControlType.DRAIN_NODE).setNode("n1")
        .setTimeMs(T0 + 6).build()));
    send(in(Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY)
        .setPolicy("DELAYED").setParams(Map.of("period", "soon")).setTimeMs(T0 + 7).build()));
    assertThat(drain()).isEmpty();
    List<String> reasons = rejected();
    assertThat(reasons).hasSize(7);
    assertThat(reasons.get(0)).contains("dataset 'atlas'", "'lhcb'");
    assertThat(reasons.get(1)).contains("job f1 has no event range");
    assertThat(reasons.get(2)).contains("duplicate job id 'j1'", "retention window");
    assertThat(reasons.get(3)).contains("must not contain '/'");
    assertThat(reasons.get(4)).contains("SUSPENDED of j1/1 has no stopAt");
    assertThat(reasons.get(5)).contains("DRAIN_NODE is not supported by split pools");
    assertThat(reasons.get(6)).contains("parameter 'period'", "soon");

    // A completion past the subjob's end, answering a placement of this epoch, makes the core
    // throw: rejected, state rolled back. (Of an earlier epoch it is a replay's answer:
    // SplitPoolReplayOperatorTest.)
    send(in(TaskEvent.newBuilder((TaskEvent) event(TaskEventType.COMPLETED, "j1/1", 0, "n1",
        "cern/j1/1/0", T0 + 80_000, null, new long[] {0, 150}).getEvent()).setEpoch(1).build()));
    assertThat(rejected()).singleElement().asString()
        .contains("could not apply the record", "j1/1");
    assertThat(drain()).isEmpty();
    // ... and the real completions still finish the job
    send(event(TaskEventType.COMPLETED, "j1/1", 0, "n1", "cern/j1/1/0", T0 + 80_001, null,
        new long[] {0, 100}));
    send(event(TaskEventType.COMPLETED, "j1/2", 0, "n2", "cern/j1/2/0", T0 + 80_002, null,
        new long[] {100, 200}));
    send(job("j3", "lhcb", 0, 50, T0 + 80_003));
    List<Decision> j3 = drain();
    assertThat(j3).isNotEmpty();
    assertThat(((PlaceTask) j3.get(0).getAction()).getJobId()).isEqualTo("j3");
    assertThat(rejected()).isEmpty();
  }

  @Test
  void aPoolSwitchesBetweenFileAndSplitPoliciesWhenIdleAndKeepsItsNodes() throws Exception {
    harness = open(SchedulerConfig.defaults("MCH"), null);
    send(register("n1", T0));
    send(register("n2", T0));
    send(job("e0", "lhcb", 0, 10, T0 + 1));
    assertThat(rejected()).singleElement().asString()
        .contains("event-range job", "file policy MCH", "OUT_OF_ORDER");
    send(in(Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY)
        .setPolicy("out-of-order").setParams(Map.of("tCpu", "0.5", "dataset", "lhcb"))
        .setTimeMs(T0 + 2).build()));
    send(job("e1", "lhcb", 0, 100, T0 + 3));
    List<Decision> split = drain();
    assertThat(split).extracting(Decision::getNode).containsExactly("n1", "n2");
    assertThat(((PlaceTask) split.get(0).getAction()).getEventSegments().get(0)
        .getSecondsPerEvent()).isCloseTo(1.1, org.assertj.core.data.Offset.offset(1e-12));
    send(in(Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY).setPolicy("FA")
        .setTimeMs(T0 + 4).build()));
    assertThat(rejected()).singleElement().asString().contains("1 unfinished job");
    // setting the policy it already has changes nothing, even while busy
    send(in(Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY)
        .setPolicy("OUT_OF_ORDER").setParams(Map.of("tCpu", "0.5", "dataset", "lhcb"))
        .setTimeMs(T0 + 5).build()));
    assertThat(rejected()).isEmpty();
    assertThat(drain()).isEmpty();

    // the restored operator still runs the split pool (policy and state from keyed state)
    OperatorSubtaskState snap = harness.snapshot(1, 1);
    harness.close();
    harness = open(SchedulerConfig.defaults("MCH"), snap);
    send(event(TaskEventType.COMPLETED, "e1/1", 0, "n1", "cern/e1/1/0", T0 + 60_000, null,
        new long[] {0, 50}));
    send(event(TaskEventType.COMPLETED, "e1/2", 0, "n2", "cern/e1/2/0", T0 + 60_000, null,
        new long[] {50, 100}));
    send(in(Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY).setPolicy("FA")
        .setTimeMs(T0 + 60_001).build()));
    assertThat(rejected()).isEmpty();
    send(in(JobSubmitted.newBuilder().setJobId("f1").setPool(POOL).setSubmitTimeMs(T0 + 60_002)
        .setInputs(List.of(DataUnit.newBuilder().setId("file").setBytes(1).build())).build()));
    List<Decision> file = drain();
    assertThat(file).singleElement().extracting(Decision::getDecisionId).isEqualTo("cern/f1/0");
    assertThat(((PlaceTask) file.get(0).getAction()).getReason().getPolicy()).isEqualTo("FA");
  }

  @Test
  void badSplitParametersFailAtStartWithTheParameterNamed() {
    assertThatThrownBy(() -> new SchedulerConfig.PolicySpec("out_of_order", Map.of("tCpu", "-1")))
        .hasMessageContaining("'tCpu'").hasMessageContaining("> 0");
    assertThatThrownBy(() -> new SchedulerConfig.PolicySpec("DELAYED", Map.of("bogus", "1")))
        .hasMessageContaining("unknown parameter 'bogus'").hasMessageContaining("dataset")
        .hasMessageContaining("timeScale");
    assertThatThrownBy(() -> new SchedulerConfig.PolicySpec("FARM", Map.of("timeScale", "0")))
        .hasMessageContaining("'timeScale'");
    assertThat(new SchedulerConfig.PolicySpec("cache-job-splitting", Map.of()).name())
        .isEqualTo("CACHE_JOB_SPLITTING");
  }
}
