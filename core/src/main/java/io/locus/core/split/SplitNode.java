package io.locus.core.split;

/** A processing node: its cache, its running subjob and its private queue Q_v. */
final class SplitNode {
  final String id;
  final RangeLru cache;
  Subjob running;
  /** The running subjob may have progressed since its reads were last applied to the caches. */
  boolean dirty;
  final SubjobQueue queue;
  /** Σ COST over the private queue, or null when the policy does not need it. */
  final QueueCosts queueCosts;

  /** With {@code model} non-null, the private queue keeps its total cost up to date. */
  SplitNode(String id, long capacity, ProgressModel model, Changes changes) {
    this.id = id;
    this.cache = new RangeLru(capacity);
    this.cache.trackChanges(changes.tracking());
    this.queueCosts = model == null ? null : new QueueCosts(model, this);
    this.queue = new SubjobQueue("node/" + id, changes, queueCosts);
  }

  boolean idle() {
    return running == null;
  }
}
