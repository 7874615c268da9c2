package io.locus.core.split;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the current input changed, entry by entry, handed to the {@link SplitJournal} when the
 * input ends ({@link #flush}): each changed job, subjob, node, cached range and policy-memory entry
 * once, as it is then (or its removal), and the pool scalars when they differ from the last ones
 * written. Without a journal nothing is collected (the simulator pays nothing).
 *
 * <p>Jobs, subjobs and nodes are marked by the code that changes them; cached ranges by their
 * {@link RangeLru}; policy memory by the policy, with the entry itself.
 */
final class Changes {
  private final SplitState state;
  private SplitJournal journal;
  private final Set<JobState> jobs = new LinkedHashSet<>();
  private final Set<Subjob> subjobs = new LinkedHashSet<>();
  /** Nodes that joined or left. */
  private final Set<SplitNode> nodes = new LinkedHashSet<>();
  /** Policy memory by key; a null value is a removal. */
  private final Map<String, PolicyEntry> memory = new LinkedHashMap<>();
  private PoolScalars lastPool;

  Changes(SplitState state) {
    this.state = state;
  }

  /** From now on, changes go to {@code j} (null: to nowhere). */
  void attach(SplitJournal j) {
    journal = j;
    lastPool = null;
    jobs.clear();
    subjobs.clear();
    nodes.clear();
    memory.clear();
    for (SplitNode v : state.nodes.values()) {
      v.cache.trackChanges(j != null);
    }
  }

  boolean tracking() {
    return journal != null;
  }

  void job(JobState j) {
    if (journal != null) {
      jobs.add(j);
    }
  }

  void subjob(Subjob x) {
    if (journal != null) {
      subjobs.add(x);
    }
  }

  /** v joined or left the pool. */
  void node(SplitNode v) {
    if (journal != null) {
      nodes.add(v);
    }
  }

  void memory(PolicyEntry e) {
    if (journal != null) {
      memory.put(e.key(), e);
    }
  }

  void forget(String key) {
    if (journal != null) {
      memory.put(key, null);
    }
  }

  /** Hands everything collected to the journal, then starts afresh. */
  void flush() {
    if (journal == null) {
      return;
    }
    PoolScalars pool = Entries.pool(state);
    if (!pool.equals(lastPool)) {
      journal.putPool(pool);
      lastPool = pool;
    }
    for (SplitNode v : nodes) {
      if (state.nodes.get(v.id) == v) {
        journal.putNode(v.id);
      } else {
        flushCache(v); // its ranges were cleared when it left
        journal.removeNode(v.id);
      }
    }
    for (SplitNode v : state.nodes.values()) {
      flushCache(v);
    }
    for (JobState j : jobs) {
      if (state.job(j.id) == j) {
        journal.putJob(Entries.job(j));
      } else {
        journal.removeJob(j.id);
      }
    }
    for (Subjob x : subjobs) {
      if (state.subjob(x.id) == x) {
        journal.putSubjob(Entries.subjob(x));
      } else {
        journal.removeSubjob(x.id);
      }
    }
    for (Map.Entry<String, PolicyEntry> e : memory.entrySet()) {
      if (e.getValue() == null) {
        journal.removeMemory(e.getKey());
      } else {
        journal.putMemory(e.getValue());
      }
    }
    jobs.clear();
    subjobs.clear();
    nodes.clear();
    memory.clear();
  }

  private void flushCache(SplitNode v) {
    for (long start : v.cache.takeChangedStarts()) {
      RangeLru.Entry e = v.cache.entryAt(start);
      if (e == null) {
        journal.removeCachedRange(v.id, start);
      } else {
        journal.putCachedRange(new CachedRange(v.id, start, e.range().end(), e.lastUse(),
            e.remoteCount()));
      }
    }
  }
}
