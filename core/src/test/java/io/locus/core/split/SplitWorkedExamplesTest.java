package io.locus.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The worked examples W1–W11 of the CERN spec (§8). */
class SplitWorkedExamplesTest {

  @Test
  void w1PerEventCosts() {
    EventCosts serial = EventCosts.of(false, false);
    EventCosts tape = EventCosts.of(true, false);
    EventCosts both = EventCosts.of(true, true);
    assertThat(serial.cMiss()).isCloseTo(0.8, within(1e-12));
    assertThat(serial.cHit()).isCloseTo(0.26, within(1e-12));
    assertThat(tape.cMiss()).isCloseTo(0.6, within(1e-12));
    assertThat(tape.cHit()).isCloseTo(0.26, within(1e-12));
    assertThat(both.cMiss()).isCloseTo(0.6, within(1e-12));
    assertThat(both.cHit()).isCloseTo(0.2, within(1e-12));
    assertThat(EventCosts.of(false, true).cMiss()).isCloseTo(0.8, within(1e-12));
    assertThat(serial.cRemote()).isEqualTo(serial.cHit());
    // a 40,000-event job on one node, through the policy core's own cost segments
    assertThat(oneNodeJobCost(serial, false)).isCloseTo(32_000, within(1e-6));
    assertThat(oneNodeJobCost(serial, true)).isCloseTo(10_400, within(1e-6));
    assertThat(oneNodeJobCost(tape, false)).isCloseTo(24_000, within(1e-6));
    assertThat(oneNodeJobCost(both, true)).isCloseTo(8_000, within(1e-6));
  }

  /** Cost of the RUN of a 40,000-event job on an idle one-node OUT_OF_ORDER pool. */
  private static double oneNodeJobCost(EventCosts c, boolean cached) {
    SplitPolicy p = SplitPolicies.create("OUT_OF_ORDER", Map.of(
        "tapePipelining", Boolean.toString(c.tapePipelining()),
        "diskPipelining", Boolean.toString(c.diskPipelining()), "cacheEvents", "100000"));
    p.addNode("n1", 0);
    if (cached) {
      p.cache("n1").insert(0, 40_000, 0);
    }
    List<SplitCommand> cmds = p.onJobArrival(SplitJob.of("j", 0, 40_000), 1);
    assertThat(cmds).hasSize(1);
    return ((SplitCommand.Run) cmds.get(0)).cost();
  }

  @Test
  void w2Capacities() {
    assertThat(EventCosts.capacityEvents(50e9, 600e3)).isEqualTo(83_333);
    assertThat(EventCosts.capacityEvents(100e9, 600e3)).isEqualTo(166_667);
    assertThat(EventCosts.capacityEvents(200e9, 600e3)).isEqualTo(333_333);
    assertThat(SplitParams.parse("OUT_OF_ORDER", Map.of("cacheGb", "50")).cacheEvents())
        .isEqualTo(83_333);
    assertThat(EventCosts.maximalTheoreticalLoad(10, 40_000)).isCloseTo(3.4615, within(1e-4));
    assertThat(EventCosts.capacity(10, 40_000, 0.8)).isCloseTo(1.125, within(1e-12));
  }

  @Test
  void w3SplitByCache() {
    CoverageIndex idx = new CoverageIndex();
    idx.add("1", 0, 1500);
    idx.add("2", 3000, 3500);
    List<Pieces.Piece> p = Pieces.splitByCache(EventSpan.of(1000, 5000), idx, h -> h.get(0), 10);
    assertThat(p).containsExactly(
        new Pieces.Piece(EventSpan.of(1000, 1500), "1"),
        new Pieces.Piece(EventSpan.of(1500, 3000), null),
        new Pieces.Piece(EventSpan.of(3000, 3500), "2"),
        new Pieces.Piece(EventSpan.of(3500, 5000), null));
  }

  @Test
  void w3ThroughTheNodesCaches() {
    SplitPolicy p = SplitPolicies.create("OUT_OF_ORDER", Map.of("cacheEvents", "10000"));
    p.addNode("1", 0);
    p.addNode("2", 0);
    p.cache("1").insert(0, 1500, 0);
    p.cache("2").insert(3000, 3500, 0);
    List<Pieces.Piece> pieces = p.model.splitByCache(EventSpan.of(1000, 5000));
    assertThat(pieces).extracting(Pieces.Piece::range).containsExactly(EventSpan.of(1000, 1500),
        EventSpan.of(1500, 3000), EventSpan.of(3000, 3500), EventSpan.of(3500, 5000));
    assertThat(pieces).extracting(Pieces.Piece::cachedOn).containsExactly("1", null, "2", null);
  }

