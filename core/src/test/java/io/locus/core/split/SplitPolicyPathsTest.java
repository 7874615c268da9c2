package io.locus.core.split;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Small hand-built cases through each policy's pseudocode paths (spec §2). */
class SplitPolicyPathsTest {

  private static SplitCommand.Run run(SplitCommand c) {
    assertThat(c).isInstanceOf(SplitCommand.Run.class);
    return (SplitCommand.Run) c;
  }

  @Test
  void farmRunsWholeJobsInFifoOrderWithoutCache() {
    SplitPolicy p = SplitPolicies.create("FARM", Map.of("cacheGb", "100"));
    p.addNode("n2", 0);
    p.addNode("n10", 0);
    SplitCommand.Run a = run(p.onJobArrival(SplitJob.of("a", 0, 100), 0).get(0));
    assertThat(a.node()).isEqualTo("n2"); // lowest id in natural order
    assertThat(a.segments()).singleElement().satisfies(s -> {
      assertThat(s.source()).isEqualTo(Source.TAPE);
      assertThat(s.cacheAfterRead()).isFalse();
    });
    run(p.onJobArrival(SplitJob.of("b", 0, 100), 1).get(0));
    assertThat(p.onJobArrival(SplitJob.of("c", 0, 100), 2)).isEmpty();
    assertThat(p.onJobArrival(SplitJob.of("d", 0, 100), 3)).isEmpty();
    SplitCommand.Run c = run(p.onSubjobEnd("n2", "a/1", 100, 80).get(0));
    assertThat(c.jobId()).isEqualTo("c");
    assertThat(p.cache("n2").used()).isZero(); // FARM never caches
  }

  /** n1, n2: a on both (2 × 500); b at 100 s suspends a/1 at 125; a/3 = [125, 500) waits. */
  private static SplitPolicy twoJobs(String policy, long bEnd) {
    SplitPolicy p = SplitPolicies.create(policy, Map.of());
    p.addNode("n1", 0);
    p.addNode("n2", 0);
    p.onJobArrival(SplitJob.of("a", 0, 1000), 0);
    List<SplitCommand> c = p.onJobArrival(SplitJob.of("b", 5000, bEnd), 100);
    assertThat(c.get(0)).isInstanceOf(SplitCommand.Suspend.class);
    p.acknowledgeStop("a/1", 125, 100);
    return p;
  }

  @Test
  void jobSplittingResumesSuspendedWorkBeforeSplittingD11() {
    SplitPolicy p = twoJobs("JOB_SPLITTING", 5100);
    // b (100 events) ends at 180; FIFO empty; a has suspended work: n1 resumes it (no shrink)
    List<SplitCommand> c = p.onSubjobEnd("n1", "b/1", 5100, 180);
    assertThat(c).singleElement().satisfies(x -> {
      assertThat(run(x).subjobId()).isEqualTo("a/3");
      assertThat(run(x).range()).isEqualTo(EventSpan.of(125, 500));
    });
  }

  @Test
  void jobSplittingStartsTheFifoHeadBeforeAnySplitD28() {
    SplitPolicy p = twoJobs("JOB_SPLITTING", 5100);
    // c arrives: no idle node, no job with 2 active nodes: FIFO
    assertThat(p.onJobArrival(SplitJob.of("c", 9000, 9500), 120)).isEmpty();
    // b ends (job end): the FIFO head c starts unsplit on n1, before a's suspended work
    SplitCommand.Run c = run(p.onSubjobEnd("n1", "b/1", 5100, 180).get(0));
    assertThat(c.jobId()).isEqualTo("c");
    assertThat(c.range()).isEqualTo(EventSpan.of(9000, 9500));
    // a/2 ends on n2: a is not finished and has suspended work, which goes first
    SplitCommand.Run r = run(p.onSubjobEnd("n2", "a/2", 1000, 400).get(0));
    assertThat(r.subjobId()).isEqualTo("a/3");
  }

  @Test
  void jobSplittingHalvesTheLargestRunningSubjob() {
    SplitPolicy p = SplitPolicies.create("JOB_SPLITTING", Map.of());
    p.addNode("n1", 0);
    p.onJobArrival(SplitJob.of("a", 0, 1001), 0);
    List<SplitCommand> c = p.addNode("n2", 8); // pos 10: r = 991 -> keep 496, give 495
    assertThat(c.get(0)).isEqualTo(new SplitCommand.Shrink("n1", "a/1", 506));
    assertThat(run(c.get(1)).range()).isEqualTo(EventSpan.of(506, 1001));
  }

