package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Late binding in the core (issue 13 protocol): a node holds placed attempts beyond its slots in
 * a local queue; the free pool has two tiers (free slot, then free queue position); a slot left
 * free withdraws an unstarted attempt from an overfull node.
 */
class LateBindingTest {
  private static Task task(String id, long seq, String file) {
    return Task.of(id, seq, 0, 1.0, InputFile.of(file, 100));
  }

  private static Scheduler scheduler(Policy p) {
    return new Scheduler("p", new PoolState(), p);
  }

  private static List<Command.Run> runs(List<Command> cmds) {
    return cmds.stream().filter(Command.Run.class::isInstance).map(Command.Run.class::cast)
        .toList();
  }

  private static List<Command.Withdraw> withdraws(List<Command> cmds) {
    return cmds.stream().filter(Command.Withdraw.class::isInstance)
        .map(Command.Withdraw.class::cast).toList();
  }

  private static String placedOn(List<Command> cmds, String taskId) {
    return runs(cmds).stream().filter(r -> r.task().taskId().equals(taskId)).findFirst()
        .map(Command.Run::node).orElse(null);
  }

  @Test
  void faChoosesAFreeSlotBeforeAnOlderQueuePosition() {
    Scheduler s = scheduler(new FirstAvailable());
    s.applyNodeRegistered("a", 1, 2, 0, null, 0);
    assertThat(placedOn(s.onJobArrival(task("t1", 1, "f"), 0), "t1")).isEqualTo("a");
    // a now has only queue positions; b registers later (a later free order) with a free slot
    s.applyNodeRegistered("b", 1, 2, 0, null, 0);
    assertThat(s.state().firstFree().id()).isEqualTo("b");
    assertThat(placedOn(s.onJobArrival(task("t2", 2, "f"), 0), "t2")).isEqualTo("b");
    // no free slot anywhere: the first node with a queue position (a, first to fill its slots)
    List<Command> cmds = s.onJobArrival(task("t3", 3, "f"), 0);
    assertThat(placedOn(cmds, "t3")).isEqualTo("a");
    assertThat(s.state().freePool()).extracting(NodeView::id).containsExactly("a", "b");
  }

  @Test
  void mchChoosesAFreeBestHolderBeforeOneWithOnlyAQueuePosition() {
    Scheduler s = scheduler(new MaxCacheHit(100));
    s.applyNodeRegistered("a", 1, 2, 1000, null, 0);
    s.applyCacheSnapshot("a", 1, Map.of("f", 100L));
    assertThat(placedOn(s.onJobArrival(task("t1", 1, "f"), 0), "t1")).isEqualTo("a");
    s.applyNodeRegistered("b", 1, 2, 1000, null, 0);
    s.applyCacheSnapshot("b", 1, Map.of("f", 100L));
    assertThat(placedOn(s.onJobArrival(task("t2", 2, "f"), 0), "t2")).isEqualTo("b");
  }

  @Test
  void mchPlacesOnABusyBestHoldersQueuePositionInsteadOfWaiting() {
    Scheduler s = scheduler(new MaxCacheHit(100));
    s.applyNodeRegistered("a", 1, 1, 1000, null, 0);
    s.applyCacheSnapshot("a", 1, Map.of("f", 100L));
    s.applyNodeRegistered("c", 1, 0, 1000, null, 0); // free, but holds nothing of f
    assertThat(placedOn(s.onJobArrival(task("t1", 1, "f"), 0), "t1")).isEqualTo("a");
    assertThat(placedOn(s.onJobArrival(task("t2", 2, "f"), 0), "t2")).isEqualTo("a");
    // a's slot and its one queue position are taken: t3 waits for a best holder (MCH)
    assertThat(runs(s.onJobArrival(task("t3", 3, "f"), 0))).isEmpty();
    assertThat(s.state().queueLength()).isEqualTo(1);
    assertThat(s.state().node("a").busy()).isEqualTo(2);
    assertThat(s.state().busySlots()).isEqualTo(1);
  }

