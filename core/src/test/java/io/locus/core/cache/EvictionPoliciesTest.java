package io.locus.core.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EvictionPoliciesTest {
  private static final long MB10 = 10_000_000L;
  private static final long MIB = 1L << 20;

  /** Data-diffusion spec §8 E4: 30 MB; insert a (t1), b (t2), c (t3); hit a (t4); insert d (t5). */
  private static NodeCache.Insert e4(EvictionPolicy p) {
    NodeCache c = new NodeCache(3 * MB10, p);
    c.insert("a", MB10);
    c.insert("b", MB10);
    c.insert("c", MB10);
    assertThat(c.touch("a")).isTrue();
    return c.insert("d", MB10);
  }

  @Test
  void e4VictimsOfLruFifoAndLfu() {
    assertThat(e4(new Lru()).evicted()).containsExactly("b");
    assertThat(e4(new Fifo()).evicted()).containsExactly("a");
    Lfu lfu = new Lfu();
    assertThat(e4(lfu).evicted()).containsExactly("b"); // counts a = 2, b = 1, c = 1; tie by LRU
    assertThat(lfu.count("a")).isEqualTo(2);
    assertThat(lfu.count("c")).isEqualTo(1);
    assertThat(lfu.count("b")).isZero();
  }

  /** E4: a file pinned by a running task is never chosen; the next candidate in order goes. */
  @Test
  void e4PinnedFilesAreSkipped() {
    for (EvictionPolicy p : List.of(new Lru(), new Fifo(), new Lfu())) {
      NodeCache c = new NodeCache(3 * MB10, p);
      c.insert("a", MB10);
      c.insert("b", MB10);
      c.insert("c", MB10);
      c.touch("a");
      c.pin("a");
      c.pin("b");
      assertThat(c.insert("d", MB10).evicted()).as(p.name()).containsExactly("c");
    }
  }

  @Test
  void lfuCountsStartAtOneAndTiesGoToTheLeastRecentlyUsed() {
    Lfu lfu = new Lfu();
    NodeCache c = new NodeCache(3 * MB10, lfu);
    c.insert("x", MB10);
    c.insert("y", MB10);
    c.touch("x");
    c.touch("y"); // both at 2; x was used longer ago
    c.insert("z", MB10); // 1
    assertThat(c.insert("w", MB10).evicted()).containsExactly("z");
    assertThat(c.insert("v", MB10).evicted()).containsExactly("w");
    c.touch("v");
    // x, y, v all at 2: x is the least recently used of them
    assertThat(c.insert("u", MB10).evicted()).containsExactly("x");
  }

  /** Hypergraph spec §8 T7: needs 80 MiB with 10 MiB free → evicts D, B, C and keeps A. */
  @Test
  void t7ValueEvictsByAccessFreqTimesSizeOverCopies() {
    FileStats stats = new FileStats();
    Value value = new Value(stats);
    NodeCache c = new NodeCache((64 + 4 + 64 + 4 + 10) * MIB, value);
    stat(stats, "A", 3, 2);
    stat(stats, "B", 5, 1);
    stat(stats, "C", 1, 1);
    stat(stats, "D", 2, 2);
    c.insert("A", 64 * MIB);
    c.insert("B", 4 * MIB);
    c.insert("C", 64 * MIB);
    c.insert("D", 4 * MIB);
    assertThat(value.value("A")).isCloseTo(96, within(1e-12));
    assertThat(value.value("B")).isCloseTo(20, within(1e-12));
    assertThat(value.value("C")).isCloseTo(64, within(1e-12));
    assertThat(value.value("D")).isCloseTo(4, within(1e-12));
    NodeCache.Insert r = c.insert("new", 80 * MIB);
    assertThat(r.evicted()).containsExactly("D", "B", "C");
    assertThat(c.contents().keySet()).containsExactlyInAnyOrder("A", "new");
  }

  @Test
  void valueBreaksEqualValuesByLeastRecentUse() {
    FileStats stats = new FileStats();
    NodeCache c = new NodeCache(3 * MIB, new Value(stats));
    for (String f : List.of("p", "q", "r")) {
      stat(stats, f, 1, 1);
      c.insert(f, MIB);
    }
    c.touch("p");
    assertThat(c.insert("s", MIB).evicted()).containsExactly("q");
  }

  private static void stat(FileStats stats, String f, int freq, int copies) {
    for (int i = 0; i < freq; i++) {
      stats.recordAccess(f);
    }
    for (int i = 0; i < copies; i++) {
      stats.addCopy(f);
    }
  }

  @Test
  void valueNeedsThePoolsStatistics() {
    assertThatThrownBy(() -> EvictionPolicies.create("VALUE", 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("FileStats");
    assertThat(EvictionPolicies.create("value", 1, new FileStats()).name()).isEqualTo("VALUE");
    assertThatThrownBy(() -> EvictionPolicies.create("MRU", 1))
        .hasMessageContaining("LRU, FIFO, LFU, RANDOM, VALUE");
  }

  private static List<String> randomVictims(long seed) {
    NodeCache c = new NodeCache(20 * MB10, new RandomEviction(seed));
    Random ops = new Random(3);
    List<String> victims = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      victims.addAll(c.insert("f" + ops.nextInt(100), MB10).evicted());
    }
    return victims;
  }

  @Test
  void randomIsDeterministicForASeed() {
    List<String> a = randomVictims(42);
    assertThat(a).hasSizeGreaterThan(1000).isEqualTo(randomVictims(42));
    assertThat(randomVictims(43)).isNotEqualTo(a);
  }

  @Test
  void randomNeverPicksAPinnedFileAndReachesEveryUnpinnedOne() {
    RandomEviction r = new RandomEviction(7);
    Set<String> pinned = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      r.onInsert("f" + i, 1);
      if (i % 10 != 0) {
        pinned.add("f" + i); // 45 of 50 pinned: exercises the fallback scan too
      }
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 500; i++) {
      String v = r.victim(pinned::contains);
      assertThat(pinned).doesNotContain(v);
      seen.add(v);
    }
    assertThat(seen).containsExactlyInAnyOrder("f0", "f10", "f20", "f30", "f40");
    pinned.addAll(seen);
    assertThat(r.victim(pinned::contains)).isNull();
  }

  /** Random churn with pins and mixed sizes: capacity never exceeded, pinned files never evicted. */
  @ParameterizedTest
  @ValueSource(strings = {"LRU", "FIFO", "LFU", "RANDOM", "VALUE"})
  void capacityIsNeverExceededAndPinsHold(String name) {
    FileStats stats = new FileStats();
    NodeCache c = new NodeCache(50 * MB10, EvictionPolicies.create(name, 11, stats));
    Random rnd = new Random(5);
    List<String> pinned = new ArrayList<>();
    long evictions = 0;
    for (int i = 0; i < 20_000; i++) {
      String f = "f" + rnd.nextInt(300);
      stats.recordAccess(f);
      if (!c.touch(f)) {
        NodeCache.Insert r = c.insert(f, (1 + rnd.nextInt(8)) * MB10);
        for (String v : r.evicted()) {
          assertThat(c.isPinned(v)).as("evicted pinned %s", v).isFalse();
        }
        for (String v : r.evicted()) {
          stats.removeCopy(v);
        }
        evictions += r.evicted().size();
        if (r.cached()) {
          stats.addCopy(f);
        }
      }
      if (rnd.nextInt(10) == 0 && c.contains(f)) {
        c.pin(f);
        pinned.add(f);
      }
      if (pinned.size() > 5) {
        c.unpin(pinned.remove(0));
      }
      assertThat(c.used()).isLessThanOrEqualTo(c.capacity());
    }
    assertThat(evictions).isGreaterThan(1000);
    long sum = c.contents().values().stream().mapToLong(Long::longValue).sum();
    assertThat(sum).isEqualTo(c.used());
  }
}
