package io.locus.sim.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.Task;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The per-queue measures on a case small enough to check by hand: a pool of 2 slots, queues a and
 * b with a guarantee of 1 slot each.
 *
 * <pre>
 *   0 .. 10  a runs 2 tasks, b has nothing        alone: not contended
 *  10 .. 15  b's task waits (a holds both slots)  fair shares 1 and 1: errors 1/2 each, Jain 0.5
 *  15 .. 20  a 1 slot, b 1 slot                   errors 0, Jain 1
 *  20        everything ends
 * </pre>
 *
 * So: 10 s contended; Jain (0.5 · 5 + 1 · 5) / 10 = 0.75; each queue's share error (0.5 · 5) / 10
 * = 0.25 of the pool; b starved from 10 to 15: 5 s to its guarantee.
 */
class QueueRecorderTest {
  private static final QueueTree TREE = QueueTree.build(List.of(
      QueueSpec.of("a", null, 1, 1, QueueSpec.UNLIMITED),
      QueueSpec.of("b", null, 1, 1, QueueSpec.UNLIMITED)), 2);

  private static Task task(String id, String queue, double submit) {
    return new Task(id, id, 0, 0, List.of(), 1, submit, null, List.of(), 0, null, List.of(),
        queue);
  }

  @Test
  void theHandCheckedCase() {
    QueueRecorder r = new QueueRecorder(TREE);
    Task a1 = task("a1", "a", 0);
    Task a2 = task("a2", "a", 0);
    Task b1 = task("b1", "b", 10);
    r.queued(a1);
    r.queued(a2);
    r.placed(a1);
    r.placed(a2);
    r.advance(0, 10, 2);
    r.queued(b1);
    r.advance(10, 15, 2);
    r.ended("a1");
    r.completed(a1, 15);
    r.placed(b1);
    r.read(b1, 0, 300);
    r.read(b1, 2, 100);
    r.advance(15, 20, 2);
    r.ended("a2");
    r.completed(a2, 20);
    r.ended("b1");
    r.completed(b1, 10);
    r.advance(20, 25, 2);
    QueueMetrics m = r.result(25, 0, null);

    assertThat(m.contendedSeconds()).isEqualTo(10.0);
    assertThat(m.meanJain()).isCloseTo(0.75, within(1e-12));
    assertThat(m.minJain()).isCloseTo(0.5, within(1e-12));
    assertThat(m.meanShareError()).isCloseTo(0.25, within(1e-12));
    QueueMetrics.Queue a = m.queue("a");
    QueueMetrics.Queue b = m.queue("b");
    assertThat(a.activeSeconds()).isEqualTo(20.0);
    assertThat(a.contendedSeconds()).isEqualTo(10.0);
    assertThat(a.meanShare()).isCloseTo(0.75, within(1e-12)); // 2 then 1 slot of 2
    assertThat(a.meanFairShare()).isCloseTo(0.5, within(1e-12));
    assertThat(a.meanShareError()).isCloseTo(0.25, within(1e-12));
    assertThat(a.starvedEpisodes()).isZero();
    assertThat(a.firstToGuarantee()).isNaN();
    assertThat(b.activeSeconds()).isEqualTo(10.0);
    assertThat(b.meanShare()).isCloseTo(0.25, within(1e-12));
    assertThat(b.meanShareError()).isCloseTo(0.25, within(1e-12));
    assertThat(b.starvedEpisodes()).isEqualTo(1);
    assertThat(b.firstStarvedAt()).isEqualTo(10.0);
    assertThat(b.firstToGuarantee()).isEqualTo(5.0);
    assertThat(b.openAtEnd()).isFalse();
    assertThat(a.completed()).isEqualTo(2);
    assertThat(a.meanResponse()).isEqualTo(17.5);
    assertThat(a.p99Response()).isEqualTo(20.0);
    assertThat(b.bytes()).containsExactly(300, 0, 100);
    assertThat(b.byteShare(0)).isEqualTo(0.75);
    assertThat(m.queue("default")).isNull(); // never held work

    // per second: at 12 (between 10 and 15) a holds 2, b 0, both with a fair share of 1
    QueueMetrics.QueueSeries s = m.series();
    assertThat(s.names()).containsExactly("a", "b");
    assertThat(s.running()[0][12]).isEqualTo(2);
    assertThat(s.fairShare()[1][12]).isEqualTo(1);
    assertThat(s.jain()[12]).isEqualTo(0.5);
    assertThat(s.jain()[5]).isNaN(); // a alone
    assertThat(s.jain()[17]).isEqualTo(1.0);
  }

  @Test
  void aQueueStillBelowItsGuaranteeAtTheEndIsCountedToTheEndAndMarked() {
    QueueRecorder r = new QueueRecorder(TREE);
    r.queued(task("a1", "a", 0));
    r.queued(task("a2", "a", 0));
    r.placed(task("a1", "a", 0));
    r.placed(task("a2", "a", 0));
    r.queued(task("b1", "b", 0));
    r.advance(0, 8, 2);
    QueueMetrics.Queue b = r.result(8, 0, null).queue("b");
    assertThat(b.firstToGuarantee()).isEqualTo(8.0);
    assertThat(b.openAtEnd()).isTrue();
  }

  @Test
  void aTaskOfAQueueTheTreeLacksIsRefusedWithTheTreesReason() {
    QueueRecorder r = new QueueRecorder(TREE);
    Task x = task("x1", "nope", 0);
    assertThat(r.leafOf(x)).isNull();
    assertThat(r.refusal(x)).isEqualTo("unknown queue 'nope' (this pool's queues: a, b, default)");
    assertThat(r.leafOf(task("d", null, 0))).isEqualTo("default");
    assertThatThrownBy(() -> r.queued(x)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown queue 'nope'");
  }

  @Test
  void endsAndRetriesAreCountedOnceEach() {
    QueueRecorder r = new QueueRecorder(TREE);
    Task a1 = task("a1", "a", 0);
    r.queued(a1);
    r.placed(a1);
    r.requeued("a1"); // a retry: pending again, no slot
    r.requeued("a1"); // nothing placed: nothing happens
    r.advance(0, 1, 2); // a is active (pending) for 1 s
    r.placed(a1);
    r.ended("a1");
    r.ended("a1"); // a second report of the same end changes nothing (the ledger would throw)
    assertThatCode(() -> r.ended("never-placed")).doesNotThrowAnyException();
    r.advance(1, 3, 2); // nothing left: a is not active
    assertThat(r.placedIds()).isEmpty();
    assertThat(r.result(3, 0, null).queue("a").activeSeconds()).isEqualTo(1.0);
  }
}