  @Test
  void w4JobSplittingArrival() {
    SplitPolicy p = SplitPolicies.create("JOB_SPLITTING", Map.of());
    for (int i = 1; i <= 10; i++) {
      p.addNode("n" + i, 0);
    }
    List<SplitCommand> cmds = p.onJobArrival(SplitJob.of("a", 0, 40_000), 0);
    assertThat(cmds).hasSize(10).allSatisfy(c -> assertThat(((SplitCommand.Run) c).range()
        .length()).isEqualTo(4000));
    assertThat(cmds).extracting(SplitCommand::node).containsExactly("n1", "n2", "n3", "n4", "n5",
        "n6", "n7", "n8", "n9", "n10");

    SplitPolicy q = SplitPolicies.create("JOB_SPLITTING", Map.of());
    for (int i = 1; i <= 10; i++) {
      q.addNode("n" + i, 0);
    }
    List<SplitCommand> small = q.onJobArrival(SplitJob.of("b", 100, 135), 0);
    assertThat(small).extracting(c -> ((SplitCommand.Run) c).range()).containsExactly(
        EventSpan.of(100, 112), EventSpan.of(112, 124), EventSpan.of(124, 135));
  }

  @Test
  void w5VictimJob() {
    SplitPolicy p = SplitPolicies.create("JOB_SPLITTING", Map.of());
    for (int i = 1; i <= 5; i++) {
      p.addNode("n" + i, 0);
    }
    p.begin(0);
    JobState a = job(p, "A", 0, 30_000);
    JobState b = job(p, "B", 100_000, 110_000);
    p.ops.run(p.ops.newPiece(a, 0, 10_000), p.ops.node("n1"));
    p.ops.run(p.ops.newPiece(a, 10_000, 20_000), p.ops.node("n2"));
    p.ops.run(p.ops.newPiece(a, 20_000, 30_000), p.ops.node("n3"));
    p.ops.run(p.ops.newPiece(b, 100_000, 106_000), p.ops.node("n4"));
    p.ops.run(p.ops.newPiece(b, 106_000, 110_000), p.ops.node("n5"));
    p.finish();
    // A: 3 nodes / 30,000 = 1.0e-4; B: 2 / 10,000 = 2.0e-4 -> K = B; its subjob with the fewest
    // remaining events is the 4,000-event one on n5
    List<SplitCommand> cmds = p.onJobArrival(SplitJob.of("C", 200_000, 240_000), 0);
    assertThat(cmds).hasSize(2);
    assertThat(cmds.get(0)).isEqualTo(new SplitCommand.Suspend("n5", "B/2", 106_000));
    SplitCommand.Run run = (SplitCommand.Run) cmds.get(1);
    assertThat(run.node()).isEqualTo("n5");
    assertThat(run.range()).isEqualTo(EventSpan.of(200_000, 240_000)); // unsplit
  }

  static JobState job(SplitPolicy p, String id, long s, long e) {
    return p.state.newJob(SplitJob.of(id, s, e));
  }

  @Test
  void w6Steal() {
    SplitPolicy p = SplitPolicies.create("OUT_OF_ORDER", Map.of("cacheEvents", "100000"));
    p.addNode("u", 0);
    p.addNode("v", 0);
    SplitNode u = p.ops.node("u");
    u.cache.insert(0, 1000, 0);
    p.begin(0);
    JobState y = job(p, "Y", 5000, 5125); // 125 events from tape = 100 s left
    JobState x = job(p, "X", 0, 1000);
    p.ops.run(p.ops.newPiece(y, 5000, 5125), u);
    Subjob queued = p.ops.newPiece(x, 0, 1000);
    queued.cachedOn = "u";
    u.queue.pushBack(queued);
    p.finish();
    List<SplitCommand> cmds = p.onNodeIdle("v", 0);
    assertThat(cmds).hasSize(1);
    SplitCommand.Run steal = (SplitCommand.Run) cmds.get(0);
    assertThat(steal.node()).isEqualTo("v");
    assertThat(steal.range()).isEqualTo(EventSpan.of(661, 1000)); // k = 339
    assertThat(steal.cost()).isCloseTo(271.2, within(1e-9));
    assertThat(queued.range()).isEqualTo(EventSpan.of(0, 661));
    assertThat(p.model.backlog(u)).isCloseTo(100 + 661 * 0.26, within(1e-9)); // 271.86 s
    assertThat(p.subjob(steal.subjobId()).preemptible()).isTrue();
  }

