package io.locus.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NodeCacheTest {
  private static final long MB10 = 10_000_000L;

  /** Data-diffusion spec §8 E4: 30 MB cache; insert a, b, c; hit a; insert d → LRU evicts b. */
  @Test
  void lruEvictsLeastRecentlyUsed() {
    NodeCache c = new NodeCache(3 * MB10, new Lru());
    c.insert("a", MB10);
    c.insert("b", MB10);
    c.insert("c", MB10);
    assertThat(c.touch("a")).isTrue();
    NodeCache.Insert r = c.insert("d", MB10);
    assertThat(r.cached()).isTrue();
    assertThat(r.evicted()).containsExactly("b");
    assertThat(c.contents().keySet()).containsExactlyInAnyOrder("a", "c", "d");
  }

  @Test
  void pinnedFilesAreNeverVictims() {
    NodeCache c = new NodeCache(3 * MB10, new Lru());
    c.insert("a", MB10);
    c.insert("b", MB10);
    c.insert("c", MB10);
    c.pin("a");
    c.pin("b");
    assertThat(c.insert("d", MB10).evicted()).containsExactly("c");
    c.unpin("a");
    assertThat(c.insert("e", MB10).evicted()).containsExactly("a");
  }

  @Test
  void sizeAwareEvictionFreesEnoughBytes() {
    NodeCache c = new NodeCache(3 * MB10, new Lru());
    c.insert("a", MB10);
    c.insert("b", MB10);
    c.insert("c", MB10);
    NodeCache.Insert r = c.insert("big", 2 * MB10);
    assertThat(r.evicted()).containsExactly("a", "b");
    assertThat(c.used()).isEqualTo(3 * MB10);
  }

  @Test
  void fileLargerThanTheCacheIsStreamedNotCached() {
    NodeCache c = new NodeCache(MB10, new Lru());
    c.insert("a", MB10);
    NodeCache.Insert r = c.insert("huge", 2 * MB10);
    assertThat(r.cached()).isFalse();
    assertThat(r.evicted()).isEmpty();
    assertThat(c.contains("a")).isTrue();
  }

  @Test
  void whenEverythingIsPinnedNothingIsEvicted() {
    NodeCache c = new NodeCache(2 * MB10, new Lru());
    c.insert("a", MB10);
    c.insert("b", MB10);
    c.pin("a");
    c.pin("b");
    NodeCache.Insert r = c.insert("c", MB10);
    assertThat(r.cached()).isFalse();
    assertThat(c.used()).isEqualTo(2 * MB10);
  }

  @Test
  void capacityIsNeverExceededUnderChurn() {
    NodeCache c = new NodeCache(50 * MB10, new Lru());
    java.util.Random rnd = new java.util.Random(7);
    for (int i = 0; i < 10_000; i++) {
      String f = "f" + rnd.nextInt(200);
      if (!c.touch(f)) {
        c.insert(f, (1 + rnd.nextInt(5)) * MB10);
      }
      assertThat(c.used()).isLessThanOrEqualTo(c.capacity());
    }
    long sum = c.contents().values().stream().mapToLong(Long::longValue).sum();
    assertThat(sum).isEqualTo(c.used());
  }
}
