package io.locus.core.cache;

/**
 * What the pool's queue says about a file, for demand-aware eviction: how many queued tasks will
 * read it, and how many nodes hold it. The pool state implements it ({@code PoolState}); a node's
 * cache only reads it when it must choose a victim.
 */
public interface FileDemand {
  /** Queued (not yet placed) tasks that read the file; 0 when none. */
  int queuedReaders(String file);

  /** Nodes the pool knows to cache the file (the evicting node included once it reported it). */
  int copies(String file);
}