  @Test
  void aNodeTakesAtMostSlotsPlusQueueDepthAndUtilisationCountsSlotsOnly() {
    Scheduler s = scheduler(new FirstAvailable());
    s.applyNodeRegistered("a", 2, 3, 0, null, 0);
    for (int i = 1; i <= 6; i++) {
      s.applyJobArrival(task("t" + i, i, "f"));
    }
    List<Command> cmds = s.dispatch(0);
    assertThat(runs(cmds)).hasSize(5);
    PoolState st = s.state();
    assertThat(st.queueLength()).isEqualTo(1);
    assertThat(st.node("a").busy()).isEqualTo(5);
    assertThat(st.node("a").beyondSlots()).isEqualTo(3);
    assertThat(st.busySlots()).isEqualTo(2);
    assertThat(st.utilization()).isEqualTo(1.0);
    assertThat(st.firstFree()).isNull();
    Task last = st.queue().iterator().next();
    assertThatThrownBy(() -> st.assign(last, "a", List.of(), "d", 0))
        .isInstanceOf(IllegalStateException.class);
    // one completion frees a queue position (the agent starts a queued attempt in the slot)
    assertThat(runs(s.onTaskCompleted("t1", 0, "a", 0, 0, 100, 1))).hasSize(1);
    assertThat(st.busySlots()).isEqualTo(2);
  }

  @Test
  void withdrawTakesTheMostRecentUnstartedAttemptFromTheMostOverfullNode() {
    Scheduler s = scheduler(new FirstAvailable());
    s.applyNodeRegistered("a", 1, 2, 0, null, 0);
    s.applyNodeRegistered("z", 1, 1, 0, null, 0);
    for (int i = 1; i <= 5; i++) {
      s.applyJobArrival(task("t" + i, i, "g"));
    }
    // a: t1 (slot), z: t2 (slot), then queue positions: a t3 t4, z t5
    List<Command> first = s.dispatch(0);
    assertThat(runs(first)).extracting(Command.Run::node)
        .containsExactly("a", "z", "a", "a", "z");
    assertThat(withdraws(first)).isEmpty();
    s.applyTaskStarted("t1", 0, "a"); // the attempts in the slots started
    s.applyTaskStarted("t2", 0, "z");
    s.applyNodeRegistered("b", 2, 0, 0, null, 1);
    List<Command> cmds = s.dispatch(1);
    // b has 2 free slots: a (2 beyond) gives t4, then a and z tie at 1 beyond: a (lower id), t3
    assertThat(withdraws(cmds)).extracting(Command.Withdraw::taskId, Command.Withdraw::node,
        Command.Withdraw::forNode).containsExactly(
            org.assertj.core.groups.Tuple.tuple("t4", "a", "b"),
            org.assertj.core.groups.Tuple.tuple("t3", "a", "b"));
    assertThat(s.state().isWithdrawing("t4")).isTrue();
    // at most one withdraw in flight per free slot: nothing more while both are unanswered
    assertThat(withdraws(s.dispatch(2))).isEmpty();
    // t3 had started after all: the refusal clears its mark; z's t5 is asked for instead
    s.applyTaskStarted("t3", 0, "a");
    assertThat(s.applyWithdrawRefused("t3", 0)).isTrue();
    assertThat(withdraws(s.dispatch(3))).extracting(Command.Withdraw::taskId)
        .containsExactly("t5");
  }

