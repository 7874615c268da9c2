package io.locus.sim.cern;

import io.locus.sim.engine.RunResult;
import io.locus.sim.metrics.Percentiles;
import java.util.ArrayList;
import java.util.List;

/**
 * The metrics of CERN spec §6.1 over the measured jobs of one or more runs (seeds are pooled:
 * means over all measured jobs of all runs, except master load, averaged per run).
 *
 * @param jobs measured jobs (finished; started-only jobs of cut runs count for waiting only)
 * @param waitExcl mean W_excl (start − end of the arrival period; = W_incl without periods), s
 * @param waitIncl mean W_incl (start − arrival), s
 * @param processing mean processing time (first start → last end), s
 * @param response mean response time (arrival → end), s
 * @param speedup average job speedup (N_J · 0.8 s / processing)
 * @param hitRatio h: events read from the local cache / events processed
 * @param remoteRatio h_remote: events read from another node's cache / events processed
 * @param starvationShare jobs with a priority subjob / measured jobs
 * @param replicationShare jobs whose processing triggered a replication / measured jobs
 * @param masterLoad scheduler CPU time / simulated time (mean over runs; NaN if not measured)
 */
public record RunStats(int jobs, double waitExcl, double waitIncl, double processing,
    double response, double speedup, double hitRatio, double remoteRatio, double starvationShare,
    double replicationShare, double masterLoad, double waitP50, double waitP90, double waitP99,
    double responseP50, double responseP90, double responseP99, double[] waitsExcl,
    double[] waitsIncl, double meanEvents, double localShare, double remoteShare,
    double tapeShare) {

  /**
   * λ_cap(h) of spec §1.4 with the measured shares: n · 3600 / (N̄ · mean per-event cost), N̄ =
   * 40,000, cost = h · c_hit + h_remote · c_remote + (1 − h − h_remote) · c_miss. No policy
   * sustains a load above it for long; an idling policy (DELAYED) may sustain less.
   */
  public double capacityLoad(int nodes, io.locus.core.split.EventCosts c) {
    double perEvent = localShare * c.cHit() + remoteShare * c.cRemote()
        + (1 - localShare - remoteShare) * c.cMiss();
    return nodes * 3600.0 / (40_000 * perEvent);
  }

  public static RunStats of(List<RunResult<CernSimulation.Metrics>> runs) {
    List<CernSimulation.Measured> all = new ArrayList<>();
    double ml = 0;
    int mlRuns = 0;
    for (RunResult<CernSimulation.Metrics> r : runs) {
      all.addAll(r.detail().measured());
      if (!Double.isNaN(r.schedulerLoad())) {
        ml += r.schedulerLoad();
        mlRuns++;
      }
    }
    int n = all.size();
    double[] we = new double[n];
    double[] wi = new double[n];
    List<Double> resp = new ArrayList<>();
    double sp = 0;
    double proc = 0;
    int fin = 0;
    long ev = 0;
    long loc = 0;
    long rem = 0;
    long tap = 0;
    int prio = 0;
    int repl = 0;
    for (int i = 0; i < n; i++) {
      CernSimulation.Measured m = all.get(i);
      we[i] = m.waitExcl();
      wi[i] = m.waitIncl();
      if (!Double.isNaN(m.end())) {
        fin++;
        resp.add(m.response());
        sp += m.speedup();
        proc += m.processing();
        ev += m.events();
        loc += m.local();
        rem += m.remote();
        tap += m.tape();
        prio += m.priority() ? 1 : 0;
        repl += m.replicated() ? 1 : 0;
      }
    }
    double[] rs = resp.stream().mapToDouble(Double::doubleValue).toArray();
    return new RunStats(n, mean(we), mean(wi), fin == 0 ? Double.NaN : proc / fin,
        mean(rs), fin == 0 ? Double.NaN : sp / fin, ev == 0 ? Double.NaN : (double) loc / ev,
        ev == 0 ? Double.NaN : (double) rem / ev, fin == 0 ? Double.NaN : (double) prio / fin,
        fin == 0 ? Double.NaN : (double) repl / fin, mlRuns == 0 ? Double.NaN : ml / mlRuns,
        pct(we, 50), pct(we, 90), pct(we, 99), pct(rs, 50), pct(rs, 90), pct(rs, 99), we, wi,
        fin == 0 ? Double.NaN : (double) ev / fin, ev == 0 ? Double.NaN : (double) loc / ev,
        ev == 0 ? Double.NaN : (double) rem / ev, ev == 0 ? Double.NaN : (double) tap / ev);
  }

  private static double mean(double[] xs) {
    if (xs.length == 0) {
      return Double.NaN;
    }
    double s = 0;
    for (double x : xs) {
      s += x;
    }
    return s / xs.length;
  }

  private static double pct(double[] xs, double p) {
    return xs.length == 0 ? Double.NaN : Percentiles.nearestRank(xs, p);
  }

  /** Histogram of waits in bins of {@code binSeconds} (bin k = [k·bin, (k+1)·bin)). */
  public static long[] histogram(double[] waits, double binSeconds) {
    int max = 0;
    for (double w : waits) {
      max = Math.max(max, (int) Math.floor(Math.max(0, w) / binSeconds));
    }
    long[] h = new long[max + 1];
    for (double w : waits) {
      h[(int) Math.floor(Math.max(0, w) / binSeconds)]++;
    }
    return h;
  }
}
