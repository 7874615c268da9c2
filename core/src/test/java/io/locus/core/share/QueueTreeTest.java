package io.locus.core.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The queue tree: every refusal with its reason, the default queue, resolving a job's queue. */
class QueueTreeTest {
  private static final int U = QueueSpec.UNLIMITED;

  private static List<String> problems(int poolSlots, QueueSpec... specs) {
    return QueueTree.problems(List.of(specs), poolSlots);
  }

  @Test
  void aValidTreeHasItsQueuesLeavesAndPaths() {
    QueueTree t = QueueTree.build(List.of(
        QueueSpec.of("eng", null, 2, 40, 60),
        QueueSpec.of("ml", "eng", 1, 30, 60),
        QueueSpec.of("web", "eng", 1, 10, 20),
        QueueSpec.of("ops", null, 1, 10, U)), 64);
    assertThat(t.leaves()).containsExactly("default", "ml", "ops", "web");
    assertThat(t.children(null)).containsExactly("default", "eng", "ops");
    assertThat(t.children("eng")).containsExactly("ml", "web");
    assertThat(t.lineage("web")).containsExactly("eng", "web");
    assertThat(t.path("ml")).isEqualTo("root.eng.ml");
    assertThat(t.isDefaultOnly()).isFalse();
    assertThat(t.spec("default")).isEqualTo(QueueSpec.defaultQueue());
  }

  @Test
  void aPoolWithoutQueuesHasTheDefaultQueueAlone() {
    QueueTree t = QueueTree.defaultOnly();
    assertThat(t.isDefaultOnly()).isTrue();
    assertThat(t.leaves()).containsExactly("default");
    assertThat(t.resolve(null).queue()).isEqualTo("default");
    assertThat(t.resolve("  ").queue()).isEqualTo("default");
  }

  @Test
  void theDefaultQueueMayBeDeclaredButNotGivenChildren() {
    QueueTree t = QueueTree.build(List.of(QueueSpec.of("default", null, 3, 2, 8)), 10);
    assertThat(t.spec("default").weight()).isEqualTo(3.0);
    assertThat(problems(-1, QueueSpec.of("x", "default", 1, 0, U))).containsExactly(
        "queue 'x': the default queue 'default' cannot have children (jobs without a queue run in"
            + " it)");
  }

