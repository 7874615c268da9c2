package io.locus.core.split;

/**
 * One entry of a node's range cache ({@link RangeLru}, spec §3.1), one entry of the pool's state
 * ({@link SplitJournal}), keyed by (node, start).
 *
 * @param node the node whose cache holds the events
 * @param start first event
 * @param end one past the last event
 * @param lastUse when the range was last read or inserted (model seconds)
 * @param remoteCount remote reads since the last replication (§3.2)
 */
public record CachedRange(String node, long start, long end, double lastUse, int remoteCount) {}
