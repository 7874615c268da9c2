package io.locus.dashboard;

import io.locus.schemas.QueueUsage;
import io.locus.schemas.SchedulerMetrics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One pool's queues as the dashboard shows them (issue 24): the latest metrics record's per-queue
 * usage for the table, and a short history of the first {@link #MAX_SERIES} queues' running
 * slots, guarantee and fair share for the chart, one sample per metrics record (the same samples
 * as the pool's queue-length history). Bounded: {@link #SAMPLES} samples of at most
 * {@link #MAX_SERIES} queues, and at most {@link #MAX_ROWS} table rows, whatever a record
 * carries. Not thread-safe: {@link DashboardState} guards it.
 */
final class QueueHistory {
  /** Samples kept, as for the pool's queue length. */
  static final int SAMPLES = PoolTally.QUEUE_HISTORY;
  /** Queues charted per pool (in the tree's order): more lines than this are unreadable. */
  static final int MAX_SERIES = 8;
  /** Table rows per pool: a tree has at most Limits.MAX_QUEUES queues. */
  static final int MAX_ROWS = 256;

  private record Point(String queue, int running, double guarantee, double fairShare) {}

  private final long[] times = new long[SAMPLES];
  private final Point[][] points = new Point[SAMPLES][];
  private int samples;
  private int next;
  private List<Snapshot.Queue> latest = List.of();

  /** A newer metrics record of the pool (the caller drops older ones). */
  void add(SchedulerMetrics m) {
    List<QueueUsage> usage = m.getQueueUsage() == null ? List.of() : m.getQueueUsage();
    List<Snapshot.Queue> rows = new ArrayList<>();
    Map<String, String> parents = new HashMap<>();
    for (QueueUsage u : usage) {
      parents.put(DashboardState.text(u.getQueue()), u.getParent() == null ? null
          : DashboardState.text(u.getParent()));
    }
    for (QueueUsage u : usage.subList(0, Math.min(MAX_ROWS, usage.size()))) {
      String q = DashboardState.text(u.getQueue());
      rows.add(new Snapshot.Queue(q, parents.get(q), depth(q, parents), u.getLeaf(),
          finite(u.getWeight()), finite(u.getGuarantee()), u.getLimit(), u.getRunning(),
          u.getPending(), finite(u.getShare()), finite(u.getFairShare()),
          finite(u.getBorrowed()), u.getPreempted()));
    }
    latest = rows;
    Point[] p = new Point[Math.min(MAX_SERIES, rows.size())];
    for (int k = 0; k < p.length; k++) {
      Snapshot.Queue r = rows.get(k);
      p[k] = new Point(r.queue(), r.running(), r.guarantee(), r.fairShare());
    }
    times[next] = m.getTimeMs();
    points[next] = p;
    next = (next + 1) % SAMPLES;
    samples = Math.min(SAMPLES, samples + 1);
  }

  /** The latest record's queues, depth first as the scheduler sent them. */
  List<Snapshot.Queue> latest() {
    return latest;
  }

  /**
   * One series per queue charted, oldest sample first: the queues of the newest sample first (in
   * its order), then any that only older samples have (a queue since removed), up to
   * {@link #MAX_SERIES}.
   */
  List<Snapshot.QueueSeries> series() {
    Map<String, List<Integer>> at = new LinkedHashMap<>();
    int start = (next - samples + SAMPLES) % SAMPLES;
    if (samples > 0) {
      for (Point p : points[(next - 1 + SAMPLES) % SAMPLES]) {
        at.put(p.queue(), new ArrayList<>());
      }
    }
    for (int k = 0; k < samples; k++) {
      for (Point p : points[(start + k) % SAMPLES]) {
        if (at.containsKey(p.queue()) || at.size() < MAX_SERIES) {
          at.computeIfAbsent(p.queue(), q -> new ArrayList<>()).add(k);
        }
      }
    }
    List<Snapshot.QueueSeries> out = new ArrayList<>();
    at.forEach((queue, ks) -> {
      long[] t = new long[ks.size()];
      int[] running = new int[ks.size()];
      double[] guarantee = new double[ks.size()];
      double[] fair = new double[ks.size()];
      for (int i = 0; i < ks.size(); i++) {
        int slot = (start + ks.get(i)) % SAMPLES;
        t[i] = times[slot];
        for (Point p : points[slot]) {
          if (p.queue().equals(queue)) {
            running[i] = p.running();
            guarantee[i] = p.guarantee();
            fair[i] = p.fairShare();
          }
        }
      }
      out.add(new Snapshot.QueueSeries(queue, t, running, guarantee, fair));
    });
    return out;
  }

  private static int depth(String queue, Map<String, String> parents) {
    int d = 0;
    for (String p = parents.get(queue); p != null && d < parents.size(); p = parents.get(p)) {
      d++;
    }
    return d;
  }

  /** JSON has no NaN or infinity (the page's JSON.parse would refuse the whole snapshot). */
  private static double finite(double v) {
    return Double.isFinite(v) ? v : 0;
  }
}