  @Test
  void anUnknownQueueIsRefusedWithTheLeavesNamed() {
    QueueTree t = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 0, U)), -1);
    QueueTree.Resolution r = t.resolve("b");
    assertThat(r.ok()).isFalse();
    assertThat(r.queue()).isNull();
    assertThat(r.refusal()).isEqualTo("unknown queue 'b' (this pool's queues: a, default)");
    assertThat(t.resolve("a").queue()).isEqualTo("a");
  }

  @Test
  void aParentQueueIsRefusedForAJob() {
    QueueTree t = QueueTree.build(List.of(QueueSpec.of("eng", null, 1, 0, U),
        QueueSpec.of("ml", "eng", 1, 0, U)), -1);
    assertThat(t.resolve("eng").refusal())
        .isEqualTo("queue 'eng' has child queues; a job runs in one of them: ml");
    Task task = Task.of("t1", 1, 0, 1, InputFile.of("f", 1)).withQueue("eng");
    assertThatThrownBy(() -> t.leafOf(task)).hasMessageContaining("task t1: queue 'eng'");
    assertThat(t.leafOf(task.withQueue("ml"))).isEqualTo("ml");
    assertThat(t.leafOf(task.withQueue(null))).isEqualTo("default");
  }

  @Test
  void duplicateName() {
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 0, U), QueueSpec.of("a", null, 2, 0, U)))
        .containsExactly("queue 'a' is declared twice (specs 1 and 2)");
  }

  @Test
  void namesOutsideTheCharset() {
    assertThat(problems(-1, QueueSpec.of("a.b", null, 1, 0, U))).containsExactly(
        "queue name 'a.b' has a character outside [A-Za-z0-9_-] at index 1");
    assertThat(problems(-1, QueueSpec.of("-a", null, 1, 0, U))).containsExactly(
        "queue name '-a' must start with a letter or a digit");
    assertThat(problems(-1, QueueSpec.of("", null, 1, 0, U))).containsExactly(
        "a queue has no name");
    assertThat(problems(-1, QueueSpec.of(null, null, 1, 0, U))).containsExactly(
        "a queue has no name");
    assertThat(problems(-1, QueueSpec.of("x\ny", null, 1, 0, U))).containsExactly(
        "queue name 'x\\u000ay' has a character outside [A-Za-z0-9_-] at index 1");
    assertThat(problems(-1, QueueSpec.of("q".repeat(64), null, 1, 0, U))).containsExactly(
        "queue name 'qqqqqqqqqqqqqqqqqqqq...' is 64 characters long (at most 63)");
    assertThat(problems(-1, QueueSpec.of("Team_A-1", null, 1, 0, U))).isEmpty();
  }

  @Test
  void weightMustBePositiveAndFinite() {
    assertThat(problems(-1, QueueSpec.of("a", null, 0, 0, U))).containsExactly(
        "queue 'a': weight must be a finite number > 0, got 0.0");
    assertThat(problems(-1, QueueSpec.of("a", null, -1, 0, U))).containsExactly(
        "queue 'a': weight must be a finite number > 0, got -1.0");
    assertThat(problems(-1, QueueSpec.of("a", null, Double.NaN, 0, U))).containsExactly(
        "queue 'a': weight must be a finite number > 0, got NaN");
    assertThat(problems(-1, QueueSpec.of("a", null, Double.POSITIVE_INFINITY, 0, U)))
        .containsExactly("queue 'a': weight must be a finite number > 0, got Infinity");
  }

  @Test
  void guaranteeAboveLimitAndNegatives() {
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 5, 4))).containsExactly(
        "queue 'a': guarantee 5 is above its limit 4");
    assertThat(problems(-1, QueueSpec.of("a", null, 1, -1, 4))).containsExactly(
        "queue 'a': guaranteed slots must be >= 0, got -1");
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 0, -2))).containsExactly(
        "queue 'a': limit must be >= 0, got -2");
  }

  @Test
  void lendingLimit() {
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 4, 8).withLendingLimit(5))).containsExactly(
        "queue 'a': lending limit 5 is above its guarantee 4 (a queue lends only what it is"
            + " guaranteed)");
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 4, 8).withLendingLimit(-1)))
        .containsExactly("queue 'a': lending limit must be >= 0, got -1");
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 4, 8).withLendingLimit(4))).isEmpty();
    assertThat(QueueSpec.of("a", null, 1, 4, 8).withLendingLimit(1).reservedSlots()).isEqualTo(3);
    assertThat(QueueSpec.of("a", null, 1, 4, 8).reservedSlots()).isZero();
  }

  @Test
  void cacheBytes() {
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 0, U).withCache(10L, 5L))).containsExactly(
        "queue 'a': cache guarantee 10 B is above its cache limit 5 B");
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 0, U).withCache(-1L, null)))
        .containsExactly("queue 'a': cache guarantee must be >= 0 bytes, got -1");
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 0, U).withCache(null, -3L)))
        .containsExactly("queue 'a': cache limit must be >= 0 bytes, got -3");
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 0, U).withCache(5L, 5L))).isEmpty();
  }

  @Test
  void maxWait() {
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 0, U).withMaxWait(0.0))).containsExactly(
        "queue 'a': max wait must be a finite number of seconds > 0, got 0.0");
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 0, U).withMaxWait(Double.NaN)))
        .containsExactly("queue 'a': max wait must be a finite number of seconds > 0, got NaN");
    assertThat(problems(-1, QueueSpec.of("a", null, 1, 0, U).withMaxWait(172_800.0))).isEmpty();
  }

  @Test
  void unknownParent() {
    assertThat(problems(-1, QueueSpec.of("a", "nope", 1, 0, U))).containsExactly(
        "queue 'a': parent 'nope' is not a queue");
  }

  @Test
  void cyclesAreNamedOnceFromTheirLowestName() {
    assertThat(problems(-1, QueueSpec.of("b", "c", 1, 0, U), QueueSpec.of("c", "a", 1, 0, U),
        QueueSpec.of("a", "b", 1, 0, U), QueueSpec.of("d", "a", 1, 0, U))).containsExactly(
        "queues form a cycle: a -> b -> c -> a (each queue's parent is the next)");
    assertThat(problems(-1, QueueSpec.of("s", "s", 1, 0, U))).containsExactly(
        "queues form a cycle: s -> s (each queue's parent is the next)");
  }

  @Test
  void childrensGuaranteesOverCommittingTheirParentOrThePool() {
    assertThat(problems(-1, QueueSpec.of("p", null, 1, 10, U), QueueSpec.of("x", "p", 1, 6, U),
        QueueSpec.of("y", "p", 1, 5, U))).containsExactly(
        "children of 'p' guarantee 11 slots, more than its own guarantee of 10");
    assertThat(problems(20, QueueSpec.of("p", null, 1, 12, U), QueueSpec.of("q", null, 1, 9, U)))
        .containsExactly("top-level queues guarantee 21 slots, more than the pool's 20");
    // Unknown pool size: only the queues' own guarantees are checked.
    assertThat(problems(-1, QueueSpec.of("p", null, 1, 12, U), QueueSpec.of("q", null, 1, 9, U)))
        .isEmpty();
  }

  @Test
  void aChildsLimitAboveItsParents() {
    assertThat(problems(-1, QueueSpec.of("p", null, 1, 0, 10), QueueSpec.of("c", "p", 1, 0, 11)))
        .containsExactly("queue 'c': limit 11 is above its parent 'p''s limit 10");
    assertThat(problems(-1, QueueSpec.of("p", null, 1, 0, 10), QueueSpec.of("c", "p", 1, 0, U)))
        .containsExactly("queue 'c': limit none is above its parent 'p''s limit 10");
  }

  @Test
  void everyProblemIsReportedAndNothingIsBuilt() {
    List<QueueSpec> bad = List.of(QueueSpec.of("a", null, -1, 5, 4),
        QueueSpec.of("b", "zz", 1, 0, U), QueueSpec.of("a", null, 1, 0, U));
    assertThatThrownBy(() -> QueueTree.build(bad, 10))
        .isInstanceOfSatisfying(QueueConfigException.class, e -> assertThat(e.problems())
            .containsExactly("queue 'a': weight must be a finite number > 0, got -1.0",
                "queue 'a': guarantee 5 is above its limit 4",
                "queue 'a' is declared twice (specs 1 and 3)",
                "queue 'b': parent 'zz' is not a queue"))
        .hasMessageContaining("; ");
  }

  @Test
  void diffSaysWhatChanges() {
    QueueTree before = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 2, 8),
        QueueSpec.of("b", null, 1, 0, U)), 16);
    QueueTree after = QueueTree.build(List.of(QueueSpec.of("a", null, 2, 2, 10).withMaxWait(60.0),
        QueueSpec.of("c", null, 1, 4, U).withLendingLimit(1)), 16);
    QueueTreeDiff d = before.diff(after);
    assertThat(d.describe()).containsExactly(
        "~ queue 'a': weight 1 -> 2; limit 8 -> 10; max wait - -> 60.0",
        "- queue 'b'",
        "+ queue 'c' (parent -, weight 1, guaranteed 4, limit none, lending limit 1)");
    assertThat(before.diff(before).isEmpty()).isTrue();
    assertThat(d.changes().get(0).kind()).isEqualTo(QueueTreeDiff.Kind.CHANGED);
  }
}
