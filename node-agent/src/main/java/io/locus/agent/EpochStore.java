package io.locus.agent;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where an agent keeps the highest scheduler epoch it has seen per pool, so that a restart does not
 * forget it (a replayed decision of an older scheduler epoch must stay refused). A real agent keeps
 * it in a small file of its work directory ({@code io.locus.agent.real.FileEpochStore}); a
 * simulated agent in memory ({@link #inMemory()}), which lasts as long as the store object.
 */
public interface EpochStore {
  /** No epoch seen for a pool. */
  long NONE = Long.MIN_VALUE;

  /** The highest epoch saved for {@code pool}, or {@link #NONE}. */
  long load(String pool);

  /** Saves {@code epoch} as the highest of {@code pool} (it may be lower after a ResyncNode). */
  void save(String pool, long epoch);

  /** A store in memory: a new one per agent start forgets, a shared one remembers. */
  static EpochStore inMemory() {
    Map<String, Long> epochs = new ConcurrentHashMap<>();
    return new EpochStore() {
      @Override
      public long load(String pool) {
        return epochs.getOrDefault(pool, NONE);
      }

      @Override
      public void save(String pool, long epoch) {
        epochs.put(pool, epoch);
      }
    };
  }
}
