package io.locus.agent;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Files being read into the cache now, each with what waits for that one read. A task (or a
 * replication) that needs a file another is already fetching into the cache waits for it and then
 * reads it locally, rather than move the same bytes twice (spec §1.3, D29). Not thread-safe:
 * guarded by the agent's monitor.
 */
final class SharedFetches {
  private final Map<String, List<Runnable>> inFlight = new HashMap<>();

  boolean inProgress(String fileId) {
    return inFlight.containsKey(fileId);
  }

  /** The caller now fetches {@code fileId} for itself and for whoever waits. */
  void begin(String fileId) {
    inFlight.put(fileId, new ArrayList<>());
  }

  /** Runs {@code then} when the fetch of {@code fileId} in progress ends (whatever its outcome). */
  void await(String fileId, Runnable then) {
    List<Runnable> waiters = inFlight.get(fileId);
    if (waiters == null) {
      throw new IllegalStateException("no fetch of " + fileId + " in progress");
    }
    waiters.add(then);
  }

  /** The fetch of {@code fileId} ended: the waiters go on, in the order they came. */
  void end(String fileId) {
    List<Runnable> waiters = inFlight.remove(fileId);
    if (waiters != null) {
      waiters.forEach(Runnable::run);
    }
  }

  /** Forgets every fetch and its waiters (the agent stops). */
  void clear() {
    inFlight.clear();
  }
}
