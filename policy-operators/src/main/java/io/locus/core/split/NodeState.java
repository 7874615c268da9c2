package io.locus.core.split;

/** A processing node: its cache, its running subjob and its private queue Q_v. */
final class NodeState {
  final String id;
  final RangeLru cache;
  Subjob running;
  final SubjobQueue queue = new SubjobQueue();

  NodeState(String id, long capacity) {
    this.id = id;
    this.cache = new RangeLru(capacity);
  }

  boolean idle() {
    return running == null;
  }
}