  @Test
  void cacheJobSplittingPrefersTheNodeHoldingAPiece() {
    SplitPolicy p = SplitPolicies.create("CACHE_JOB_SPLITTING", Map.of("cacheEvents", "5000"));
    p.addNode("n1", 0);
    p.addNode("n2", 0);
    p.cache("n2").insert(0, 500, 0);
    List<SplitCommand> c = p.onJobArrival(SplitJob.of("a", 0, 1000), 1);
    assertThat(c).hasSize(2);
    assertThat(run(c.get(0)).node()).isEqualTo("n2");
    assertThat(run(c.get(0)).range()).isEqualTo(EventSpan.of(0, 500));
    assertThat(run(c.get(0)).segments()).singleElement()
        .satisfies(s -> assertThat(s.source()).isEqualTo(Source.LOCAL));
    assertThat(run(c.get(1)).node()).isEqualTo("n1");
    assertThat(run(c.get(1)).range()).isEqualTo(EventSpan.of(500, 1000));
  }

  @Test
  void cacheJobSplittingPreemptsUncachedWorkWhereThePieceIsCached() {
    SplitPolicy p = SplitPolicies.create("CACHE_JOB_SPLITTING", Map.of("cacheEvents", "5000"));
    p.addNode("n1", 0);
    p.addNode("n2", 0);
    p.addNode("n3", 0);
    p.cache("n3").insert(0, 500, 0);
    // x = 3,000 uncached events: n1 takes it, then balanced splits give n2 and n3 tails
    List<SplitCommand> x = p.onJobArrival(SplitJob.of("x", 10_000, 13_000), 0);
    assertThat(x).hasSize(3).allSatisfy(c -> assertThat(c).isInstanceOf(SplitCommand.Run.class));
    assertThat(run(x.get(0)).range().length()).isEqualTo(750); // n1 keeps the head
    // the 2.2 rule would suspend n1 (fewest remaining, tie lowest id); rule (a) picks n3,
    // which caches a piece of the new job
    List<SplitCommand> c = p.onJobArrival(SplitJob.of("a", 0, 1000), 1);
    assertThat(c.get(0)).isInstanceOf(SplitCommand.Suspend.class);
    assertThat(c.get(0).node()).isEqualTo("n3");
    SplitCommand.Run r = run(c.get(1));
    assertThat(r.node()).isEqualTo("n3");
    assertThat(r.range()).isEqualTo(EventSpan.of(0, 500));
    assertThat(p.subjob("a/2").range()).isEqualTo(EventSpan.of(500, 1000)); // suspended in a
  }

  @Test
  void cacheJobSplittingSplitsForCachingBenefitD13() {
    SplitPolicy p = SplitPolicies.create("CACHE_JOB_SPLITTING", Map.of("cacheEvents", "5000"));
    p.addNode("n1", 0);
    p.addNode("n2", 0);
    p.addNode("n3", 0);
    p.begin(0);
    JobState a = SplitWorkedExamplesTest.job(p, "a", 0, 1000);
    JobState b = SplitWorkedExamplesTest.job(p, "b", 5000, 6000);
    p.ops.run(p.ops.newPiece(a, 0, 1000), p.ops.node("n1"));
    p.ops.run(p.ops.newPiece(b, 5000, 6000), p.ops.node("n2"));
    p.finish();
    p.cache("n3").insert(5500, 6000, 0);
    // benefit: n1's subjob 0, n2's 500 events x 0.54 -> split n2's; balanced: 0.8 (x - 5000) >=
    // 0.8 (5500 - x) + 0.26 * 500 -> x* = 5332
    List<SplitCommand> c = p.onNodeIdle("n3", 0);
    assertThat(c.get(0)).isEqualTo(new SplitCommand.Shrink("n2", "b/1", 5332));
    assertThat(run(c.get(1)).range()).isEqualTo(EventSpan.of(5332, 6000));
    assertThat(run(c.get(1)).node()).isEqualTo("n3");
  }

