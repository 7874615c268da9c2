package io.locus.core.policy;

import io.locus.core.model.PendingCode;

/**
 * Why one queued task is not placed now: its {@link PendingCode} (the first that applies, in the
 * code's declaration order) and a short text for people. For a data wait, {@code node} is the
 * node it waits for, {@code until} the time (policy seconds; NaN: no deadline and no forecast) and
 * {@code bytesSaved} what the wait saves (−1: not priced); for {@code priority} and {@code
 * no-free-slot}, {@code ahead} is how many queued tasks are ahead of it (of higher priority, or
 * in all), −1 otherwise.
 */
public record Pending(String taskId, PendingCode code, String text, String node, double until,
    long bytesSaved, long ahead) {

  /** A reason with no node, time or count. */
  static Pending of(String taskId, PendingCode code, String text) {
    return new Pending(taskId, code, text, null, Double.NaN, -1, -1);
  }

  /** "code: text", how logs and the pool's pendingReason show it. */
  @Override
  public String toString() {
    return code.code() + ": " + text;
  }
}
