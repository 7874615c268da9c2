package io.locus.core.cache;

import java.util.function.Predicate;

/**
 * Chooses which cached file leaves a node's cache. The {@link NodeCache} tells it of every insert,
 * hit and removal; the policy only keeps the order it needs. Implementations are deterministic
 * (a random one takes its seed).
 */
public interface EvictionPolicy {
  String name();

  void onInsert(String file, long bytes);

  void onAccess(String file);

  void onRemove(String file);

  /** The next victim among files for which {@code pinned} is false, or null when there is none. */
  String victim(Predicate<String> pinned);

  void clear();
}