  @Test
  void outOfOrderCachedPiecePreemptsUncachedWork() {
    SplitPolicy p = SplitPolicies.create("OUT_OF_ORDER", Map.of("cacheEvents", "5000"));
    p.addNode("n1", 0);
    run(p.onJobArrival(SplitJob.of("x", 10_000, 12_000), 0).get(0)); // uncached: preemptible
    assertThat(p.subjob("x/1").preemptible()).isTrue();
    p.cache("n1").insert(0, 1000, 0);
    List<SplitCommand> c = p.onJobArrival(SplitJob.of("a", 0, 1000), 80); // x at 100
    assertThat(c.get(0)).isEqualTo(new SplitCommand.Suspend("n1", "x/1", 10_100));
    SplitCommand.Run r = run(c.get(1));
    assertThat(r.jobId()).isEqualTo("a");
    assertThat(p.subjob("a/1").preemptible()).isFalse();
    p.acknowledgeStop("x/1", 10_100, 80);
    // a cached arrival while a non-preemptible piece runs waits in Q_n1 ...
    p.cache("n1").insert(3000, 3100, 80);
    assertThat(p.onJobArrival(SplitJob.of("b", 3000, 3100), 90)).isEmpty();
    // ... and goes before the global queue, where x's remainder waits at the front
    SplitCommand.Run next = run(p.onSubjobEnd("n1", "a/1", 1000, 80 + 260).get(0));
    assertThat(next.jobId()).isEqualTo("b");
    SplitCommand.Run then = run(p.onSubjobEnd("n1", "b/1", 3100, 80 + 260 + 26).get(0));
    assertThat(then.subjobId()).isEqualTo("x/2");
    assertThat(then.range()).isEqualTo(EventSpan.of(10_100, 12_000));
  }

  @Test
  void outOfOrderStarvationGuard() {
    SplitPolicy p = SplitPolicies.create("OUT_OF_ORDER", Map.of("cacheEvents", "5000",
        "starve", "100s"));
    p.addNode("n1", 0);
    p.onJobArrival(SplitJob.of("a", 10_000, 10_500), 0); // runs to 400 s
    p.onJobArrival(SplitJob.of("b", 20_000, 20_100), 1); // Q_nc
    assertThat(p.nextTimerAt()).isEqualTo(100); // a's guard timer
    p.cache("n1").insert(0, 100, 2);
    // cached on n1, where a runs uncached (preemptible): c preempts a
    SplitCommand.Suspend stop = (SplitCommand.Suspend) p.onJobArrival(SplitJob.of("c", 0, 100), 2)
        .get(0);
    assertThat(stop.subjobId()).isEqualTo("a/1");
    p.acknowledgeStop("a/1", stop.modelPosition(), 2);
    assertThat(p.runningOn("n1")).isEqualTo("c/1");
    // at c's end (28 s), b is 27 s old: Q_n1 empty, Q_nc front is a's remainder
    SplitCommand.Run r = run(p.onSubjobEnd("n1", "c/1", 100, 28).get(0));
    assertThat(r.jobId()).isEqualTo("a");
    assertThat(p.subjob(r.subjobId()).priority()).isFalse();
    // a's remainder ends at 428: b, in Q_nc since 1 s, is > 100 s old: it runs with priority
    p.onJobArrival(SplitJob.of("d", 30_000, 30_100), 200); // Q_nc, behind b
    SplitCommand.Run s = run(p.onSubjobEnd("n1", r.subjobId(), 10_500, 428).get(0));
    assertThat(s.jobId()).isEqualTo("b");
    assertThat(p.subjob("b/1").priority()).isTrue();
    // a priority subjob is never preempted, even by a cached piece
    p.cache("n1").insert(40_000, 40_100, 430);
    assertThat(p.onJobArrival(SplitJob.of("e", 40_000, 40_100), 430)).isEmpty();
    p.onSubjobEnd("n1", "b/1", 20_100, 508);
    assertThat(p.drainFinished()).filteredOn(o -> o.jobId().equals("b"))
        .singleElement().satisfies(o -> assertThat(o.priority()).isTrue());
  }

  @Test
  void thirdRemoteAccessReplicates() {
    RangeLru owner = new RangeLru(1000);
    owner.insert(0, 600, 1);
    List<EventSpan> g = List.of(EventSpan.of(100, 200));
    assertThat(owner.remoteAccess(g, 3)).isEmpty();
    assertThat(owner.remoteAccess(List.of(EventSpan.of(300, 400)), 3)).isEmpty();
    assertThat(owner.remoteAccess(g, 3)).containsExactly(EventSpan.of(100, 200));
    assertThat(owner.entries()).singleElement()
        .satisfies(e -> assertThat(e.remoteCount()).isZero()); // reset after replication
  }

