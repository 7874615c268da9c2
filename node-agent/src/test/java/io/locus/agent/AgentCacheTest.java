package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CachedFile;
import io.locus.schemas.FetchSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentCacheTest {
  /** The store's calls, in order. */
  private final List<String> disk = new ArrayList<>();
  private final CacheStore store = new CacheStore() {
    @Override
    public void commit(StageRequest r) {
      disk.add("commit " + r.fileId());
    }

    @Override
    public void evicted(String fileId) {
      disk.add("evicted " + fileId);
    }

    @Override
    public void discard(StageRequest r) {
      disk.add("discard " + r.fileId());
    }
  };

  private AgentCache cache(long capacity) {
    return new AgentCache(AgentConfig.builder("p", "n1").cacheCapacityBytes(capacity).build(),
        store);
  }

  private static StageRequest fetched(String file, long bytes) {
    return new StageRequest("n1", file, bytes, FetchSource.STORAGE, null, null, null);
  }

  @Test
  void victimsLeaveTheDiskBeforeTheNewcomerArrives() {
    AgentCache c = cache(100);
    CacheDelta d = new CacheDelta();
    assertThat(c.insert(fetched("a", 60), d)).isTrue();
    assertThat(c.insert(fetched("b", 60), d)).isTrue();

    assertThat(disk).containsExactly("commit a", "evicted a", "commit b");
    assertThat(c.holds("a")).isFalse();
    assertThat(c.holds("b")).isTrue();
    assertThat(d.added()).containsExactly(new CachedFile("b", 60L));
    assertThat(d.removed()).isEmpty();
  }

  @Test
  void aFileThatCannotFitIsNotCached() {
    AgentCache c = cache(100);
    CacheDelta d = new CacheDelta();
    assertThat(c.insert(fetched("big", 101), d)).isFalse();
    assertThat(disk).isEmpty();
    assertThat(d.isEmpty()).isTrue();
  }

  @Test
  void anInsertSupersedesAnEvictionThatAnotherRunHasNotReportedYet() {
    AgentCache c = cache(100);
    CacheDelta setup = new CacheDelta();
    c.insert(fetched("a", 60), setup);
    CacheDelta first = c.openDelta();
    CacheDelta closed = c.openDelta();
    c.closeDelta(closed);
    c.insert(fetched("b", 60), first);      // evicts a: first says "a removed"
    closed.remove("a");
    assertThat(first.removed()).containsExactly("a");

    CacheDelta second = c.openDelta();
    c.insert(fetched("a", 30), second);     // a is back
    assertThat(first.removed()).as("sent after second, it would hide a").isEmpty();
    assertThat(closed.removed()).as("a closed delta is not followed").containsExactly("a");
    assertThat(second.added()).contains(new CachedFile("a", 30L));
  }

  @Test
  void removalsAndPreloadsKeepDiskViewAndAccountingTogether() {
    AgentCache c = cache(100);
    c.preload("a", 40);
    c.preload("huge", 400);
    assertThat(c.holds("a")).isTrue();
    assertThat(c.holds("huge")).isFalse();
    assertThat(disk).containsExactly("evicted huge");

    CacheDelta d = new CacheDelta();
    assertThat(c.remove("a", d)).isTrue();
    assertThat(c.remove("a", d)).isFalse();
    assertThat(c.holds("a")).isFalse();
    assertThat(d.removed()).containsExactly("a");
    assertThat(c.used()).isZero();
  }
}
