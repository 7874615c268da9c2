package io.locus.dashboard;

import static io.locus.dashboard.Records.cacheDelta;
import static io.locus.dashboard.Records.completed;
import static io.locus.dashboard.Records.deadLetter;
import static io.locus.dashboard.Records.file;
import static io.locus.dashboard.Records.metrics;
import static io.locus.dashboard.Records.place;
import static io.locus.dashboard.Records.register;
import static io.locus.dashboard.Records.report;
import static io.locus.dashboard.Records.started;
import static io.locus.dashboard.Records.verdict;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.NodeStatusType;
import io.locus.schemas.TaskEventType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fold: what each record does to what the page shows (no Kafka, no browser). */
class DashboardStateTest {
  private static final long T0 = 1_700_000_000_000L;
  private final DashboardState state = new DashboardState(5);

  /** A REGISTER the scheduler accepted: its verdict, then the report (load figures). */
  private static void join(DashboardState s, NodeReport r) {
    s.nodeStatus(io.locus.schemas.NodeStatus.newBuilder(verdict(r.getPool(), r.getNode(), null,
        NodeStatusType.REGISTERED, r.getTimeMs(), r.getSlots())).setRegistration(true).build());
    s.nodeReport(r);
  }

  private Snapshot.Node node(Snapshot s, String name) {
    return s.nodes().stream().filter(n -> n.node().equals(name)).findFirst().orElseThrow();
  }

  /**
   * The pending view's data (issue 23): the scheduler's counts per pending reason, in the codes'
   * order with their labels, codes with no task left out, an unknown code after the known ones;
   * the pool-wide reason; the newest metrics replace them.
   */
  @Test
  void pendingReasonsFollowTheNewestMetricsInTheCodesOrder() {
    java.util.Map<String, Long> by = new java.util.LinkedHashMap<>();
    by.put("no-free-slot", 4L);
    by.put("newer-code", 1L);
    by.put("priority", 0L);
    by.put("locality-wait", 3L);
    state.metrics(io.locus.schemas.SchedulerMetrics.newBuilder(metrics("p", T0, "MCH", 8, 0))
        .setPendingByCode(by).build());
    Snapshot.Pool p = state.snapshot(T0).pools().get(0);
    assertThat(p.pending()).containsExactly(
        new Snapshot.Pending("locality-wait", "waiting for a data holder", 3),
        new Snapshot.Pending("no-free-slot", "waiting for a free slot", 4),
        new Snapshot.Pending("newer-code", "", 1));
    assertThat(p.pendingReason()).isNull();
    state.metrics(io.locus.schemas.SchedulerMetrics.newBuilder(metrics("p", T0 + 1, "MCH", 2, 0))
        .setPendingByCode(java.util.Map.of("no-node", 2L))
        .setPendingReason("no node registered in pool p").build());
    p = state.snapshot(T0).pools().get(0);
    assertThat(p.pending()).containsExactly(
        new Snapshot.Pending("no-node", "no registered node", 2));
    assertThat(p.pendingReason()).isEqualTo("no node registered in pool p");
  }

  @Test
  void slotsInUseArePlacedOrStartedMinusEndedPerNode() {
    join(state, register("p", "n1", T0, 2, 1000));
    state.taskEvent(started("p", "n1", "a", T0 + 1));
    state.decision(place("p", "n1", "b", T0 + 2, "MCH", 0, 0, 0));
    state.taskEvent(started("p", "n1", "b", T0 + 3));
    state.taskEvent(started("p", "n1", "b", T0 + 4)); // repeated STARTED: counted once
    Snapshot.Node running = node(state.snapshot(T0), "n1");
    assertThat(running.running()).isEqualTo(2);
    assertThat(running.slotsInUse()).isEqualTo(2);
    assertThat(running.started()).isEqualTo(2);
    state.taskEvent(completed("p", "n1", "a", T0 + 5, 10, 0, 0));
    state.taskEvent(Records.event("p", "n1", "b", TaskEventType.FAILED, T0 + 6, 0, 0, 0));
    Snapshot.Node n = node(state.snapshot(T0), "n1");
    assertThat(n.running()).isZero();
    assertThat(n.slotsInUse()).isZero();
    assertThat(n.slots()).isEqualTo(2);
    assertThat(n.completed()).isEqualTo(1);
    assertThat(n.failed()).isEqualTo(1);
  }

