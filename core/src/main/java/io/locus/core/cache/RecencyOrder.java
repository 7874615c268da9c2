package io.locus.core.cache;

import java.util.LinkedHashMap;

/**
 * The bookkeeping the eviction policies that weigh files by size share: every cached file with
 * its bytes, least recently used first ({@link #order}). A policy only decides the victim from it.
 */
abstract class RecencyOrder implements EvictionPolicy {
  /** Cached files and their bytes, least recently used first. */
  final LinkedHashMap<String, Long> order = new LinkedHashMap<>();

  @Override
  public void onInsert(String file, long bytes) {
    order.remove(file);
    order.put(file, bytes);
  }

  @Override
  public void onAccess(String file) {
    Long bytes = order.remove(file);
    if (bytes != null) {
      order.put(file, bytes);
    }
  }

  @Override
  public void onRemove(String file) {
    order.remove(file);
  }

  @Override
  public void clear() {
    order.clear();
  }
}
