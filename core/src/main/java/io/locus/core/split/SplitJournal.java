package io.locus.core.split;

/**
 * Hears a split policy's state in parts: at the end of every input (and of {@link
 * SplitPolicy#drainFinished}), one call per entry that input changed: the pool scalars, a node, a
 * cached range, a job, a subjob, an entry of the policy's own memory. A driver that writes these
 * to durable state writes only what an input changed; {@link SplitPolicies#restore(SplitParams,
 * SplitEntries)} rebuilds the policy from the entries. A removal may name an entry that was never
 * put (created and gone within one input).
 */
public interface SplitJournal {
  void putPool(PoolScalars pool);

  void putNode(String node);

  /** The node left; its cached ranges are removed by their own calls. */
  void removeNode(String node);

  /** Keyed by (node, start). */
  void putCachedRange(CachedRange range);

  void removeCachedRange(String node, long start);

  void putJob(JobEntry job);

  void removeJob(String jobId);

  void putSubjob(SubjobEntry subjob);

  void removeSubjob(String subjobId);

  /** Keyed by {@link PolicyEntry#key()}. */
  void putMemory(PolicyEntry entry);

  void removeMemory(String key);
}
