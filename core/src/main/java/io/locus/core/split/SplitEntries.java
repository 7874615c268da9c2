package io.locus.core.split;

import java.util.List;

/**
 * The whole state of a split policy as entries ({@link SplitJournal}), in any order: what a
 * restore takes ({@link SplitPolicies#restore(SplitParams, SplitEntries)}) and what {@link
 * SplitPolicy#entries()} gives (then sorted by key, so equal states give equal values).
 *
 * @param pool the scalars
 * @param nodes the node ids
 * @param cache every node's cached ranges
 * @param jobs the unfinished jobs
 * @param subjobs the subjobs
 * @param memory the policy's own memory
 */
public record SplitEntries(PoolScalars pool, List<String> nodes, List<CachedRange> cache,
    List<JobEntry> jobs, List<SubjobEntry> subjobs, List<PolicyEntry> memory) {
  public SplitEntries {
    nodes = List.copyOf(nodes);
    cache = List.copyOf(cache);
    jobs = List.copyOf(jobs);
    subjobs = List.copyOf(subjobs);
    memory = List.copyOf(memory);
  }
}