  @Test
  void w7SplitTimeBalanced() {
    long x = SplitPolicy.splitTimeBalanced(0, 1000, 10, m -> 0.26 * m, m -> 0.8 * (1000 - m), 0,
        0);
    assertThat(x).isEqualTo(755);
    assertThat(0.26 * x).isCloseTo(196.3, within(1e-9));
    assertThat(0.8 * (1000 - x)).isCloseTo(196.0, within(1e-9));
    assertThat(SplitPolicy.splitTimeBalanced(0, 19, 10, m -> m, m -> m, 0, 0)).isEqualTo(-1);
  }

  @Test
  void w7ThroughARunningSubjob() {
    SplitPolicy p = SplitPolicies.create("CACHE_JOB_SPLITTING", Map.of("cacheEvents", "100000"));
    p.addNode("a", 0);
    p.addNode("b", 0);
    p.cache("a").insert(0, 1000, 0);
    p.begin(0);
    JobState j = job(p, "J", 0, 1000);
    p.ops.run(p.ops.newPiece(j, 0, 1000), p.ops.node("a"));
    p.finish();
    p.begin(0);
    assertThat(p.model.splitRunningBalanced(p.ops.node("a").running, p.ops.node("b")))
        .isEqualTo(755);
    p.finish();
  }

  @Test
  void w8Striping() {
    List<EventSpan> u = List.of(EventSpan.of(0, 12_000), EventSpan.of(3000, 4000),
        EventSpan.of(11_000, 20_000));
    List<Long> pts = Striping.points(u);
    assertThat(pts).containsExactly(0L, 3000L, 4000L, 11_000L, 12_000L, 20_000L);
    List<Long> kept = Striping.removeShort(pts, 2500);
    assertThat(kept).containsExactly(0L, 3000L, 11_000L, 20_000L);
    assertThat(Striping.addPoints(kept, 5000)).containsExactly(0L, 3000L, 7000L, 11_000L,
        15_500L, 20_000L);
    List<Striping.Stripe> s = Striping.stripe(u, 5000, 10);
    assertThat(s).extracting(Striping.Stripe::range).containsExactly(EventSpan.of(0, 3000),
        EventSpan.of(3000, 7000), EventSpan.of(7000, 11_000), EventSpan.of(11_000, 15_500),
        EventSpan.of(15_500, 20_000));
    // A = source 0, B = 1, C = 2
    assertThat(s.get(0).pieces()).containsExactly(new Striping.Cut(0, EventSpan.of(0, 3000)));
    assertThat(s.get(1).pieces()).containsExactly(new Striping.Cut(0, EventSpan.of(3000, 7000)),
        new Striping.Cut(1, EventSpan.of(3000, 4000)));
    assertThat(s.get(2).pieces()).containsExactly(
        new Striping.Cut(0, EventSpan.of(7000, 11_000)));
    assertThat(s.get(3).pieces()).containsExactly(
        new Striping.Cut(0, EventSpan.of(11_000, 12_000)),
        new Striping.Cut(2, EventSpan.of(11_000, 15_500)));
    assertThat(s.get(4).pieces()).containsExactly(
        new Striping.Cut(2, EventSpan.of(15_500, 20_000)));
  }

  @Test
  void w8ThroughDelayedMetaSubjobs() {
    // jobs A, B, C arriving in one period; one node takes the meta-subjobs stripe by stripe
    SplitPolicy p = SplitPolicies.create("DELAYED", Map.of("period", "1d", "cacheEvents",
        "100000"));
    SplitTestDriver d = new SplitTestDriver(p, SplitTestDriver.Ack.EXACT, 1);
    d.addNodes(1);
    d.submit(SplitJob.of("A", 0, 12_000), 10);
    d.submit(SplitJob.of("B", 3000, 4000), 20);
    d.submit(SplitJob.of("C", 11_000, 20_000), 30);
    d.run();
    List<String> runs = d.log.stream().filter(l -> l.contains("Run[")).toList();
    // meta order: by arrival (all A's stripes first come from A), then stripe start
    assertThat(runs).hasSize(7);
    assertThat(runs.get(0)).contains("range=[0,3000)").startsWith("86400.000000");
    assertThat(runs.get(1)).contains("jobId=A").contains("range=[3000,7000)");
    assertThat(runs.get(2)).contains("jobId=B").contains("range=[3000,4000)")
        .contains("source=LOCAL"); // B reads the stripe A's piece just cached
    d.assertExactlyOnce();
    assertThat(d.outcomes).allSatisfy(o -> assertThat(o.released()).isEqualTo(86_400));
  }

