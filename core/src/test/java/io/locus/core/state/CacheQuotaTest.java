package io.locus.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Per-queue cache bytes in the scheduler-managed caches (docs/policies.md, "Cache bytes per
 * queue"): victims from the queue most over its guarantee, a queue at its limit evicting its own
 * files or streaming, and no change at all without cache fields.
 */
class CacheQuotaTest {
  private static final int U = QueueSpec.UNLIMITED;

  private static Task task(String id, String queue, InputFile... inputs) {
    return new Task(id, id, 0, 0, List.of(inputs), 1.0, 0, null, List.of(), 0, null, List.of(),
        queue);
  }

  private static InputFile file(String id, long bytes) {
    return new InputFile(id, bytes, 0, "s", null);
  }

  private static PoolState pool(QueueTree tree, long cache) {
    PoolState s = new PoolState(StateJournal.NONE, 3, new RetryBackoff(5, 5));
    s.registerNode("n1", 4, cache, "e1", 0);
    s.setQueueTree(tree);
    s.staging().useEviction(StagingState.LRU); // oldest use first: victims are easy to foresee
    return s;
  }

  /** Stages {@code f} for a task of {@code queue} at {@code now} and lets it arrive. */
  private static StagingState.Room stage(PoolState s, String queue, InputFile f, double now,
      Set<String> protect) {
    StagingState st = s.staging();
    StagingState.Room room = st.makeRoom("n1", task("t-" + f.id(), queue, f), List.of(f),
        protect::contains);
    if (!room.streamed().contains(f.id())) {
      st.addInFlight("n1", f, now, room.queue());
      st.transferEnded(f.id(), "n1");
    }
    return room;
  }

  private static QueueTree tree(QueueSpec... specs) {
    return QueueTree.build(List.of(specs), 4);
  }

  @Test
  void aQueueOverItsGuaranteeLosesFilesBeforeOneUnderIt() {
    PoolState s = pool(tree(
        QueueSpec.of("a", null, 1, 0, U).withCache(40L, null),
        QueueSpec.of("b", null, 1, 0, U).withCache(10L, null)), 100);
    stage(s, "a", file("a1", 30), 1, Set.of()); // a: 30 of its 40 guaranteed
    stage(s, "b", file("b1", 30), 2, Set.of());
    stage(s, "b", file("b2", 30), 3, Set.of()); // b: 60, 50 over its 10
    // LRU alone would take a1 (the oldest); b is over its guarantee, a is not
    StagingState.Room room = stage(s, "a", file("a2", 30), 4, Set.of());
    assertThat(room.evicted()).containsExactly("b1");
    assertThat(room.streamed()).isEmpty();
    assertThat(s.staging().cache("n1").chargedBytes("a")).isEqualTo(60);
    assertThat(s.staging().cache("n1").chargedBytes("b")).isEqualTo(30);

    // now a (60) is 20 over its 40 and b (30) is 20 over its 10: a tie goes by name, to a
    room = stage(s, "b", file("b3", 30), 5, Set.of());
    assertThat(room.evicted()).containsExactly("a1");
  }

  @Test
  void filesUnderTheirGuaranteeGoOnlyWhenNothingElseCan() {
    PoolState s = pool(tree(
        QueueSpec.of("a", null, 1, 0, U).withCache(50L, null),
        QueueSpec.of("b", null, 1, 0, U)), 60);
    stage(s, "a", file("a1", 30), 1, Set.of());
    stage(s, "b", file("b1", 30), 2, Set.of());
    // b's only file is pinned (a running task reads it): a's guaranteed file is all that is left
    StagingState.Room room = stage(s, "b", file("b2", 30), 3, Set.of("b1"));
    assertThat(room.evicted()).containsExactly("a1");
  }

  @Test
  void aQueueAtItsLimitEvictsItsOwnFilesFirst() {
    PoolState s = pool(tree(
        QueueSpec.of("a", null, 1, 0, U).withCache(null, 60L),
        QueueSpec.of("b", null, 1, 0, U)), 1000);
    stage(s, "b", file("b1", 30), 1, Set.of()); // the oldest file, but not a's
    stage(s, "a", file("a1", 30), 2, Set.of());
    stage(s, "a", file("a2", 30), 3, Set.of());
    // the cache has room, but a is at its limit: it does not grow
    StagingState.Room room = stage(s, "a", file("a3", 30), 4, Set.of());
    assertThat(room.evicted()).containsExactly("a1");
    assertThat(room.streamed()).isEmpty();
    assertThat(s.staging().cache("n1").chargedBytes("a")).isEqualTo(60);
    assertThat(s.staging().cache("n1").contains("b1")).isTrue();
  }

  @Test
  void aQueueAtItsLimitThatCannotEvictItsOwnStreamsTheFile() {
    PoolState s = pool(tree(
        QueueSpec.of("a", null, 1, 0, U).withCache(null, 60L),
        QueueSpec.of("b", null, 1, 0, U)), 1000);
    stage(s, "b", file("b1", 30), 1, Set.of());
    stage(s, "a", file("a1", 30), 2, Set.of());
    stage(s, "a", file("a2", 30), 3, Set.of());
    // a1 and a2 are read by a running task: nothing of a's can go, so a4 is not cached
    StagingState.Room room = stage(s, "a", file("a4", 30), 4, Set.of("a1", "a2"));
    assertThat(room.streamed()).containsExactly("a4");
    assertThat(room.evicted()).isEmpty();
    assertThat(s.staging().cache("n1").files()).containsExactlyInAnyOrder("b1", "a1", "a2");
    // a file larger than the limit itself is streamed without evicting anything
    room = stage(s, "a", file("big", 70), 5, Set.of());
    assertThat(room.streamed()).containsExactly("big");
    assertThat(room.evicted()).isEmpty();
  }

  @Test
  void aParentsLimitCoversItsChildren() {
    PoolState s = pool(tree(
        QueueSpec.of("eng", null, 1, 0, U).withCache(null, 60L),
        QueueSpec.of("ml", "eng", 1, 0, U),
        QueueSpec.of("web", "eng", 1, 0, U)), 1000);
    stage(s, "ml", file("m1", 30), 1, Set.of());
    stage(s, "web", file("w1", 30), 2, Set.of());
    StagingState.Room room = stage(s, "web", file("w2", 30), 3, Set.of());
    assertThat(room.evicted()).containsExactly("m1"); // eng's own oldest, a sibling's
  }

  /**
   * The same staging sequence, with LRU and with VALUE, in a pool without a tree (makeSpace, as
   * before queues), without a tree via makeRoom, and with a tree that sets no cache bytes: the same
   * victims every time, nothing streamed.
   */
  @Test
  void withoutCacheFieldsTheVictimsAreThoseOfToday() {
    for (String eviction : List.of(StagingState.LRU, StagingState.VALUE)) {
      QueueTree noCache = tree(QueueSpec.of("a", null, 1, 0, U), QueueSpec.of("b", null, 1, 0, U));
      List<List<String>> before = run(null, eviction, true);
      assertThat(before.stream().mapToInt(List::size).sum()).isGreaterThan(3);
      assertThat(run(null, eviction, false)).isEqualTo(before);
      assertThat(run(noCache, eviction, false)).isEqualTo(before);
    }
  }

  private static List<List<String>> run(QueueTree tree, String eviction, boolean plainMakeSpace) {
    PoolState s = pool(tree, 100);
    s.staging().useEviction(eviction);
    StagingState st = s.staging();
    List<List<String>> victims = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      InputFile f = file("f" + (i * 7 % 11), 10 + (i * 13 % 5) * 10);
      if (st.cache("n1").contains(f.id())) {
        st.recordAccess(f.id());
        st.touch("n1", List.of(f.id()), i);
        continue;
      }
      String queue = i % 2 == 0 ? "a" : "b";
      List<String> evicted;
      if (plainMakeSpace) {
        evicted = st.makeSpace("n1", f.bytes(), x -> false);
        st.addInFlight("n1", f, i);
      } else {
        StagingState.Room room = st.makeRoom("n1", task("t" + i, tree == null ? null : queue, f),
            List.of(f), x -> false);
        assertThat(room.streamed()).isEmpty();
        evicted = room.evicted();
        st.addInFlight("n1", f, i, room.queue());
      }
      st.recordAccess(f.id());
      st.transferEnded(f.id(), "n1");
      victims.add(evicted);
    }
    return victims;
  }

  /** The staged files and their charges as the journal has them (what the operator persists). */
  private static final class Recorder implements StateJournal {
    final Map<String, Object[]> files = new LinkedHashMap<>();
    final Map<String, String> charges = new LinkedHashMap<>();

    @Override
    public void stagedFileUpdated(String node, String file, long bytes, boolean inFlight,
        double lastUse) {
      files.put(file, new Object[] {bytes, inFlight, lastUse});
    }

    @Override
    public void stagedFileRemoved(String node, String file) {
      files.remove(file);
      charges.remove(file);
    }

    @Override
    public void stagedFileCharged(String node, String file, String queue) {
      charges.put(file, queue);
    }
  }

  /** A pool restored from its journal charges and evicts exactly as the one that wrote it. */
  @Test
  void chargesSurviveARestore() {
    QueueTree t = tree(
        QueueSpec.of("a", null, 1, 0, U).withCache(20L, 60L),
        QueueSpec.of("b", null, 1, 0, U).withCache(30L, null));
    Recorder rec = new Recorder();
    PoolState live = new PoolState(rec, 3, new RetryBackoff(5, 5));
    live.registerNode("n1", 4, 100, "e1", 0);
    live.setQueueTree(t);
    live.staging().useEviction(StagingState.LRU);
    for (int i = 0; i < 6; i++) {
      stage(live, i % 3 == 0 ? "b" : "a", file("f" + i, 20), i, Set.of());
    }
    assertThat(rec.charges).isNotEmpty();

    PoolState restored = new PoolState(StateJournal.NONE, 3, new RetryBackoff(5, 5));
    restored.registerNode("n1", 4, 100, "e1", 0);
    restored.setQueueTree(t);
    restored.staging().useEviction(StagingState.LRU);
    for (Map.Entry<String, Object[]> e : rec.files.entrySet()) {
      Object[] v = e.getValue();
      restored.staging().restoreStagedFile("n1", e.getKey(), (Long) v[0], (Boolean) v[1],
          (Double) v[2]);
    }
    for (Map.Entry<String, String> e : rec.charges.entrySet()) {
      restored.staging().restoreStagedCharge("n1", e.getKey(), e.getValue());
    }
    restored.staging().finishRestore();

    for (String q : List.of("a", "b")) {
      assertThat(restored.staging().cache("n1").chargedBytes(q))
          .isEqualTo(live.staging().cache("n1").chargedBytes(q));
    }
    for (int i = 6; i < 14; i++) {
      String q = i % 3 == 0 ? "b" : "a";
      InputFile f = file("f" + i, 10 + (i % 4) * 10);
      StagingState.Room a = stage(live, q, f, i, Set.of());
      StagingState.Room b = stage(restored, q, f, i, Set.of());
      assertThat(b).isEqualTo(a);
    }
  }
}
