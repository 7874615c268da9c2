package io.locus.sim.output;

import io.locus.sim.metrics.QueueMetrics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's per-queue measures (issue 24) as CSV: {@code queues.csv}, one row per queue, and {@code
 * queue-series.csv}, one row per second. Definitions: {@link io.locus.sim.metrics.QueueRecorder}.
 */
public final class QueueFiles {
  private QueueFiles() {}

  /** One queue's row as ordered name → value pairs (queues.csv and experiment tables). */
  public static Map<String, String> row(QueueMetrics.Queue q) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("queue", q.name());
    m.put("weight", Csv.num(q.weight()));
    m.put("guaranteed_slots", Integer.toString(q.guarantee()));
    m.put("active_s", Csv.num(q.activeSeconds()));
    m.put("contended_s", Csv.num(q.contendedSeconds()));
    m.put("mean_share", Csv.num(q.meanShare()));
    m.put("mean_fair_share", Csv.num(q.meanFairShare()));
    m.put("mean_share_error", Csv.num(q.meanShareError()));
    m.put("starved_episodes", Integer.toString(q.starvedEpisodes()));
    m.put("first_starved_at_s", Csv.num(q.firstStarvedAt()));
    m.put("first_to_guarantee_s", Csv.num(q.firstToGuarantee()));
    m.put("max_to_guarantee_s", Csv.num(q.maxToGuarantee()));
    m.put("starved_s", Csv.num(q.starvedSeconds()));
    m.put("starved_at_end", Boolean.toString(q.openAtEnd()));
    m.put("completed", Long.toString(q.completed()));
    m.put("mean_response_s", Csv.num(q.meanResponse()));
    m.put("p95_response_s", Csv.num(q.p95Response()));
    m.put("p99_response_s", Csv.num(q.p99Response()));
    m.put("bytes_local", Long.toString(q.bytes()[0]));
    m.put("bytes_peer", Long.toString(q.bytes()[1]));
    m.put("bytes_storage", Long.toString(q.bytes()[2]));
    m.put("local_byte_share", Csv.num(q.byteShare(0)));
    m.put("peer_byte_share", Csv.num(q.byteShare(1)));
    m.put("storage_byte_share", Csv.num(q.byteShare(2)));
    m.put("preempted", Long.toString(q.preempted()));
    m.put("lost_slot_s", Csv.num(q.lostSlotSeconds()));
    return m;
  }

  /** {@code queues.csv}: one row per queue, then a row {@code (pool)} with the pool's measures. */
  public static void queues(Path file, QueueMetrics m) throws IOException {
    List<String> header = new ArrayList<>(row(sample()).keySet());
    header.add("jain_mean");
    header.add("jain_min");
    header.add("pool_contended_s");
    header.add("refused_jobs");
    List<List<String>> rows = new ArrayList<>();
    for (QueueMetrics.Queue q : m.queues()) {
      List<String> r = new ArrayList<>(row(q).values());
      r.addAll(List.of("", "", "", ""));
      rows.add(r);
    }
    List<String> pool = new ArrayList<>();
    for (String h : header) {
      pool.add(switch (h) {
        case "queue" -> "(pool)";
        case "mean_share_error" -> Csv.num(m.meanShareError());
        case "jain_mean" -> Csv.num(m.meanJain());
        case "jain_min" -> Csv.num(m.minJain());
        case "pool_contended_s" -> Csv.num(m.contendedSeconds());
        case "refused_jobs" -> Long.toString(m.refused());
        case "preempted" -> Long.toString(m.preempted());
        case "lost_slot_s" -> Csv.num(m.lostSlotSeconds());
        default -> "";
      });
    }
    rows.add(pool);
    Csv.write(file, header, rows);
  }

  /**
   * {@code queue-series.csv}: per second the pool's slots, Jain's index (empty when fewer than two
   * queues were active) and each queue's running slots and fair share.
   */
  public static void series(Path file, QueueMetrics m) throws IOException {
    QueueMetrics.QueueSeries s = m.series();
    List<String> header = new ArrayList<>(List.of("time_s", "pool_slots", "jain"));
    for (String q : s.names()) {
      header.add("running_" + q);
      header.add("fair_share_" + q);
    }
    List<List<String>> rows = new ArrayList<>(s.length());
    for (int k = 0; k < s.length(); k++) {
      List<String> row = new ArrayList<>(header.size());
      row.add(Integer.toString(k));
      row.add(Csv.num(s.slots()[k]));
      row.add(Double.isNaN(s.jain()[k]) ? "" : Csv.num(s.jain()[k]));
      for (int q = 0; q < s.names().size(); q++) {
        row.add(Csv.num(s.running()[q][k]));
        row.add(Csv.num(s.fairShare()[q][k]));
      }
      rows.add(row);
    }
    Csv.write(file, header, rows);
  }

  private static QueueMetrics.Queue sample() {
    return new QueueMetrics.Queue("", 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, 0,
        new long[3], 0, 0);
  }
}