  @Test
  void withdrawNeedsTheFreeNodeToBeAtLeastAsGoodAHolder() {
    Scheduler s = scheduler(new FirstAvailable());
    s.applyNodeRegistered("a", 1, 2, 1000, null, 0);
    s.applyCacheSnapshot("a", 1, Map.of("f", 100L));
    s.applyJobArrival(task("t1", 1, "f"));
    s.applyJobArrival(task("t2", 2, "g")); // nobody holds g: any node is as good
    s.applyJobArrival(task("t3", 3, "f")); // a holds f: a node without it is worse
    assertThat(runs(s.dispatch(0))).hasSize(3);
    s.applyNodeRegistered("b", 1, 0, 1000, null, 1);
    List<Command> cmds = s.dispatch(1);
    // t3 is the most recent but b holds less of it than a: t2 goes instead
    assertThat(withdraws(cmds)).extracting(Command.Withdraw::taskId).containsExactly("t2");

    // once b holds f as well (≥), the most recent one is taken
    Scheduler s2 = scheduler(new FirstAvailable());
    s2.applyNodeRegistered("a", 1, 2, 1000, null, 0);
    s2.applyCacheSnapshot("a", 1, Map.of("f", 100L));
    s2.applyJobArrival(task("t1", 1, "f"));
    s2.applyJobArrival(task("t2", 2, "g"));
    s2.applyJobArrival(task("t3", 3, "f"));
    s2.dispatch(0);
    s2.applyNodeRegistered("b", 1, 0, 1000, null, 1);
    s2.applyCacheSnapshot("b", 1, Map.of("f", 100L));
    assertThat(withdraws(s2.dispatch(1))).extracting(Command.Withdraw::taskId)
        .containsExactly("t3");
  }

  @Test
  void startedAttemptsAreNeverWithdrawn() {
    Scheduler s = scheduler(new FirstAvailable());
    s.applyNodeRegistered("a", 1, 1, 0, null, 0);
    s.applyJobArrival(task("t1", 1, "g"));
    s.applyJobArrival(task("t2", 2, "g"));
    s.dispatch(0);
    s.applyTaskStarted("t1", 0, "a");
    s.applyTaskStarted("t2", 0, "a"); // e.g. adopted: the agent runs it whatever
    assertThat(s.state().running("t2").started()).isTrue();
    s.applyNodeRegistered("b", 1, 0, 0, null, 1);
    assertThat(withdraws(s.dispatch(1))).isEmpty();
  }

  @Test
  void anAttemptAdoptedFromItsStartedIsNeverWithdrawn() {
    Scheduler s = scheduler(new FirstAvailable());
    s.applyNodeRegistered("a", 1, 0, 0, null, 0);
    s.applyJobArrival(task("t1", 1, "g"));
    s.applyJobArrival(task("t2", 2, "g"));
    s.dispatch(0);
    s.applyTaskStarted("t1", 0, "a");
    // a replayed STARTED of t2 on a: it runs there beyond a's slots (reconciliation)
    assertThat(s.applyTaskAdopted("t2", 0, "a", "p/t2/0", 1)).isNotNull();
    assertThat(s.state().overfull()).extracting(NodeView::id).containsExactly("a");
    s.applyNodeRegistered("b", 1, 0, 0, null, 1);
    assertThat(withdraws(s.dispatch(1))).isEmpty();
  }

  @Test
  void withdrawnAttemptGoesBackToItsQueuePositionAsASparedAttempt() {
    Scheduler s = scheduler(new FirstAvailable());
    s.applyNodeRegistered("a", 1, 1, 0, null, 0);
    s.applyJobArrival(task("t1", 1, "g"));
    s.applyJobArrival(task("t2", 2, "g"));
    s.dispatch(0);
    s.applyNodeRegistered("b", 1, 0, 0, null, 1);
    assertThat(withdraws(s.dispatch(1))).extracting(Command.Withdraw::taskId)
        .containsExactly("t2");
    s.applyJobArrival(task("t3", 3, "g")); // arrives after t2; b takes it meanwhile
    assertThat(runs(s.dispatch(2))).extracting(Command.Run::node).containsExactly("b");
    // the other direction: t3 finishes, then a's withdraw comes back
    s.applyTaskCompleted("t3", 0, "b", 0, 0, 100);
    PoolState st = s.state();
    long failures = st.counters().failures;
    long retries = st.counters().retries;
    assertThat(s.applyTaskWithdrawn("t2", 0, "a")).isEqualTo(PoolState.EndOutcome.REQUEUED);
    assertThat(st.isWithdrawing("t2")).isFalse();
    Task back = st.queued("t2");
    assertThat(back.seq()).isEqualTo(2);
    assertThat(back.attempt()).isEqualTo(1);
    assertThat(st.sparedAttempts("t2")).isEqualTo(1);
    assertThat(st.counters().failures).isEqualTo(failures);
    assertThat(st.counters().retries).isEqualTo(retries);
    assertThat(st.node("a").busy()).isEqualTo(1);
    // a duplicate is ignored; the next round places attempt 1 on b's free slot
    assertThat(s.applyTaskWithdrawn("t2", 0, "a")).isEqualTo(PoolState.EndOutcome.IGNORED);
    List<Command> cmds = s.dispatch(3);
    assertThat(runs(cmds)).extracting(r -> r.task().taskId() + "#" + r.task().attempt() + "@"
        + r.node()).containsExactly("t2#1@b");
  }

