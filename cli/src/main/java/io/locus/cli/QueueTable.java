package io.locus.cli;

import io.locus.schemas.QueueUsage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code locus status}'s per-queue table of one pool (issue 24), from the scheduler's latest
 * metrics ({@code SchedulerMetrics.queueUsage}): each queue indented under its parent, with its
 * weight, effective guarantee, limit, running and pending tasks, dominant share of the pool, fair
 * share, slots borrowed above its guarantee and attempts preempted. Slot figures may be fractions
 * (guarantees are scaled down together when the pool is smaller than their sum), so they are
 * shown with one decimal when they are not whole.
 */
final class QueueTable {
  private QueueTable() {}

  static final String HEADER = String.format(Locale.ROOT,
      "%-20s %6s %9s %5s %7s %7s %6s %10s %8s %9s", "queue", "weight", "guarantee", "limit",
      "running", "pending", "share", "fair share", "borrowed", "preempted");

  /** The table's lines (header first), or none when the metrics carry no queue. */
  static List<String> lines(List<QueueUsage> usage) {
    List<String> out = new ArrayList<>();
    if (usage == null || usage.isEmpty()) {
      return out;
    }
    Map<String, String> parents = new HashMap<>();
    for (QueueUsage q : usage) {
      parents.put(q.getQueue().toString(), q.getParent() == null ? null : q.getParent().toString());
    }
    out.add(HEADER);
    for (QueueUsage q : usage) {
      String name = "  ".repeat(depth(q.getQueue().toString(), parents)) + q.getQueue()
          + (q.getLeaf() ? "" : "/");
      out.add(String.format(Locale.ROOT, "%-20s %6s %9s %5s %7d %7d %6s %10s %8s %9d", name,
          number(q.getWeight()), number(q.getGuarantee()),
          q.getLimit() == null ? "-" : q.getLimit().toString(), q.getRunning(), q.getPending(),
          String.format(Locale.ROOT, "%.1f%%", 100 * q.getShare()), number(q.getFairShare()),
          number(q.getBorrowed()), q.getPreempted()));
    }
    return out;
  }

  /** How many ancestors {@code queue} has; a parent missing from the list ends the climb. */
  private static int depth(String queue, Map<String, String> parents) {
    int d = 0;
    String p = parents.get(queue);
    // bounded by the list's size, so a (refused anyway) cycle cannot loop
    while (p != null && d < parents.size()) {
      d++;
      p = parents.get(p);
    }
    return d;
  }

  /** A whole number as such, else one decimal: 8, 2.5, 2.7 (for 2.6667). */
  static String number(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return "-";
    }
    if (Math.abs(v - Math.rint(v)) < 1e-9) {
      return String.format(Locale.ROOT, "%d", (long) Math.rint(v));
    }
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
