package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.Priority;
import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.state.PoolState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Priority orders the queue of every file policy (docs/policies.md, "Priority"): a task of higher
 * priority that arrived after lower ones is placed first; with equal priorities nothing changes.
 */
class PriorityDispatchTest {
  private static final long MB = 1_000_000L;
  static final List<String> FILE_POLICIES = Policies.NAMES;

  private static Task task(String id, long seq, int priority, String file, long bytes,
      double compute) {
    return new Task(id, id, 0, seq, List.of(InputFile.of(file, bytes)), compute, 0.0, null,
        List.of(), priority);
  }

  private static List<String> runs(List<Command> cmds) {
    return cmds.stream().filter(c -> c instanceof Command.Run).map(c -> (Command.Run) c)
        .map(r -> r.node() + "<-" + r.task().taskId()).toList();
  }

  @Test
  void queueIsPriorityFirstThenArrival() {
    PoolState s = new PoolState();
    s.enqueue(task("a", 1, 0, "f1", 1, 1));
    s.enqueue(task("b", 2, 5, "f2", 1, 1));
    s.enqueue(task("c", 3, -3, "f3", 1, 1));
    s.enqueue(task("d", 4, 5, "f4", 1, 1));
    s.enqueue(task("e", 5, 0, "f5", 1, 1));
    assertThat(s.queue()).extracting(Task::taskId).containsExactly("b", "d", "a", "e", "c");
    // a state rebuilt from its persisted tasks (in any order) has the same queue
    PoolState r = new PoolState();
    List<Task> persisted = new java.util.ArrayList<>(s.queue());
    java.util.Collections.reverse(persisted);
    for (Task t : persisted) {
      r.restoreQueued(t);
    }
    r.finishRestore();
    assertThat(r.queue()).extracting(Task::taskId).containsExactly("b", "d", "a", "e", "c");
  }

  @Test
  void rankIsSeqAtPriorityZeroAndRefusesOutOfRange() {
    assertThat(Priority.rank(0, 42)).isEqualTo(42);
    assertThat(Priority.rank(Priority.MAX, Priority.SEQ_LIMIT - 1))
        .isLessThan(Priority.rank(Priority.MAX - 1, 0));
    assertThat(Priority.rank(Priority.MIN + 1, Priority.SEQ_LIMIT - 1))
        .isLessThan(Priority.rank(Priority.MIN, 0));
    assertThatThrownBy(() -> Priority.rank(1001, 1)).hasMessageContaining("[-1000, 1000]");
    assertThatThrownBy(() -> Priority.check(-1001)).hasMessageContaining("priority -1001");
  }

  /**
   * One node with one slot, busy; two tasks of priority 0 arrive, then one of priority
   * {@code late} that is worse by every other measure (last, more bytes, longer compute). When
   * the slot frees, the next start is the late task iff it has the higher priority: in every
   * file policy.
   */
  @ParameterizedTest
  @FieldSource("FILE_POLICIES")
  void laterHigherPriorityTaskStartsFirst(String policy) {
    assertThat(nextStart(policy, 7)).isEqualTo("n1<-late");
    // equal priorities: the policy's own choice, never the late task
    assertThat(nextStart(policy, 0)).isIn("n1<-low1", "n1<-low2");
  }

  private static String nextStart(String policy, int late) {
    PoolState s = new PoolState();
    Scheduler sched = new Scheduler("p", s, Policies.create(policy, Map.of()));
    sched.onNodeRegistered("n1", 1, 1000 * MB, null, 0);
    List<Command> first = sched.onJobArrival(task("blocker", 0, 0, "f0", MB, 10), 0);
    assertThat(runs(first)).containsExactly("n1<-blocker");
    assertThat(runs(sched.onJobArrival(task("low1", 1, 0, "f1", MB, 10), 1))).isEmpty();
    assertThat(runs(sched.onJobArrival(task("low2", 2, 0, "f2", MB, 10), 2))).isEmpty();
    assertThat(runs(sched.onJobArrival(task("late", 3, late, "f3", 5 * MB, 100), 3))).isEmpty();
    List<Command> next = sched.onTaskCompleted("blocker", 0, "n1", 0, 0, MB, 20);
    assertThat(runs(next)).hasSize(1);
    return runs(next).get(0);
  }