  @Test
  void replicationVariantReadsRemotelyAndCopiesOnTheThirdAccess() {
    SplitPolicy p = SplitPolicies.create("OUT_OF_ORDER", Map.of("cacheEvents", "5000",
        "replication", "true"));
    p.addNode("n1", 0);
    p.addNode("n2", 0);
    p.cache("n1").insert(0, 1000, 0);
    SplitNode n2 = p.ops.node("n2");
    for (int i = 1; i <= 3; i++) {
      p.begin(i);
      JobState j = SplitWorkedExamplesTest.job(p, "r" + i, 0, 1000);
      List<CostSegment> s = p.model.segmentsFor(n2, 200, 300, true, j);
      p.finish();
      assertThat(s).singleElement().satisfies(seg -> {
        assertThat(seg.source()).isEqualTo(Source.REMOTE);
        assertThat(seg.peer()).isEqualTo("n1");
        assertThat(seg.secondsPerEvent()).isEqualTo(0.26);
      });
      assertThat(s.get(0).cacheAfterRead()).isEqualTo(i == 3);
    }
    assertThat(p.replications()).isEqualTo(1);
    // without the flag: tape
    SplitPolicy q = SplitPolicies.create("OUT_OF_ORDER", Map.of("cacheEvents", "5000"));
    q.addNode("n1", 0);
    q.addNode("n2", 0);
    q.cache("n1").insert(0, 1000, 0);
    q.begin(1);
    JobState j = SplitWorkedExamplesTest.job(q, "t", 0, 1000);
    assertThat(q.model.segmentsFor(q.ops.node("n2"), 200, 300, true, j))
        .singleElement().satisfies(seg -> assertThat(seg.source()).isEqualTo(Source.TAPE));
    q.finish();
  }

  @Test
  void delayedWaitsForThePeriodEndAndLeavesIdleNodesIdle() {
    SplitPolicy p = SplitPolicies.create("DELAYED", Map.of("period", "1h", "stripe", "5000",
        "cacheEvents", "50000"));
    p.addNode("n1", 0);
    p.addNode("n2", 0);
    assertThat(p.onJobArrival(SplitJob.of("a", 0, 3000), 100)).isEmpty();
    assertThat(p.onJobArrival(SplitJob.of("b", 1000, 2000), 200)).isEmpty();
    assertThat(p.nextTimerAt()).isEqualTo(3600);
    List<SplitCommand> c = p.onTimer(3600);
    // one stripe [0, 3000): one meta-subjob {a, b}; n1 takes it all, n2 stays idle (D19)
    assertThat(c).singleElement().satisfies(x -> {
      assertThat(run(x).node()).isEqualTo("n1");
      assertThat(run(x).jobId()).isEqualTo("a");
    });
    assertThat(p.runningOn("n2")).isNull();
    SplitCommand.Run b = run(p.onSubjobEnd("n1", "a/1", 3000, 3600 + 2400).get(0));
    assertThat(b.jobId()).isEqualTo("b");
    assertThat(b.segments()).singleElement()
        .satisfies(s -> assertThat(s.source()).isEqualTo(Source.LOCAL)); // read once from tape
    // d = 0: scheduled at arrival
    SplitPolicy now = SplitPolicies.create("DELAYED", Map.of("period", "0"));
    now.addNode("n1", 0);
    assertThat(now.onJobArrival(SplitJob.of("a", 0, 3000), 5)).hasSize(1);
  }

  @Test
  void rangeLruPinsTheRunningSubjobAndNeverOverflows() {
    RangeLru c = new RangeLru(100);
    c.insert(0, 50, 1);
    c.insert(100, 150, 2);
    c.pin(0, 50); // the running subjob's range; the oldest entry
    c.insert(200, 240, 3);
    assertThat(c.cachedCount(0, 50)).isEqualTo(50); // pinned: [100,150) went first
    assertThat(c.cachedCount(100, 150)).isEqualTo(10);
    // a range larger than what can be freed: only a prefix fits
    assertThat(c.insert(300, 400, 4)).isEqualTo(10 + 40 - 0);
    assertThat(c.used()).isLessThanOrEqualTo(100);
    assertThat(c.cachedCount(0, 50)).isEqualTo(50);
  }

  @Test
  void queuedWorkCountsWaitingJobsThatHaveNoSubjobYet() {
    // FARM cuts a job's subjob only at dispatch: two of three jobs wait on one node.
    SplitPolicy p = SplitPolicies.create("FARM", Map.of("cacheGb", "100"));
    p.addNode("n1", 0);
    p.onJobArrival(SplitJob.of("a", 0, 100), 0);
    p.onJobArrival(SplitJob.of("b", 0, 100), 1);
    p.onJobArrival(SplitJob.of("c", 0, 100), 2);
    assertThat(p.queuedSubjobs()).isZero();
    assertThat(p.queuedWork()).isEqualTo(2);
    // OUT_OF_ORDER queues pieces at arrival: the waiting work is those pieces, each counted once.
    SplitPolicy o = SplitPolicies.create("OUT_OF_ORDER", Map.of("cacheEvents", "1000"));
    o.addNode("n1", 0);
    o.onJobArrival(SplitJob.of("a", 0, 100), 0);
    o.onJobArrival(SplitJob.of("b", 200, 300), 1);
    assertThat(o.queuedWork()).isEqualTo(o.queuedSubjobs()).isPositive();
  }
}