  /**
   * Issue 26: mid-run the Nodes panel said 0 / 2 on every node while the Pools panel said
   * "running 4, busy 4 / 4". The scheduler counts an attempt as running from its placement; the
   * nodes counted only STARTED ones. Placed and not yet started (the decision is read, the agent
   * has not reported, or the attempt waits in the node's local queue), it is running for both.
   */
  @Test
  void theNodesAndPoolsPanelsCountRunningFromTheSameFacts() {
    join(state, register("p", "n1", T0, 2, 1000));
    join(state, register("p", "n2", T0, 2, 1000));
    for (String t : List.of("a", "b")) {
      state.decision(place("p", "n1", t, T0 + 1, "EFT", 0, 0, 0));
    }
    for (String t : List.of("c", "d")) {
      state.decision(place("p", "n2", t, T0 + 1, "EFT", 0, 0, 0));
    }
    state.taskEvent(started("p", "n1", "a", T0 + 2));
    state.metrics(io.locus.schemas.SchedulerMetrics.newBuilder(metrics("p", T0 + 2, "EFT", 0, 4))
        .setRunningTasks(4).setBusySlots(4).setTotalSlots(4).build());
    Snapshot s = state.snapshot(T0);
    assertThat(node(s, "n1").slotsInUse()).isEqualTo(2);
    assertThat(node(s, "n1").started()).isEqualTo(1);
    assertThat(node(s, "n2").slotsInUse()).isEqualTo(2);
    Snapshot.Pool p = s.pools().get(0);
    assertThat(p.running()).isEqualTo(4).isEqualTo(p.runningTasks());
    assertThat(p.slotsInUse()).isEqualTo(4).isEqualTo(p.busySlots());
    assertThat(p.slots()).isEqualTo(4).isEqualTo(p.totalSlots());
    assertThat(p.members()).isEqualTo(2);
    // late binding: a fifth placement on n1 waits in its local queue; busy stays 4 / 4
    state.decision(place("p", "n1", "e", T0 + 3, "EFT", 0, 0, 0));
    s = state.snapshot(T0);
    assertThat(node(s, "n1").running()).isEqualTo(3);
    assertThat(node(s, "n1").slotsInUse()).isEqualTo(2);
    assertThat(s.pools().get(0).running()).isEqualTo(5);
    assertThat(s.pools().get(0).slotsInUse()).isEqualTo(4);
    // a refused or withdrawn attempt never ran: it is no longer running
    state.taskEvent(Records.event("p", "n1", "e", TaskEventType.WITHDRAWN, T0 + 4, 0, 0, 0));
    state.taskEvent(Records.event("p", "n2", "d", TaskEventType.REFUSED, T0 + 4, 0, 0, 0));
    s = state.snapshot(T0);
    assertThat(s.pools().get(0).running()).isEqualTo(3);
    assertThat(node(s, "n2").slotsInUse()).isEqualTo(1);
    // a preempted attempt (issue 24) frees its slot too
    state.taskEvent(Records.event("p", "n2", "c", TaskEventType.PREEMPTED, T0 + 5, 0, 0, 0));
    s = state.snapshot(T0);
    assertThat(s.pools().get(0).running()).isEqualTo(2);
    assertThat(node(s, "n2").slotsInUse()).isZero();
  }

