package io.locus.agent;

/**
 * The on-disk side of an agent's cache. {@link NodeAgent} keeps the accounting (quota, pins,
 * eviction order) and tells the store, under its lock and in order, what happened to the bytes, so
 * that a real agent's directory follows the accounting exactly. The simulated mode has no bytes and
 * uses {@link #NONE}.
 *
 * <p>Order matters for the quota: when a fetched file is inserted, {@link #evicted} is called for
 * every victim before {@link #commit} is called for the newcomer, so the directory never holds more
 * than the quota, not even for a moment.
 *
 * <p>A {@link StageRequest} passed here is the very instance given to {@link Stager#fetch}: a
 * store keyed by identity can find the bytes that fetch landed.
 */
public interface CacheStore {
  CacheStore NONE = new CacheStore() { };

  /** The bytes {@code fetch} landed become the cache entry of its file. */
  default void commit(StageRequest fetch) {}

  /** The bytes {@code fetch} landed are not cached; the task {@code taskKey} uses them until it ends. */
  default void attach(String taskKey, StageRequest fetch) {}

  /** The agent does not use the bytes {@code fetch} landed (if any): drop them. Idempotent. */
  default void discard(StageRequest fetch) {}

  /** The file left the cache accounting (evicted, removed on request, found missing). */
  default void evicted(String fileId) {}

  /** The task ended (any way): bytes attached to it can go. */
  default void released(String taskKey) {}
}