  @Test
  void w9LruRange() {
    RangeLru c = new RangeLru(1000);
    c.insert(0, 400, 10);
    c.insert(1000, 1400, 30);
    c.insert(2000, 2200, 20);
    c.insert(3000, 3500, 40);
    assertThat(c.entries()).containsExactly(
        new RangeLru.Entry(EventSpan.of(1000, 1400), 30, 0),
        new RangeLru.Entry(EventSpan.of(2000, 2100), 20, 0),
        new RangeLru.Entry(EventSpan.of(3000, 3500), 40, 0));
    assertThat(c.used()).isEqualTo(1000);
    c.touch(1100, 1200, 50);
    assertThat(c.entries()).containsExactly(
        new RangeLru.Entry(EventSpan.of(1000, 1100), 30, 0),
        new RangeLru.Entry(EventSpan.of(1100, 1200), 50, 0),
        new RangeLru.Entry(EventSpan.of(1200, 1400), 30, 0),
        new RangeLru.Entry(EventSpan.of(2000, 2100), 20, 0),
        new RangeLru.Entry(EventSpan.of(3000, 3500), 40, 0));
  }

  @Test
  void w10AdaptiveChoice() {
    TreeMap<Double, Double> table = new TreeMap<>(Map.of(0.0, 1.0, 86_400.0, 1.5, 172_800.0, 2.0));
    assertThat(AdaptiveDelay.choose(table, 1.6, 0.1)).isEqualTo(172_800.0);
    assertThat(AdaptiveDelay.choose(table, 0.8, 0.1)).isEqualTo(0.0);
    assertThat(AdaptiveDelay.choose(table, 5, 0.1)).isEqualTo(172_800.0); // none: the largest
  }

  @Test
  void w10AdaptiveHysteresis() {
    SplitPolicy sp = SplitPolicies.create("ADAPTIVE_DELAY", Map.of(
        "lmaxTable", "0:1.0,1d:1.5,2d:2.0", "cacheEvents", "1000"));
    AdaptiveDelay p = (AdaptiveDelay) sp.hooks;
    sp.addNode("n1", 0);
    // 1.6 jobs/h for 24 h: 38 or 39 arrivals in the window -> 1.6 * 1.1 = 1.76 -> d = 2 d
    double t = 0;
    int k = 0;
    for (; t < 86_400; t += 3600 / 1.6) {
      runTimers(sp, t);
      sp.onJobArrival(SplitJob.of("j" + k++, 0, 10), t);
    }
    runTimers(sp, 86_400);
    assertThat(p.estimatedRate()).isCloseTo(1.6, within(0.05));
    assertThat(p.currentPeriod()).isEqualTo(172_800.0);
    // then the rate falls to 0.8/h: the evaluation at the period end 172,800 s asks for 0 (its
    // 24 h window holds 0.8/h) but keeps 2 d (one vote); the next one, at 345,600 s, drops to 0
    double end = 86_400 + 3 * 172_800;
    java.util.List<Double> changes = new java.util.ArrayList<>();
    double at172800 = Double.NaN;
    for (; t < end; t += 3600 / 0.8) {
      double before = p.currentPeriod();
      runTimers(sp, t);
      if (p.currentPeriod() != before) {
        changes.add(sp.state.now);
      }
      if (t > 172_800 && Double.isNaN(at172800)) {
        at172800 = p.currentPeriod();
      }
      sp.onJobArrival(SplitJob.of("j" + k++, 0, 10), t);
    }
    assertThat(at172800).isEqualTo(172_800.0);
    assertThat(p.currentPeriod()).isEqualTo(0.0);
    assertThat(changes).containsExactly(345_600.0);
  }

  private static void runTimers(SplitPolicy p, double until) {
    while (p.nextTimerAt() <= until) {
      p.onTimer(p.nextTimerAt());
    }
  }

  @Test
  void w11JobSpeedup() {
    JobOutcome o = new JobOutcome("j", EventSpan.of(0, 40_000), 0, 0, 100, 3300, 0, 0, 40_000,
        false, false, 1);
    assertThat(o.processing()).isEqualTo(3200);
    assertThat(o.speedup()).isCloseTo(10.0, within(1e-12));
  }
}