  /**
   * A dashboard started mid-run reads the topics in no order across each other: here every task
   * event, then the REGISTER, then the decisions. What it shows is what it would have shown
   * reading them as they were written.
   */
  @Test
  void runningDoesNotDependOnTheOrderTheTopicsAreRead() {
    DashboardState inOrder = new DashboardState(5);
    join(inOrder, register("p", "n1", T0, 2, 1000));
    inOrder.decision(place("p", "n1", "a", T0 + 1, "MCH", 0, 0, 0));
    inOrder.decision(place("p", "n1", "b", T0 + 1, "MCH", 0, 0, 0));
    inOrder.taskEvent(started("p", "n1", "a", T0 + 2));
    inOrder.taskEvent(started("p", "n1", "b", T0 + 2));
    inOrder.taskEvent(completed("p", "n1", "a", T0 + 3, 1, 0, 0));

    state.taskEvent(started("p", "n1", "a", T0 + 2));
    state.taskEvent(started("p", "n1", "b", T0 + 2));
    state.taskEvent(completed("p", "n1", "a", T0 + 3, 1, 0, 0));
    join(state, register("p", "n1", T0, 2, 1000)); // does not end what came after it
    state.decision(place("p", "n1", "a", T0 + 1, "MCH", 0, 0, 0)); // ended already
    state.decision(place("p", "n1", "b", T0 + 1, "MCH", 0, 0, 0));
    for (DashboardState s : List.of(inOrder, state)) {
      Snapshot.Node n = node(s.snapshot(T0), "n1");
      assertThat(n.running()).isEqualTo(1);
      assertThat(n.started()).isEqualTo(1);
      assertThat(s.snapshot(T0).pools().get(0).running()).isEqualTo(1);
    }
    // the scheduler's verdict on a drain ending does not end them
    state.nodeStatus(verdict("p", "n1", null, NodeStatusType.REGISTERED, T0 + 10, 2));
    assertThat(node(state.snapshot(T0), "n1").running()).isEqualTo(1);
    // a REGISTER it accepted after them ends them (the node restarted)
    state.nodeStatus(io.locus.schemas.NodeStatus.newBuilder(verdict("p", "n1", null,
        NodeStatusType.REGISTERED, T0 + 10, 2)).setRegistration(true).build());
    assertThat(node(state.snapshot(T0), "n1").running()).isZero();
  }

