package io.locus.dashboard;

/**
 * Counts of events per second of their own timestamps, for the last {@link #SECONDS} seconds: the
 * placements/s figure (a mean over a window ending now) and the chart's per-second series. Bounded:
 * one slot per second of the ring; an event older than the ring is not counted here (totals are
 * kept elsewhere). Events may arrive out of order (decisions come from 16 partitions).
 */
final class RateWindow {
  static final int SECONDS = 120;

  private final long[] second = new long[SECONDS];
  private final long[] count = new long[SECONDS];

  RateWindow() {
    java.util.Arrays.fill(second, Long.MIN_VALUE);
  }

  void add(long timeMs) {
    long s = Math.floorDiv(timeMs, 1000);
    int i = (int) Math.floorMod(s, SECONDS);
    if (second[i] == s) {
      count[i]++;
    } else if (second[i] < s) {
      second[i] = s;
      count[i] = 1;
    }
    // else: older than what the slot holds, beyond the ring
  }

  /** Events in the second starting at {@code s * 1000} ms. */
  long at(long s) {
    int i = (int) Math.floorMod(s, SECONDS);
    return second[i] == s ? count[i] : 0;
  }

  /**
   * Mean events per second over the {@code windowSeconds} whole seconds before the one holding
   * {@code nowMs} (the current second is still filling up).
   */
  double perSecond(long nowMs, int windowSeconds) {
    long now = Math.floorDiv(nowMs, 1000);
    long sum = 0;
    for (long s = now - windowSeconds; s < now; s++) {
      sum += at(s);
    }
    return (double) sum / windowSeconds;
  }

  /** Per-second counts of the last {@code n} whole seconds before {@code nowMs}, oldest first. */
  long[] series(long nowMs, int n) {
    long now = Math.floorDiv(nowMs, 1000);
    long[] out = new long[n];
    for (int k = 0; k < n; k++) {
      out[k] = at(now - n + k);
    }
    return out;
  }
}
