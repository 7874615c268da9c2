package io.locus.core.split;

/** Where a node reads an event from (spec §1.2). */
public enum Source {
  /** The node's own disk cache (c_hit). */
  LOCAL,
  /** Another node's cache, read through its disk (replication variant only; c_remote = c_hit). */
  REMOTE,
  /** Tertiary storage (c_miss). */
  TAPE
}