  /**
   * Issue 26: an EFT placement showed "local fraction 100 %" next to 5.1 GB local and 6 B to
   * move. The fraction is of bytes (local / (local + to move)); the page never rounds it to 100 %
   * while bytes remain to move (dashboard.js, checked by the browser test).
   */
  @Test
  void aPlacementsLocalFractionIsOfItsBytes() {
    state.decision(place("p", "n1", "a", T0, "EFT", 5_100_000_000L, 6, 0));
    state.decision(place("p", "n1", "b", T0 + 1, "EFT", 100, 100, 200));
    state.decision(place("p", "n1", "c", T0 + 2, "EFT", 0, 0, 0));
    Snapshot.Placement a = placement(state.snapshot(T0), "a");
    assertThat(a.bytesToMove()).isEqualTo(6);
    assertThat(a.localFraction()).isLessThan(1.0).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-8));
    assertThat(placement(state.snapshot(T0), "b").localFraction()).isEqualTo(0.25);
    // nothing to read: nothing to move, as the scheduler's own score has it
    assertThat(placement(state.snapshot(T0), "c").localFraction()).isEqualTo(1.0);
  }

  private static Snapshot.Placement placement(Snapshot s, String task) {
    return s.placements().stream().filter(p -> p.taskId().equals(task)).findFirst().orElseThrow();
  }

  @Test
  void cacheFillFollowsDeltasAndSnapshots() {
    join(state, register("p", "n1", T0, 2, 1000));
    state.nodeReport(cacheDelta("p", "n1", T0 + 1, List.of(file("f1", 300), file("f2", 200)),
        List.of()));
    state.nodeReport(cacheDelta("p", "n1", T0 + 2, List.of(file("f3", 100)), List.of("f1")));
    Snapshot.Node n = node(state.snapshot(T0), "n1");
    assertThat(n.cacheBytes()).isEqualTo(300);
    assertThat(n.cachedFiles()).isEqualTo(2);
    assertThat(n.cacheCapacityBytes()).isEqualTo(1000);
    // removing what was never reported changes nothing; a snapshot replaces everything
    state.nodeReport(cacheDelta("p", "n1", T0 + 3, List.of(), List.of("nope")));
    assertThat(node(state.snapshot(T0), "n1").cacheBytes()).isEqualTo(300);
    var snap = io.locus.schemas.NodeReport.newBuilder(report("p", "n1",
        NodeReportType.CACHE_SNAPSHOT, T0 + 4)).setAdded(List.of(file("f9", 42))).build();
    state.nodeReport(snap);
    assertThat(node(state.snapshot(T0), "n1").cacheBytes()).isEqualTo(42);
  }

  @Test
  void hitRatiosAndBytesMovedComeFromCompletedTaskEvents() {
    state.taskEvent(completed("p", "n1", "a", T0, 600, 100, 300));
    state.taskEvent(completed("q", "n2", "b", T0, 200, 0, 800));
    Snapshot.Totals t = state.snapshot(T0).totals();
    assertThat(t.completed()).isEqualTo(2);
    assertThat(t.bytesLocal()).isEqualTo(800);
    assertThat(t.localRatio()).isEqualTo(0.4);
    assertThat(t.peerRatio()).isEqualTo(0.05);
    assertThat(t.storageRatio()).isEqualTo(0.55);
    assertThat(t.bytesMoved()).isEqualTo(1200);
  }

  @Test
  void placementsPerSecondIsAMeanOverTheLastWholeSeconds() {
    for (int i = 0; i < 30; i++) {
      state.decision(place("p", "n1", "t" + i, T0 + i * 100L, "MCH", 0, 0, 0)); // 3 s of 10/s
    }
    Snapshot at = state.snapshot(T0 + 3_500);
    assertThat(at.totals().placements()).isEqualTo(30);
    assertThat(at.totals().placementsPerSecond()).isEqualTo(3.0); // 30 in a 10-s window
    long[] series = at.rate().perSecond();
    assertThat(series[series.length - 1]).isEqualTo(10);
    assertThat(series[series.length - 3]).isEqualTo(10);
    assertThat(series[series.length - 4]).isZero();
    // a minute later the window is empty, the total stays
    Snapshot later = state.snapshot(T0 + 70_000);
    assertThat(later.totals().placementsPerSecond()).isZero();
    assertThat(later.totals().placements()).isEqualTo(30);
  }

  @Test
  void latestPlacementsKeepTheLastNWithTheirReason() {
    for (int i = 0; i < 8; i++) {
      state.decision(place("p", "n" + (i % 2), "t" + i, T0 + i, "MCH", 100 * i, 10, 5));
    }
    List<Snapshot.Placement> l = state.snapshot(T0).placements();
    assertThat(l).hasSize(5);
    Snapshot.Placement newest = l.get(0);
    assertThat(newest.taskId()).isEqualTo("t7");
    assertThat(newest.node()).isEqualTo("n1");
    assertThat(newest.policy()).isEqualTo("MCH");
    assertThat(newest.localBytes()).isEqualTo(700);
    assertThat(newest.bytesToMove()).isEqualTo(15);
    assertThat(l.get(4).taskId()).isEqualTo("t3");
  }

  @Test
  void latestPlacementsDoNotDependOnTheOrderThePartitionsAreRead() {
    DashboardState other = new DashboardState(5);
    List<io.locus.schemas.Decision> ds = new java.util.ArrayList<>();
    for (int i = 0; i < 9; i++) {
      ds.add(place("p", "n" + (i % 3), "t" + i, T0 + i / 2, "MCH", i, 0, 0)); // ties in time
    }
    ds.forEach(state::decision);
    java.util.Collections.reverse(ds);
    ds.forEach(other::decision);
    other.decision(ds.get(0)); // a replayed decision (same id) is not a second placement shown
    assertThat(other.snapshot(T0).placements()).isEqualTo(state.snapshot(T0).placements());
    assertThat(state.snapshot(T0).placements().get(0).taskId()).isEqualTo("t8");
  }

  @Test
  void aNodeIsLostWhenTheSchedulerSaysSoUntilItIsRegisteredAgain() {
    join(state, register("p", "quiet", T0, 2, 0));
    join(state, register("p", "busy", T0, 2, 0));
    state.taskEvent(started("p", "quiet", "a", T0 + 1));
    // silence alone is no verdict: the dashboard does not guess with its own clock
    state.nodeReport(report("p", "busy", NodeReportType.HEARTBEAT, T0 + 300_000));
    assertThat(state.snapshot(T0).lostNodes()).isEmpty();
    state.nodeStatus(verdict("p", "quiet", "i1", NodeStatusType.LOST, T0 + 31_000, 0));
    Snapshot s = state.snapshot(T0);
    assertThat(s.lostNodes()).extracting(Snapshot.LostNode::node).containsExactly("quiet");
    assertThat(s.lostNodes().get(0).lostAtMs()).isEqualTo(T0 + 31_000);
    assertThat(node(s, "quiet").state()).isEqualTo("lost");
    assertThat(node(s, "quiet").running()).isZero(); // its work is re-placed
    assertThat(s.totals().lostNodes()).isEqualTo(1);
    assertThat(s.totals().aliveNodes()).isEqualTo(1);
    // its own REGISTER report does not bring it back; the scheduler's verdict does
    state.nodeReport(register("p", "quiet", T0 + 32_000, 2, 0));
    assertThat(state.snapshot(T0).lostNodes()).hasSize(1);
    state.nodeStatus(verdict("p", "quiet", "i2", NodeStatusType.REGISTERED, T0 + 32_000, 2));
    assertThat(state.snapshot(T0).lostNodes()).isEmpty();
  }

  @Test
  void aNodeThatLeftIsNotLost() {
    join(state, register("p", "n1", T0, 2, 0));
    state.nodeStatus(verdict("p", "n1", null, NodeStatusType.LEFT, T0 + 1, 0));
    join(state, register("p", "n2", T0 + 60_000, 2, 0));
    Snapshot s = state.snapshot(T0);
    assertThat(s.lostNodes()).isEmpty();
    assertThat(node(s, "n1").state()).isEqualTo("left");
    // members are listed first: a finished pool's nodes do not push the live ones down
    assertThat(s.nodes()).extracting(Snapshot.Node::node).containsExactly("n2", "n1");
  }

  /**
   * Issue 22: an impostor agent (a copy of n1's configuration, another instance) registered and
   * left; the scheduler refused both, but the dashboard, folding raw reports, showed n1 "left".
   */
  @Test
  void anImpostorsRefusedRegisterAndLeaveChangeNothing() {
    state.nodeStatus(verdict("p", "n1", "real", NodeStatusType.REGISTERED, T0, 2));
    state.nodeReport(NodeReport.newBuilder(register("p", "n1", T0, 2, 1000))
        .setInstanceId("real").build());
    state.nodeReport(NodeReport.newBuilder(register("p", "n1", T0 + 1, 8, 9999))
        .setInstanceId("copy").build());
    state.nodeStatus(verdict("p", "n1", "copy", NodeStatusType.REFUSED, T0 + 1, 0));
    state.nodeStatus(verdict("p", "n1", "real", NodeStatusType.REGISTERED, T0 + 1, 2));
    state.nodeReport(NodeReport.newBuilder(report("p", "n1", NodeReportType.LEAVE, T0 + 2))
        .setInstanceId("copy").build());
    Snapshot s = state.snapshot(T0);
    assertThat(node(s, "n1").state()).isEqualTo("alive");
    assertThat(node(s, "n1").slots()).as("the impostor's figures are not folded in").isEqualTo(2);
    assertThat(node(s, "n1").cacheCapacityBytes()).isEqualTo(1000);
    assertThat(s.totals().aliveNodes()).isEqualTo(1);
    assertThat(s.totals().refusedRegistrations()).isEqualTo(1);
    // a node with reports but no verdict is not listed: the scheduler never accepted it
    state.nodeReport(register("p", "ghost", T0 + 3, 2, 0));
    assertThat(state.snapshot(T0).nodes()).extracting(Snapshot.Node::node).containsExactly("n1");
    // a drain is the scheduler's verdict too
    state.nodeStatus(verdict("p", "n1", "real", NodeStatusType.DRAINING, T0 + 4, 2));
    assertThat(node(state.snapshot(T0), "n1").state()).isEqualTo("draining");
  }

  @Test
  void queueLengthPerPoolIsTheLatestMetricsWithAHistory() {
    state.metrics(metrics("p", T0, "MCH", 5, 10));
    state.metrics(metrics("p", T0 + 2000, "MCH", 7, 20));
    state.metrics(metrics("p", T0 + 1000, "MCH", 99, 15)); // older: not the latest
    Snapshot.Pool p = state.snapshot(T0).pools().get(0);
    assertThat(p.queueLength()).isEqualTo(7);
    assertThat(p.policy()).isEqualTo("MCH");
    assertThat(p.metricsPlacements()).isEqualTo(20);
    assertThat(p.queueLengths()).containsExactly(5, 7);
  }

  @Test
  void deadLettersAreCountedByCodeWithTheNewestReason() {
    state.deadLetter(deadLetter("invalid", "bad time", T0));
    state.deadLetter(deadLetter("forged", "bad signature", T0 + 1));
    state.deadLetter(deadLetter("invalid", "negative bytes", T0 + 2));
    Snapshot.DeadLetters d = state.snapshot(T0).deadLetters();
    assertThat(d.total()).isEqualTo(3);
    assertThat(d.byCode()).extracting(Snapshot.Reason::code).containsExactly("invalid", "forged");
    assertThat(d.byCode().get(0).count()).isEqualTo(2);
    assertThat(d.byCode().get(0).lastReason()).isEqualTo("negative bytes");
    assertThat(d.latest().get(0).reason()).isEqualTo("negative bytes");
  }

  @Test
  void memoryIsBoundedWhateverTheTopicsHold() {
    for (int i = 0; i < DashboardState.MAX_CODES + 10; i++) {
      state.deadLetter(deadLetter("code-" + i, "r", T0));
    }
    Snapshot.DeadLetters d = state.snapshot(T0).deadLetters();
    assertThat(d.byCode()).hasSize(DashboardState.MAX_CODES + 1);
    assertThat(d.byCode()).anySatisfy(r -> {
      assertThat(r.code()).isEqualTo(DashboardState.OTHER_CODE);
      assertThat(r.count()).isEqualTo(10);
    });
    assertThat(d.latest()).hasSize(DashboardState.KEEP_LETTERS);
    String huge = "x".repeat(100_000);
    state.decision(place("p", "n", huge, T0, "MCH", 0, 0, 0));
    assertThat(state.snapshot(T0).placements().get(0).taskId().length())
        .isLessThanOrEqualTo(DashboardState.MAX_TEXT + 1);
  }

  @Test
  void rebuildingFromTheSameRecordsGivesTheSameSnapshot() {
    DashboardState other = new DashboardState(5);
    for (DashboardState s : List.of(state, other)) {
      join(s, register("p", "n1", T0, 2, 1000));
      s.decision(place("p", "n1", "a", T0 + 1, "MCH", 5, 6, 7));
      s.taskEvent(started("p", "n1", "a", T0 + 2));
      s.metrics(metrics("p", T0 + 3, "MCH", 1, 1));
    }
    assertThat(other.snapshot(T0 + 5000)).usingRecursiveComparison()
        .isEqualTo(state.snapshot(T0 + 5000));
  }

  private static io.locus.schemas.QueueUsage usage(String queue, String parent, double guarantee,
      int running, int pending, double fairShare) {
    return io.locus.schemas.QueueUsage.newBuilder().setQueue(queue).setParent(parent)
        .setLeaf(parent != null).setGuarantee(guarantee).setRunning(running).setPending(pending)
        .setShare(running / 4.0).setFairShare(fairShare)
        .setBorrowed(Math.max(0, running - guarantee)).build();
  }

  /**
   * The queues view's data (issue 24): the newest metrics' per-queue usage as the table (depth
   * first, children one level in), and each queue's running, guarantee and fair share over the
   * records as the chart's series; an older record changes neither; a figure JSON cannot carry
   * (NaN) is 0.
   */
  @Test
  void queuesFollowTheNewestMetricsAndKeepTheirHistory() {
    state.metrics(io.locus.schemas.SchedulerMetrics.newBuilder(metrics("p", T0, "MCH", 1, 0))
        .setQueueUsage(List.of(usage("eng", null, 2, 1, 1, 2), usage("ml", "eng", 2, 1, 1, 2)))
        .build());
    state.metrics(io.locus.schemas.SchedulerMetrics.newBuilder(metrics("p", T0 + 1000, "MCH", 0,
        0)).setQueueUsage(List.of(usage("eng", null, 2, 3, 0, 3),
            usage("ml", "eng", 2, 3, 0, Double.NaN))).build());
    // an older record (a restarted scheduler's replay) is not the newest
    state.metrics(io.locus.schemas.SchedulerMetrics.newBuilder(metrics("p", T0 + 500, "MCH", 0,
        0)).setQueueUsage(List.of(usage("old", null, 0, 9, 9, 9))).build());
    Snapshot.Pool p = state.snapshot(T0 + 2000).pools().get(0);
    assertThat(p.queues()).containsExactly(
        new Snapshot.Queue("eng", null, 0, false, 1.0, 2, null, 3, 0, 0.75, 3, 1, 0),
        new Snapshot.Queue("ml", "eng", 1, true, 1.0, 2, null, 3, 0, 0.75, 0, 1, 0));
    assertThat(p.queueSeries()).hasSize(2);
    Snapshot.QueueSeries eng = p.queueSeries().get(0);
    assertThat(eng.queue()).isEqualTo("eng");
    assertThat(eng.timesMs()).containsExactly(T0, T0 + 1000);
    assertThat(eng.running()).containsExactly(1, 3);
    assertThat(eng.guarantee()).containsExactly(2.0, 2.0);
    assertThat(eng.fairShare()).containsExactly(2.0, 3.0);
    assertThat(p.queueSeries().get(1).fairShare()).containsExactly(2.0, 0.0);
  }

  @Test
  void aPoolsChartKeepsAtMostEightQueuesAndItsTableTheWholeTree() {
    List<io.locus.schemas.QueueUsage> many = new java.util.ArrayList<>();
    for (int i = 0; i < 12; i++) {
      many.add(usage("q" + (char) ('a' + i), null, 0, i, 0, 1));
    }
    state.metrics(io.locus.schemas.SchedulerMetrics.newBuilder(metrics("p", T0, "FA", 0, 0))
        .setQueueUsage(many).build());
    Snapshot.Pool p = state.snapshot(T0).pools().get(0);
    assertThat(p.queues()).hasSize(12);
    assertThat(p.queueSeries()).extracting(Snapshot.QueueSeries::queue)
        .containsExactly("qa", "qb", "qc", "qd", "qe", "qf", "qg", "qh");
  }

  @Test
  void badSettingsAreRefused() {
    assertThatThrownBy(() -> new DashboardState(0)).hasMessageContaining("placements");
  }
}
