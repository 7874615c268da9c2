package io.locus.operators;

import java.util.Map;

/**
 * COMPLETED events of tasks a pool does not know yet. After a restore in at-least-once mode the
 * inputs since the checkpoint are replayed, and a task's completion (topic task-events) may come
 * before its arrival (topic job-arrivals). The completion is remembered here, keyed by task, for
 * {@link #RETENTION_MS} of record clock, when it answers a placement of an earlier scheduler epoch
 * (one made before the restore). When the task is placed, the completion finishes it, without
 * the placement being sent again, only if that placement goes to the completion's node at its
 * attempt; otherwise it is dropped (PROTOCOL-12, "At-least-once safety"; {@code
 * FilePoolDriver#settleEarly}). So a completion sent for a task not yet submitted finishes
 * nothing that the scheduler does not give to its node. With a cluster node secret it is not even
 * remembered: the input gate first requires its proof of placement (a task not placed yet has
 * none; {@code InputGate#placementProblem}, dead letter {@code no-proof}), so only a completion of
 * an attempt a scheduler really placed on that node (before the restore) is kept.
 *
 * <p>An entry is {@code attempt SEP node SEP clockMs SEP bytesLocal SEP bytesPeer SEP
 * bytesStorage} ({@link PoolStore#SEP}, which no id contains). Old entries are dropped at most
 * every {@link #RETENTION_MS}/16 of record clock, so a flood of forged completions is bounded by
 * the retention window, not kept forever.
 */
final class EarlyCompletions {
  /** How long (record clock) a completion waits for its task's arrival: one day. */
  static final long RETENTION_MS = 24 * 3600 * 1000L;

  /** A remembered completion. */
  record Early(int attempt, String node, long clockMs, long bytesLocal, long bytesPeer,
      long bytesStorage) {}

  private final SplitStore.Table<String> table;
  /** Record clock at which old entries are next dropped (heap only: 0 after a restart). */
  private long nextPurgeMs;

  EarlyCompletions(SplitStore.Table<String> table) {
    this.table = table;
  }

  void remember(String taskId, Early e) throws Exception {
    String sep = String.valueOf(PoolStore.SEP);
    table.put(taskId, String.join(sep, Integer.toString(e.attempt()), e.node(),
        Long.toString(e.clockMs()), Long.toString(e.bytesLocal()), Long.toString(e.bytesPeer()),
        Long.toString(e.bytesStorage())));
  }

  /** The completion remembered for the task, removed; null when there is none. */
  Early take(String taskId) throws Exception {
    String v = table.get(taskId);
    if (v == null) {
      return null;
    }
    table.remove(taskId);
    return decode(v);
  }

  /** Drops completions older than the retention (at most once per sixteenth of it). */
  void purge(long clockMs) throws Exception {
    if (clockMs < nextPurgeMs) {
      return;
    }
    nextPurgeMs = clockMs + RETENTION_MS / 16;
    for (Map.Entry<String, String> entry : table.entries()) {
      Early e = decode(entry.getValue());
      if (e == null || e.clockMs() < clockMs - RETENTION_MS) {
        table.remove(entry.getKey());
      }
    }
  }

  private static Early decode(String v) {
    String[] p = v.split(String.valueOf(PoolStore.SEP), -1);
    if (p.length != 6) {
      return null;
    }
    return new Early(Integer.parseInt(p[0]), p[1], Long.parseLong(p[2]), Long.parseLong(p[3]),
        Long.parseLong(p[4]), Long.parseLong(p[5]));
  }
}