  /**
   * MCH (and GCC at θ = 0): e1 holds a and is busy, e2 holds b and is free. L1 (a) and L2 (b)
   * arrived before H (a, higher priority). L2 may take e2 while H waits for e1 (e2 is no holder
   * of H's data: H could not use it); when e1 frees, H starts there before the earlier L1.
   */
  @ParameterizedTest
  @ValueSource(strings = {"MCH", "GCC"})
  void mchLowerPriorityOnlyTakesNodesTheHigherOneWouldNotUse(String policy) {
    assertThat(mchRun(policy, 5)).containsExactly("e2<-L2", "e1<-H");
    assertThat(mchRun(policy, 0)).containsExactly("e2<-L2", "e1<-L1");
  }

  private static List<String> mchRun(String policy, int high) {
    PoolState s = new PoolState();
    Policy p = policy.equals("MCH") ? new MaxCacheHit(10) : new GoodCacheCompute(10, 0.0);
    Scheduler sched = new Scheduler("p", s, p);
    s.registerNode("e1", 1, 1000 * MB, null, 0);
    s.registerNode("e2", 1, 1000 * MB, null, 0);
    s.applyCacheDelta("e1", 1, Map.of("a", 10 * MB, "z", MB), List.of());
    s.applyCacheDelta("e2", 1, Map.of("b", 10 * MB), List.of());
    Task blocker = task("blocker", 0, 0, "z", MB, 10);
    s.enqueue(blocker);
    s.assign(blocker, "e1", s.plan(blocker, s.node("e1"), true), "d0", 0);
    s.enqueue(task("L1", 1, 0, "a", 10 * MB, 1));
    s.enqueue(task("L2", 2, 0, "b", 10 * MB, 1));
    s.enqueue(task("H", 3, high, "a", 10 * MB, 1));
    List<String> out = new java.util.ArrayList<>(runs(sched.dispatch(1)));
    out.addAll(runs(sched.onTaskCompleted("blocker", 0, "e1", MB, 0, 0, 2)));
    return out;
  }

  /**
   * MCU: the only free node e1 holds all of L's data and none of H's; with one slot, it takes H,
   * which arrived later with a higher priority (priority before the hit fraction).
   */
  @Test
  void mcuServesPriorityBeforeHits() {
    assertThat(mcuRun(5)).containsExactly("e1<-H");
    assertThat(mcuRun(0)).containsExactly("e1<-L");
  }

  private static List<String> mcuRun(int high) {
    PoolState s = new PoolState();
    s.registerNode("e1", 1, 1000 * MB, null, 0);
    s.applyCacheDelta("e1", 1, Map.of("a", 10 * MB), List.of());
    s.enqueue(task("L", 1, 0, "a", 10 * MB, 1));
    s.enqueue(task("H", 2, high, "x", 10 * MB, 1));
    return runs(new Scheduler("p", s, new MaxComputeUtil(10)).dispatch(1));
  }

  /**
   * EFT (agent caches): H's only holder e1 is busy for long, L's holder e2 is free. Once H's
   * locality wait is over it takes e2 before L, the lower-priority task that has its data there;
   * at equal priority L goes to its holder and H waits, as before.
   */
  @Test
  void eftHeadPastItsWaitGoesBeforeALowerPriorityHolderTask() {
    assertThat(eftRun(5)).containsExactly("e2<-H");
    assertThat(eftRun(0)).containsExactly("e2<-L");
  }

  private static List<String> eftRun(int high) {
    PoolState s = new PoolState();
    s.registerNode("e1", 1, 1, 10_000 * MB, null, 0);
    s.registerNode("e2", 1, 1, 10_000 * MB, null, 0);
    s.applyCacheDelta("e1", 1, Map.of("a", 1000 * MB, "z", MB), List.of());
    s.applyCacheDelta("e2", 1, Map.of("b", 1000 * MB), List.of());
    Task blocker = task("blocker", 0, 0, "z", MB, 1e6);
    s.enqueue(blocker);
    s.assign(blocker, "e1", s.plan(blocker, s.node("e1"), true), "d0", 0);
    // a second queue position on e1 is taken too, so e1 cannot take anything now
    Task blocker2 = task("blocker2", 1, 0, "z", MB, 1e6);
    s.enqueue(blocker2);
    s.assign(blocker2, "e1", s.plan(blocker2, s.node("e1"), true), "d1", 0);
    s.enqueue(task("H", 2, high, "a", 1000 * MB, 1));
    s.enqueue(task("L", 3, 0, "b", 1000 * MB, 1));
    EarliestFinish eft = new EarliestFinish(CostModel.DEFAULT, 10,
        EarliestFinish.DEFAULT_NIC_GBPS, EarliestFinish.DEFAULT_DISK_GBPS,
        EarliestFinish.Caches.AGENT);
    List<String> out = runs(new Scheduler("p", s, eft).dispatch(100));
    return out.isEmpty() ? out : List.of(out.get(0));
  }
}
