package io.locus.sim.output;

import io.locus.sim.engine.RunResult;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.sim.metrics.Numbers;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** The console summary of one or more runs, one line each. */
public final class SummaryTable {
  private SummaryTable() {}

  public static void print(PrintWriter out, List<RunResult<DiffusionMetrics>> results) {
    out.printf(Locale.ROOT, "%-16s %9s %10s %8s %6s %8s %9s %6s %6s %6s %8s %8s %7s %9s %7s%n",
        "run", "completed", "time s", "ideal s", "eff", "CPU h", "resp s", "local", "peer",
        "miss", "avg Gb/s", "p99 Gb/s", "max SL", "decisions", "wall s");
    for (RunResult<DiffusionMetrics> run : results) {
      DiffusionMetrics r = run.detail();
      DiffusionMetrics.Io io = r.io();
      out.printf(Locale.ROOT,
          "%-16s %9d %10s %8s %6s %8s %9s %5.1f%% %5.1f%% %5.1f%% %8s %8s %7s %9d %7s%n",
          run.label(), r.tasks().completed(), Numbers.seconds(r.times().completionTime()),
          Numbers.fixed(r.times().idealTime(), 0), Numbers.fixed(r.times().efficiency(), 3),
          Numbers.fixed(r.resources().cpuHours(), 2), Numbers.seconds(r.times().meanResponse()),
          100 * io.localShare(), 100 * io.peerShare(), 100 * io.missShare(),
          Numbers.fixed(io.avgThroughputGbps(), 2), Numbers.fixed(io.peakThroughputGbps(), 2),
          Numbers.fixed(r.slowdown().max(), 2), r.scheduling().decisions(),
          Numbers.fixed(run.wallSeconds(), 1));
      if (!run.complete() || r.tasks().failedPermanently() > 0) {
        out.printf(Locale.ROOT, "%-16s   NOTE: %d of %d tasks completed, %d failed%s%n", "",
            r.tasks().completed(), r.tasks().released(), r.tasks().failedPermanently(),
            !run.complete() ? ", run stopped before the end (horizon or stall)" : "");
      }
    }
    out.flush();
  }
}
