package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.Scheduler;
import io.locus.core.hybrid.ComplementaryPlace;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.PendingCode;
import io.locus.core.model.ResourceVector;
import io.locus.core.model.Task;
import io.locus.core.split.SplitJob;
import io.locus.core.split.SplitPolicies;
import io.locus.core.split.SplitPolicy;
import io.locus.core.state.PoolState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * "Why pending" (issue 23, docs/policies.md "Pending reasons"): each policy family gives its
 * queued tasks the first code that applies, with the node, time and bytes of a data wait, and
 * the counts of a whole queue agree with the per-task answers.
 */
class PendingExplainerTest {
  private static final long MB = 1_000_000L;

  private static Task task(String id, long seq, int priority, String file, long bytes,
      double compute) {
    return new Task(id, id, 0, seq, List.of(InputFile.of(file, bytes)), compute, 0.0, null,
        List.of(), priority);
  }

  private static List<String> runs(List<Command> cmds) {
    return cmds.stream().filter(c -> c instanceof Command.Run).map(c -> (Command.Run) c)
        .map(r -> r.node() + "<-" + r.task().taskId()).toList();
  }

  /** Every queued task's own answer is what the whole-queue pass counted for it. */
  private static void assertConsistent(PoolState s, Policy p, boolean paused, double now) {
    PendingExplainer.Summary sum = PendingExplainer.explainQueue(s, p, paused, now);
    assertThat(sum.counts().values().stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(s.queueLength());
    Map<PendingCode, Long> each = s.queue().stream()
        .map(t -> PendingExplainer.explain(s, p, paused, t.taskId(), now).code())
        .collect(java.util.stream.Collectors.groupingBy(c -> c,
            java.util.stream.Collectors.counting()));
    each.forEach((c, n) -> assertThat(sum.count(c)).as(c.code()).isEqualTo(n.intValue()));
  }

  /**
   * MCH (and GCC at θ = 0, its MCH mode): e1 holds the 10 MB file of H and runs a 10-second task
   * placed at 0; e2 is free and holds nothing. H waits for e1, forecast free at t = 10, saving
   * its 10 MB; once e1 frees, H is placed there and nothing is pending.
   */
  @ParameterizedTest
  @ValueSource(strings = {"MCH", "GCC"})
  void mchWaitingForAHolderIsALocalityWaitWithTheHolderTheTimeAndTheBytes(String policy) {
    PoolState s = new PoolState();
    Policy p = policy.equals("MCH") ? new MaxCacheHit(10) : new GoodCacheCompute(10, 0.0);
    Scheduler sched = new Scheduler("p", s, p);
    s.registerNode("e1", 1, 1000 * MB, null, 0);
    s.registerNode("e2", 1, 1000 * MB, null, 0);
    s.applyCacheDelta("e1", 1, Map.of("a", 10 * MB, "z", MB), List.of());
    assertThat(runs(sched.onJobArrival(task("blocker", 0, 0, "z", MB, 10), 0)))
        .containsExactly("e1<-blocker");
    assertThat(runs(sched.onJobArrival(task("H", 1, 0, "a", 10 * MB, 5), 1))).isEmpty();

    Pending h = PendingExplainer.explain(s, p, false, "H", 1);
    assertThat(h.code()).isEqualTo(PendingCode.LOCALITY_WAIT);
    assertThat(h.node()).isEqualTo("e1");
    assertThat(h.until()).isEqualTo(10.0);
    assertThat(h.bytesSaved()).isEqualTo(10 * MB);
    assertThat(h.text()).contains("data holder e1", "t=10.0 s", "in 9.0 s", "10.0 MB");
    PendingExplainer.Summary sum = PendingExplainer.explainQueue(s, p, false, 1);
    assertThat(sum.byCode()).containsExactly(Map.entry("locality-wait", 1));
    assertThat(sum.example().taskId()).isEqualTo("H");
    assertConsistent(s, p, false, 1);

    assertThat(runs(sched.onTaskCompleted("blocker", 0, "e1", 0, 0, MB, 10)))
        .containsExactly("e1<-H");
    assertThat(PendingExplainer.explainQueue(s, p, false, 10).byCode()).isEmpty();
    assertThat(PendingExplainer.explain(s, p, false, "H", 10)).as("placed: not pending").isNull();
  }

  /**
   * The Khanna family (MET here): A stages f to n1 and runs there; B reads f, which is now
   * present on n1, so MET maps B to n1 for good. While n1 runs A and n2 is idle, B waits for n1
   * until A's planned completion.
   */
  @Test
  void metMappedToABusyNodeIsALocalityWaitUntilItsPlannedCompletion() {
    PoolState s = new PoolState();
    Policy p = Policies.create("MET", Map.of());
    Scheduler sched = new Scheduler("p", s, p);
    sched.onNodeRegistered("n1", 1, 1000 * MB, null, 0);
    sched.onNodeRegistered("n2", 1, 1000 * MB, null, 0);
    List<Command> a = sched.onJobArrival(task("A", 0, 0, "f", 100 * MB, 50), 0);
    Command.Run runA = (Command.Run) a.stream().filter(c -> c instanceof Command.Run)
        .findFirst().orElseThrow();
    assertThat(runA.node()).isEqualTo("n1");
    sched.onTransferEnd("f", "n1", 1);
    assertThat(runs(sched.onJobArrival(task("B", 1, 0, "f", 100 * MB, 50), 1)))
        .as("mapped to n1, which holds f").isEmpty();
    assertThat(runA.plannedCompletion()).isGreaterThan(1);
    Pending b = PendingExplainer.explain(s, p, false, "B", 1);
    assertThat(b.code()).isEqualTo(PendingCode.LOCALITY_WAIT);
    assertThat(b.node()).isEqualTo("n1");
    assertThat(b.until()).isEqualTo(runA.plannedCompletion());
    assertThat(b.bytesSaved()).as("not priced per job").isEqualTo(-1);
    assertThat(b.text()).contains("data holder n1", "MET mapped it to this node for good")
        .doesNotContain("saves");
    // a planned completion already past (its report not in yet) is no forecast
    assertThat(PendingExplainer.explain(s, p, false, "B", runA.plannedCompletion() + 1).until())
        .isNaN();
  }

  /**
   * EFT on agent caches: the head waits for its best holder at most D = the time its cached
   * bytes save (1 GB from a peer at the 1 Gb/s NIC instead of the local disk at 1.1875 Gb/s:
   * 8 s − 6.737 s), and only while the holder is forecast to free before that deadline.
   */
  @Test
  void eftHeadWaitsForItsHolderUntilItsDeadline() {
    PoolState s = new PoolState();
    Policy p = Policies.create("EFT", Map.of("caches", "agent"));
    Scheduler sched = new Scheduler("p", s, p);
    s.registerNode("e1", 1, 10_000 * MB, null, 0);
    s.registerNode("e2", 1, 10_000 * MB, null, 0);
    s.applyCacheDelta("e1", 1, Map.of("a", 1000 * MB, "z", MB), List.of());
    assertThat(runs(sched.onJobArrival(task("blocker", 0, 0, "z", MB, 1), 0)))
        .containsExactly("e1<-blocker");
    assertThat(runs(sched.onJobArrival(task("H", 1, 0, "a", 1000 * MB, 5), 0.5))).isEmpty();
    Pending h = PendingExplainer.explain(s, p, false, "H", 0.5);
    assertThat(h.code()).isEqualTo(PendingCode.LOCALITY_WAIT);
    assertThat(h.node()).isEqualTo("e1");
    double d = 1e9 / 125e6 - 1e9 / (1.1875e9 / 8);
    assertThat(h.until()).isCloseTo(d, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(h.bytesSaved()).isEqualTo(1000 * MB);
    // past its deadline the head would take the free node: no longer a data wait
    assertThat(PendingExplainer.explain(s, p, false, "H", d + 0.01).code())
        .isNotEqualTo(PendingCode.LOCALITY_WAIT);
  }

  /** GCC below θ is MCU: it never waits for data, so with a free node nothing is a data wait. */
  @Test
  void gccBelowThetaHasNoDataWait() {
    PoolState s = new PoolState();
    s.registerNode("e1", 1, 1000 * MB, null, 0);
    s.registerNode("e2", 1, 1000 * MB, null, 0);
    s.applyCacheDelta("e1", 1, Map.of("a", 10 * MB), List.of());
    s.enqueue(task("H", 1, 0, "a", 10 * MB, 5));
    Task busy = task("b", 0, 0, "z", MB, 10);
    s.enqueue(busy);
    s.assign(busy, "e1", List.of(), "d0", 0);
    assertThat(PendingExplainer.explain(s, new GoodCacheCompute(10, 0.9), false, "H", 1).code())
        .as("utilisation 0.5 < θ 0.9: MCU").isEqualTo(PendingCode.NO_FREE_SLOT);
    assertThat(PendingExplainer.explain(s, new GoodCacheCompute(10, 0.5), false, "H", 1).code())
        .as("utilisation 0.5 >= θ 0.5: MCH").isEqualTo(PendingCode.LOCALITY_WAIT);
  }

  /**
   * One busy slot; two tasks of priority 0, then one of priority 5: the high one is first in line
   * for the slot (no-free-slot, nobody ahead), the others are behind one task of higher priority.
   */
  @ParameterizedTest
  @ValueSource(strings = {"FA", "FCA", "MCU", "MCH", "GCC", "MET", "EFT"})
  void aHigherPriorityQueueGivesPriority(String policy) {
    PoolState s = new PoolState();
    Policy p = Policies.create(policy, Map.of());
    Scheduler sched = new Scheduler("p", s, p);
    sched.onNodeRegistered("n1", 1, 1000 * MB, null, 0);
    assertThat(runs(sched.onJobArrival(task("blocker", 0, 0, "f0", MB, 10), 0))).hasSize(1);
    sched.onJobArrival(task("low1", 1, 0, "f1", MB, 10), 1);
    sched.onJobArrival(task("low2", 2, 0, "f2", MB, 10), 2);
    sched.onJobArrival(task("high", 3, 5, "f3", MB, 10), 3);
    Pending high = PendingExplainer.explain(s, p, false, "high", 3);
    assertThat(high.code()).isEqualTo(PendingCode.NO_FREE_SLOT);
    assertThat(high.ahead()).isZero();
    assertThat(high.text()).contains("every slot busy (1/1)");
    Pending low2 = PendingExplainer.explain(s, p, false, "low2", 3);
    assertThat(low2.code()).isEqualTo(PendingCode.PRIORITY);
    assertThat(low2.ahead()).isEqualTo(1);
    assertThat(low2.text()).contains("behind 1 queued task(s) of higher priority");
    assertThat(PendingExplainer.explainQueue(s, p, false, 3).byCode())
        .containsExactly(Map.entry("priority", 2), Map.entry("no-free-slot", 1));
    assertConsistent(s, p, false, 3);
  }

  /** Plain FIFO with every slot busy: no-free-slot, with the queue position. */
  @Test
  void fifoWithFullSlotsGivesNoFreeSlotWithThePosition() {
    PoolState s = new PoolState();
    Policy p = new FirstAvailable();
    Scheduler sched = new Scheduler("p", s, p);
    sched.onNodeRegistered("n1", 2, 1000 * MB, null, 0);
    for (int i = 0; i < 5; i++) {
      sched.onJobArrival(task("t" + i, i, 0, "f" + i, MB, 10), i);
    }
    assertThat(s.queueLength()).isEqualTo(3);
    Pending t4 = PendingExplainer.explain(s, p, false, "t4", 5);
    assertThat(t4.code()).isEqualTo(PendingCode.NO_FREE_SLOT);
    assertThat(t4.ahead()).isEqualTo(2);
    assertThat(t4.text()).isEqualTo("every slot busy (2/2); 2 queued task(s) ahead of it");
    PendingExplainer.Summary sum = PendingExplainer.explainQueue(s, p, false, 5);
    assertThat(sum.byCode()).containsExactly(Map.entry("no-free-slot", 3));
    assertThat(sum.example()).as("the normal queue needs no explanation").isNull();
  }

  /** COMPLEMENTARY_PLACE reads profiles: a memory share above one node fits no node. */
  @Test
  void aTooLargeProfileGivesNoFit() {
    PoolState s = new PoolState();
    Policy p = ComplementaryPlace.defaults();
    Scheduler sched = new Scheduler("p", s, p);
    sched.onNodeRegistered("n1", 4, 1000 * MB, null, 0);
    Task big = task("big", 0, 0, "f", MB, 1).withProfile(ResourceVector.of(0.5, 1.5, 0.1));
    assertThat(runs(sched.onJobArrival(big, 0))).as("it fits no node").isEmpty();
    Pending why = PendingExplainer.explain(s, p, false, "big", 0);
    assertThat(why.code()).isEqualTo(PendingCode.NO_FIT);
    assertThat(why.text()).contains("exceeds every node");
    // the same task under a policy that reads no profile is simply placed
    PoolState fa = new PoolState();
    Scheduler other = new Scheduler("p", fa, new FirstAvailable());
    other.onNodeRegistered("n1", 4, 1000 * MB, null, 0);
    assertThat(runs(other.onJobArrival(big, 0))).containsExactly("n1<-big");
  }

  /**
   * COMPLEMENTARY_PLACE's locality delay: n1 holds all of t's data and is full (one slot), n2 is
   * free and holds none; t waits for n1 until submission + D_rack (6 s), saving its bytes.
   */
  @Test
  void complementaryPlaceLocalityDelayIsALocalityWaitUntilTheDelayEnds() {
    PoolState s = new PoolState();
    Policy p = ComplementaryPlace.defaults();
    Scheduler sched = new Scheduler("p", s, p);
    sched.onNodeRegistered("n1", 1, 1000 * MB, null, 0);
    sched.onNodeRegistered("n2", 1, 1000 * MB, null, 0);
    s.applyCacheDelta("n1", 1, Map.of("a", 4 * MB), List.of());
    Task small = task("x", 0, 0, "z", MB, 100).withProfile(ResourceVector.of(0.1, 0.1, 0.1));
    s.enqueue(small);
    s.assign(small, "n1", List.of(), "d0", 0);
    Task t = task("t", 1, 0, "a", 4 * MB, 1).withProfile(ResourceVector.of(0.1, 0.1, 0.1));
    assertThat(runs(sched.onJobArrival(t, 0))).isEmpty();
    Pending why = PendingExplainer.explain(s, p, false, "t", 1);
    assertThat(why.code()).isEqualTo(PendingCode.LOCALITY_WAIT);
    assertThat(why.node()).isEqualTo("n1");
    assertThat(why.until()).isEqualTo(6.0);
    assertThat(why.bytesSaved()).isEqualTo(4 * MB);
    // past D_rack it would go anywhere: no longer a data wait
    assertThat(PendingExplainer.explain(s, p, false, "t", 7).code())
        .isNotEqualTo(PendingCode.LOCALITY_WAIT);
  }

  /** Pool-wide reasons come first, for every queued task. */
  @Test
  void pausedNoNodeAndAllDrainingApplyToTheWholeQueue() {
    PoolState s = new PoolState();
    Policy p = new MaxCacheHit(10);
    s.enqueue(task("a", 0, 0, "f", MB, 1));
    s.enqueue(task("b", 1, 3, "g", MB, 1));
    assertThat(PendingExplainer.explainQueue(s, p, false, 0).byCode())
        .containsExactly(Map.entry("no-node", 2));
    assertThat(PendingExplainer.explainQueue(s, p, true, 0).byCode())
        .containsExactly(Map.entry("paused", 2));
    s.registerNode("n1", 1, MB, null, 0);
    s.setDraining("n1", true);
    assertThat(PendingExplainer.explain(s, p, false, "a", 0).code())
        .isEqualTo(PendingCode.ALL_DRAINING);
    assertThat(PendingExplainer.explain(s, p, true, "a", 0).code())
        .as("paused comes before all-draining").isEqualTo(PendingCode.PAUSED);
  }

  /**
   * Past the exact part, a task is counted by the cheap rule (no data lookup): with a limit of 1,
   * the second task MCH holds for its holder counts as waiting for a slot, and the counts still
   * sum to the queue.
   */
  @Test
  void tasksPastTheExactLimitGetTheCheapRule() {
    PoolState s = new PoolState();
    Policy p = new MaxCacheHit(10);
    Scheduler sched = new Scheduler("p", s, p);
    s.registerNode("e1", 1, 1000 * MB, null, 0);
    s.registerNode("e2", 1, 1000 * MB, null, 0);
    s.applyCacheDelta("e1", 1, Map.of("a", 10 * MB, "z", MB), List.of());
    sched.onJobArrival(task("blocker", 0, 0, "z", MB, 10), 0);
    sched.onJobArrival(task("H1", 1, 0, "a", 10 * MB, 5), 1);
    sched.onJobArrival(task("H2", 2, 0, "a", 10 * MB, 5), 1);
    assertThat(PendingExplainer.explainQueue(s, p, false, 1).byCode())
        .containsExactly(Map.entry("locality-wait", 2));
    assertThat(PendingExplainer.explainQueue(s, p, false, 1, 1).byCode())
        .containsExactly(Map.entry("locality-wait", 1), Map.entry("no-free-slot", 1));
    // the holder budget: each task needs 1 + its file's one holder = 2 visits
    assertThat(PendingExplainer.explainQueue(s, p, false, 1, 4096, 3).byCode())
        .containsExactly(Map.entry("locality-wait", 1), Map.entry("no-free-slot", 1));
    assertThat(PendingExplainer.explainQueue(s, p, false, 1, 4096, 4).byCode())
        .containsExactly(Map.entry("locality-wait", 2));
    assertThat(PendingExplainer.explain(s, p, false, "H2", 1).text())
        .isEqualTo("waiting for data holder e1 until t=10.0 s (in 9.0 s), MCH runs a task only "
            + "on a best holder; the wait saves 10.0 MB of transfer");
  }

  /** DELAYED holds a job until its period ends: a locality wait until that time. */
  @Test
  void delayedSplitJobWaitsForItsPeriod() {
    SplitPolicy p = SplitPolicies.create("DELAYED", Map.of("period", "1h", "stripe", "5000",
        "cacheEvents", "50000"));
    p.addNode("n1", 0);
    p.addNode("n2", 0);
    p.onJobArrival(SplitJob.of("a", 0, 3000), 100);
    Pending a = p.pending("a");
    assertThat(a.code()).isEqualTo(PendingCode.LOCALITY_WAIT);
    assertThat(a.until()).isEqualTo(3600.0);
    assertThat(a.text()).contains("t=3600.0 s", "in 3500.0 s");
    assertThat(p.pending().byCode()).containsExactly(Map.entry("locality-wait", 1));
    p.onTimer(3600);
    assertThat(p.pending("a")).as("running").isNull();
    assertThat(p.pending().counts().values().stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(p.queuedWork());
  }

  /** FARM with its one node busy: the next job waits for a free node. */
  @Test
  void farmWithItsNodeBusyGivesNoFreeSlot() {
    SplitPolicy p = SplitPolicies.create("FARM", Map.of());
    p.addNode("n1", 0);
    p.onJobArrival(SplitJob.of("a", 0, 3000), 1);
    p.onJobArrival(SplitJob.of("b", 0, 3000), 2);
    assertThat(p.queuedWork()).isEqualTo(1);
    assertThat(p.pending("b").code()).isEqualTo(PendingCode.NO_FREE_SLOT);
    assertThat(p.pending("b").text()).isEqualTo("every node busy (1/1)");
    assertThat(p.pending().byCode()).containsExactly(Map.entry("no-free-slot", 1));
  }
}
