package io.locus.core.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.state.PoolState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * DEMAND's victim order: files no queued task reads first (least recently used first); then, among
 * needed files, the cheapest to read again: a file another node also holds before a sole copy,
 * then the fewest queued readers, then the least recently used. The pool state answers the demand.
 */
class DemandAwareTest {
  private static final long MB10 = 10_000_000L;

  /** A demand table the test sets by hand. */
  private static final class Table implements FileDemand {
    final Map<String, Integer> readers = new HashMap<>();
    final Map<String, Integer> copies = new HashMap<>();

    @Override
    public int queuedReaders(String file) {
      return readers.getOrDefault(file, 0);
    }

    @Override
    public int copies(String file) {
      return copies.getOrDefault(file, 1);
    }
  }

  private static List<String> evictAll(EvictionPolicy p, List<String> files) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      String v = p.victim(f -> false);
      out.add(v);
      p.onRemove(v);
    }
    assertThat(p.victim(f -> false)).isNull();
    return out;
  }

  @Test
  void unneededFilesGoFirstThenTheCheapestToReadAgain() {
    Table d = new Table();
    EvictionPolicy p = EvictionPolicies.create("demand", 0, d);
    List<String> files = List.of("a", "b", "c", "d", "e", "f");
    for (String f : files) {
      p.onInsert(f, MB10);
    }
    d.readers.put("a", 3); // sole copy, 3 readers
    d.readers.put("c", 1); // sole copy, 1 reader
    d.readers.put("e", 5); // 5 readers, but another node holds it
    d.copies.put("e", 2);
    d.readers.put("f", 1); // sole copy, 1 reader, more recent than c
    // b and d: no queued reader
    assertThat(evictAll(p, files)).containsExactly("b", "d", "e", "c", "f", "a");
  }

  @Test
  void recencyOrdersEqualsAndPinnedFilesAreSkipped() {
    Table d = new Table();
    EvictionPolicy p = new DemandAware(d);
    for (String f : List.of("a", "b", "c")) {
      p.onInsert(f, MB10);
    }
    p.onAccess("a"); // order now b, c, a
    assertThat(p.victim(f -> false)).isEqualTo("b");
    assertThat(p.victim(f -> f.equals("b"))).isEqualTo("c");
    d.readers.put("b", 1);
    d.readers.put("c", 1);
    assertThat(p.victim(f -> false)).as("a is unneeded now").isEqualTo("a");
    assertThat(p.victim(f -> f.equals("a"))).isEqualTo("b");
    assertThat(p.victim(f -> true)).isNull();
  }

  @Test
  void theDemandIsReadLiveAtEachChoice() {
    Table d = new Table();
    EvictionPolicy p = new DemandAware(d);
    p.onInsert("a", MB10);
    p.onInsert("b", MB10);
    d.readers.put("a", 1);
    assertThat(p.victim(f -> false)).isEqualTo("b");
    d.readers.put("b", 2);
    d.readers.remove("a");
    assertThat(p.victim(f -> false)).isEqualTo("a");
  }

  @Test
  void createdOnlyWithTheDemand() {
    assertThatThrownBy(() -> EvictionPolicies.create("DEMAND", 1))
        .hasMessageContaining("needs the pool's FileDemand");
    assertThatThrownBy(() -> EvictionPolicies.create("DEMAND", 1, (FileDemand) null))
        .hasMessageContaining("needs the pool's FileDemand");
    assertThat(EvictionPolicies.create("lru", 1, new Table()).name()).isEqualTo("LRU");
    assertThat(EvictionPolicies.NAMES).contains("DEMAND");
    assertThatThrownBy(() -> EvictionPolicies.create("VALUE", 1, new Table()))
        .hasMessageContaining("FileStats");
  }

  @Test
  void thePoolStateAnswersFromItsQueueAndCacheIndex() {
    PoolState s = new PoolState();
    s.registerNode("e1", 2, 100 * MB10, null, 0);
    s.registerNode("e2", 2, 100 * MB10, null, 0);
    s.applyCacheDelta("e1", 1, Map.of("a", MB10, "b", MB10), List.of());
    s.applyCacheDelta("e2", 1, Map.of("a", MB10), List.of());
    Task t1 = Task.of("t1", 1, 0, 0.01, InputFile.of("a", MB10), InputFile.of("c", MB10));
    Task t2 = Task.of("t2", 2, 0, 0.01, InputFile.of("a", MB10));
    s.enqueue(t1);
    s.enqueue(t2);
    assertThat(s.queuedReaders("a")).isEqualTo(2);
    assertThat(s.queuedReaders("b")).isZero();
    assertThat(s.queuedReaders("c")).isEqualTo(1);
    assertThat(s.copies("a")).isEqualTo(2);
    assertThat(s.copies("b")).isEqualTo(1);
    s.assign(t1, "e1", s.plan(t1, s.node("e1"), true), "d1", 0);
    assertThat(s.queuedReaders("a")).as("a placed task no longer counts").isEqualTo(1);
    assertThat(s.queuedReaders("c")).isZero();

    // on a node's cache: b (no reader) leaves before a (one queued reader), whatever the recency
    NodeCache cache = new NodeCache(2 * MB10, EvictionPolicies.create("DEMAND", 0, s));
    cache.insert("a", MB10);
    cache.insert("b", MB10);
    cache.touch("b");
    assertThat(cache.insert("z", MB10).evicted()).containsExactly("b");
  }
}
