package io.locus.core.split;

import io.locus.core.model.Ids;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * A {@link SplitJournal} that keeps the entries it hears in memory, by key: the state a durable
 * journal would hold. For drivers without durable state and for tests.
 */
public final class JournalReplica implements SplitJournal {
  private static final Comparator<String> BY_ID = Ids.ORDER;

  private PoolScalars pool;
  private final TreeMap<String, Boolean> nodes = new TreeMap<>(BY_ID);
  private final TreeMap<String, TreeMap<Long, CachedRange>> cache = new TreeMap<>(BY_ID);
  private final TreeMap<String, JobEntry> jobs = new TreeMap<>(BY_ID);
  private final TreeMap<String, SubjobEntry> subjobs = new TreeMap<>(BY_ID);
  private final TreeMap<String, PolicyEntry> memory = new TreeMap<>();
  private long puts;
  private long removals;

  @Override
  public void putPool(PoolScalars p) {
    pool = p;
    puts++;
  }

  @Override
  public void putNode(String node) {
    nodes.put(node, true);
    puts++;
  }

  @Override
  public void removeNode(String node) {
    nodes.remove(node);
    removals++;
  }

  @Override
  public void putCachedRange(CachedRange r) {
    cache.computeIfAbsent(r.node(), k -> new TreeMap<>()).put(r.start(), r);
    puts++;
  }

  @Override
  public void removeCachedRange(String node, long start) {
    TreeMap<Long, CachedRange> m = cache.get(node);
    if (m != null) {
      m.remove(start);
      if (m.isEmpty()) {
        cache.remove(node);
      }
    }
    removals++;
  }

  @Override
  public void putJob(JobEntry job) {
    jobs.put(job.id(), job);
    puts++;
  }

  @Override
  public void removeJob(String jobId) {
    jobs.remove(jobId);
    removals++;
  }

  @Override
  public void putSubjob(SubjobEntry subjob) {
    subjobs.put(subjob.id(), subjob);
    puts++;
  }

  @Override
  public void removeSubjob(String subjobId) {
    subjobs.remove(subjobId);
    removals++;
  }

  @Override
  public void putMemory(PolicyEntry entry) {
    memory.put(entry.key(), entry);
    puts++;
  }

  @Override
  public void removeMemory(String key) {
    memory.remove(key);
    removals++;
  }

  /** Entries put so far (every call, including overwrites). */
  public long puts() {
    return puts;
  }

  /** Removals so far. */
  public long removals() {
    return removals;
  }

  /** The entries held now, sorted by key. */
  public SplitEntries entries() {
    List<CachedRange> ranges = new ArrayList<>();
    cache.values().forEach(m -> ranges.addAll(m.values()));
    return new SplitEntries(pool, new ArrayList<>(nodes.keySet()), ranges,
        new ArrayList<>(jobs.values()), new ArrayList<>(subjobs.values()),
        new ArrayList<>(memory.values()));
  }
}