  @Test
  void queueDepthZeroKeepsOneTierAndNoWithdraw() {
    Scheduler s = scheduler(new FirstAvailable());
    s.applyNodeRegistered("a", 1, 0, 0, null, 0);
    s.applyJobArrival(task("t1", 1, "g"));
    s.applyJobArrival(task("t2", 2, "g"));
    assertThat(runs(s.dispatch(0))).hasSize(1);
    assertThat(s.state().freePool()).isEmpty();
    s.applyNodeRegistered("b", 1, 0, 0, null, 1);
    List<Command> cmds = s.dispatch(1);
    assertThat(withdraws(cmds)).isEmpty();
    assertThat(placedOn(cmds, "t2")).isEqualTo("b");
  }

  @Test
  void aHeartbeatsSmallerQueueDepthStopsFurtherQueuedPlacements() {
    Scheduler s = scheduler(new FirstAvailable());
    s.applyNodeRegistered("a", 1, 2, 0, null, 0);
    s.applyJobArrival(task("t1", 1, "g"));
    s.applyJobArrival(task("t2", 2, "g"));
    assertThat(runs(s.dispatch(0))).hasSize(2);
    s.applyQueueDepth("a", 0);
    assertThat(s.state().firstFree()).isNull();
    assertThat(runs(s.onJobArrival(task("t3", 3, "g"), 1))).isEmpty();
    assertThatThrownBy(() -> s.applyQueueDepth("a", -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void maxQueueDepthIsAValidatedPoolParameterOfEveryFilePolicy() {
    assertThat(Policies.maxQueueDepth(Map.of())).isEqualTo(16);
    assertThat(Policies.maxQueueDepth(Map.of("maxQueueDepth", "4"))).isEqualTo(4);
    assertThat(Policies.create("FA", Map.of("maxQueueDepth", "0")).name()).isEqualTo("FA");
    assertThat(Policies.create("COMPLEMENTARY_PLACE", Map.of("maxqueuedepth", "2")).name())
        .isEqualTo("COMPLEMENTARY_PLACE");
    assertThatThrownBy(() -> Policies.create("MCH", Map.of("maxQueueDepth", "-1")))
        .hasMessageContaining("maxQueueDepth");
    assertThatThrownBy(() -> Policies.create("GCC", Map.of("maxQueueDepth", "x")))
        .hasMessageContaining("maxQueueDepth");
    assertThatThrownBy(() -> Policies.maxQueueDepth(Map.of("maxQueueDepth", "100000")))
        .hasMessageContaining("maxQueueDepth");
  }

  @Test
  void startedIsWrittenThroughOnlyWhereAWithdrawIsPossible() {
    java.util.List<String> written = new java.util.ArrayList<>();
    io.locus.core.state.StateJournal journal = new io.locus.core.state.StateJournal() {
      @Override
      public void taskUpdated(Task task, io.locus.core.state.RunningTask running) {
        if (running != null && running.started()) {
          written.add(task.taskId() + "@" + running.node());
        }
      }
    };
    Scheduler s = new Scheduler("p", new PoolState(journal, PoolState.DEFAULT_MAX_RETRIES),
        new FirstAvailable());
    s.applyNodeRegistered("plain", 1, 0, 0, null, 0);
    assertThat(placedOn(s.onJobArrival(task("t1", 1, "f"), 0), "t1")).isEqualTo("plain");
    assertThat(s.applyTaskStarted("t1", 0, "plain")).isTrue();
    assertThat(s.state().running("t1").started()).isTrue(); // on the heap
    assertThat(written).isEmpty(); // no local queue: nothing to write
    s.applyNodeRegistered("queued", 1, 2, 0, null, 0);
    assertThat(placedOn(s.onJobArrival(task("t2", 2, "f"), 0), "t2")).isEqualTo("queued");
    assertThat(s.applyTaskStarted("t2", 0, "queued")).isTrue();
    assertThat(written).containsExactly("t2@queued");
  }

  /**
   * Issue 22: the withdraw rule skips free nodes that hold the same of the queued attempts' files
   * as one already found fruitless (what made the 1,000-node demo stall); the withdraws it emits
   * must be exactly those of the plain scan, free node by free node, on the same state. Random
   * pools: one-slot nodes with local queues, random caches, MCH placing onto holders' queues,
   * then some nodes' running attempts completing (free slots) without a dispatch.
   */
  @Test
  void skippingEquivalentFreeNodesEmitsExactlyThePlainScansWithdraws() {
    int withdrawsSeen = 0;
    for (int seed = 0; seed < 40; seed++) {
      Scheduler fast = randomPool(seed);
      Scheduler plain = randomPool(seed);
      Dispatch d1 = new Dispatch("p", fast.state(), 1);
      WithdrawRule.apply(d1);
      Dispatch d2 = new Dispatch("p", plain.state(), 1);
      plainScan(d2);
      assertThat(d1.commands()).as("seed " + seed).isEqualTo(d2.commands());
      withdrawsSeen += withdraws(d1.commands()).size();
    }
    assertThat(withdrawsSeen).as("the scenarios exercise the rule").isGreaterThan(20);
  }

  private static Scheduler randomPool(long seed) {
    java.util.Random rnd = new java.util.Random(seed);
    Scheduler s = scheduler(new MaxCacheHit(100));
    int nodes = 30 + rnd.nextInt(30);
    for (int n = 0; n < nodes; n++) {
      String id = String.format("n%02d", n);
      s.applyNodeRegistered(id, 1, 3, 10_000, null, 0);
      Map<String, Long> cache = new java.util.HashMap<>();
      for (int f = 0; f < 8; f++) {
        if (rnd.nextInt(4) == 0) {
          cache.put("f" + f, 100L);
        }
      }
      s.applyCacheSnapshot(id, 1, cache);
    }
    for (int t = 0; t < nodes * 3; t++) {
      s.onJobArrival(Task.of("t" + t, t + 1, 0, 1.0, InputFile.of("f" + rnd.nextInt(8), 100)), 0);
    }
    // Some nodes finish the attempt in their slot; the slots stay free until the next round.
    for (io.locus.core.state.NodeView n : new java.util.ArrayList<>(s.state().nodes())) {
      if (rnd.nextInt(3) == 0) {
        for (io.locus.core.state.RunningTask r : s.state().placedOn(n.id())) {
          s.applyTaskStarted(r.task().taskId(), r.task().attempt(), n.id());
          s.applyTaskCompleted(r.task().taskId(), r.task().attempt(), n.id(), 0, 0, 100);
          break;
        }
      }
    }
    return s;
  }

  /** The rule before issue 22's skip: every free node scans the sources. */
  private static void plainScan(Dispatch d) {
    io.locus.core.state.PoolState s = d.state();
    if (s.overfull().isEmpty() || s.freeSlotPool().isEmpty()) {
      return;
    }
    java.util.PriorityQueue<?> from = null;
    for (NodeView b : new java.util.ArrayList<>(s.freeSlotPool())) {
      int want = b.freeSlots() - s.withdrawsTo(b.id());
      if (want <= 0) {
        continue;
      }
      if (from == null) {
        from = WithdrawRule.sourcesForTest(s);
      }
      while (want > 0 && !from.isEmpty()) {
        io.locus.core.state.RunningTask t = WithdrawRule.candidateForTest(s, b, from);
        if (t == null) {
          break;
        }
        s.markWithdrawing(t.task().taskId(), b.id());
        d.emit(new Command.Withdraw(t.node(), t.task().taskId(), t.task().attempt(), b.id(),
            "a slot is free on " + b.id()));
        want--;
      }
      if (from.isEmpty()) {
        return;
      }
    }
  }
}
