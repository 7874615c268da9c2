package io.locus.cli.sim;

import io.locus.sim.metrics.Numbers;
import io.locus.sim.metrics.QueueMetrics;
import io.locus.sim.output.Markdown;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The per-queue measures of one run as the table {@code locus simulate} prints. */
final class QueueTable {
  private QueueTable() {}

  static void print(PrintWriter o, QueueMetrics m) {
    List<String> header = List.of("queue", "guar.", "share %", "fair %", "share err %",
        "to guarantee s", "completed", "mean resp s", "p99 resp s", "local %", "storage %", "preempted", "lost slot-s");
    List<List<String>> rows = new ArrayList<>();
    for (QueueMetrics.Queue q : m.queues()) {
      rows.add(List.of(q.name(), Integer.toString(q.guarantee()), pct(q.meanShare()),
          pct(q.meanFairShare()), pct(q.meanShareError()),
          q.starvedEpisodes() == 0 ? "-" : Numbers.fixed(q.firstToGuarantee(), 1)
              + (q.openAtEnd() && q.starvedEpisodes() == 1 ? "+" : ""),
          Long.toString(q.completed()), Numbers.seconds(q.meanResponse()),
          Numbers.seconds(q.p99Response()), pct(q.byteShare(0)), pct(q.byteShare(2)),
          Long.toString(q.preempted()), Numbers.fixed(q.lostSlotSeconds(), 1)));
    }
    o.print(Markdown.table(header, rows));
    o.printf(Locale.ROOT, "queues: Jain's index %s (min %s) over %s s contended; mean share error"
            + " %s %% of the pool%n", Numbers.fixed(m.meanJain(), 3),
        Numbers.fixed(m.minJain(), 3), Numbers.fixed(m.contendedSeconds(), 1),
        pct(m.meanShareError()));
    if (m.refused() > 0) {
      o.printf(Locale.ROOT, "%d jobs refused: their queue is not a leaf of --queue-config (first:"
          + " %s)%n", m.refused(), m.firstRefusal());
    }
  }

  private static String pct(double v) {
    return Numbers.fixed(100 * v, 1);
  }
}
