package io.locus.sim.metrics;

import io.locus.core.model.Task;
import io.locus.sim.flow.FlowNetwork;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Collects the metrics of spec §6 while a simulation runs. The driver calls {@link #advance} before
 * it applies the events of a new time, so byte rates (constant between events) are integrated
 * exactly and gauges are sampled at each whole second. Per-task data is folded into sums at once:
 * SW's 2,000,000 tasks leave nothing behind but the per-step slowdown bookkeeping.
 */
public final class MetricsRecorder {
  private static final int SOURCES = 3;
  private final double stepSeconds;

  // per second
  private final GrowableDoubles arrivals = new GrowableDoubles();
  private final GrowableDoubles demandBytes = new GrowableDoubles();
  private final GrowableDoubles completions = new GrowableDoubles();
  private final GrowableDoubles[] flowBytes = {new GrowableDoubles(), new GrowableDoubles(),
      new GrowableDoubles()};
  private final GrowableDoubles[] accessCount = {new GrowableDoubles(), new GrowableDoubles(),
      new GrowableDoubles()};
  private final GrowableDoubles queue = new GrowableDoubles();
  private final GrowableDoubles busy = new GrowableDoubles();
  private final GrowableDoubles registered = new GrowableDoubles();
  private final GrowableDoubles nodes = new GrowableDoubles();
  private final GrowableDoubles pending = new GrowableDoubles();
  private int nextSample;

  // totals
  private final long[] accesses = new long[SOURCES];
  private final long[] bytes = new long[SOURCES];
  private double abortedBytes;
  private double integratedBytes;
  private double busySlotSeconds;
  private long completed;
  private long failed;
  private double sumResponse;
  private double sumQueue;
  private double sumExec;
  private double sumExecShare;
  private double lastCompletion = Double.NaN;
  private long arrivedBytes;
  private int maxNodes;

  // slowdown: the last task submitted in each step, and its completion
  private final GrowableDoubles stepLastSeq = new GrowableDoubles();
  private final GrowableDoubles stepLastArrival = new GrowableDoubles();
  private final GrowableDoubles stepLastCompute = new GrowableDoubles();
  private final GrowableDoubles stepLastCompletion = new GrowableDoubles();
  private final GrowableDoubles stepHasTask = new GrowableDoubles();
  private int steps;

  public MetricsRecorder(double stepSeconds) {
    if (!(stepSeconds > 0)) {
      throw new IllegalArgumentException("slowdown step must be > 0: " + stepSeconds);
    }
    this.stepSeconds = stepSeconds;
  }

  /**
   * Time passes from {@code from} to {@code to} with no event in between: integrates the flow rates
   * and busy slots, and samples the gauges at every whole second in (from, to] (at 0 on the first
   * call).
   */
  public void advance(double from, double to, FlowNetwork flows, PoolView view) {
    while (nextSample <= to) {
      sample(nextSample, view);
      nextSample++;
    }
    if (to <= from) {
      return;
    }
    busySlotSeconds += view.busySlots() * (to - from);
    for (int c = 0; c < SOURCES; c++) {
      double rate = flows.rateSum(c);
      if (rate > 0) {
        integrate(from, to, rate, flowBytes[c]);
        integratedBytes += rate * (to - from);
      }
    }
  }

  private static void integrate(double from, double to, double rate, GrowableDoubles col) {
    double t = from;
    while (t < to) {
      int k = (int) Math.floor(t);
      double end = Math.min(to, k + 1.0);
      col.add(k, rate * (end - t));
      t = end;
    }
  }

  private void sample(int k, PoolView v) {
    queue.set(k, v.queueLength());
    busy.set(k, v.busySlots());
    registered.set(k, v.registeredSlots());
    nodes.set(k, v.registeredNodes());
    pending.set(k, v.pendingNodes());
    maxNodes = Math.max(maxNodes, v.registeredNodes());
  }

  /** Notes a node count outside sampling instants (so a short-lived peak is not missed). */
  public void nodesNow(int registeredNodes) {
    maxNodes = Math.max(maxNodes, registeredNodes);
  }

  /** A task entered the wait queue. */
  public void released(Task t, double now) {
    int k = second(now);
    arrivals.add(k, 1);
    long b = t.totalBytes();
    demandBytes.add(k, b);
    arrivedBytes += b;
    int step = (int) Math.floor(now / stepSeconds);
    stepLastSeq.set(step, t.seq());
    stepLastArrival.set(step, now);
    stepLastCompute.set(step, t.totalComputeSeconds());
    stepLastCompletion.set(step, Double.NaN);
    stepHasTask.set(step, 1);
    steps = Math.max(steps, step + 1);
  }

  /** One access completed, from source 0 = local, 1 = peer, 2 = storage. */
  public void readDone(int source, long n, double now) {
    accesses[source]++;
    bytes[source] += n;
    accessCount[source].add(second(now), 1);
  }

  public void bytesAborted(double n) {
    abortedBytes += n;
  }

  /** A task completed: started (placed) at {@code start}, submitted at its submit time. */
  public void completed(Task t, double start, double now) {
    completed++;
    completions.add(second(now), 1);
    double q = Math.max(0.0, start - t.submitTime());
    double exec = now - start;
    sumResponse += now - t.submitTime();
    sumQueue += q;
    sumExec += exec;
    sumExecShare += exec + q > 0 ? exec / (exec + q) : 1.0;
    lastCompletion = Double.isNaN(lastCompletion) ? now : Math.max(lastCompletion, now);
    int step = (int) Math.floor(t.submitTime() / stepSeconds);
    if (step < steps && stepLastSeq.get(step) == t.seq()) {
      stepLastCompletion.set(step, now);
    }
  }

  /** A task failed past its retries: it ends without completing. */
  public void failedPermanently() {
    failed++;
  }

  public long completedCount() {
    return completed;
  }

  public double lastCompletion() {
    return lastCompletion;
  }

  public long[] accesses() {
    return accesses.clone();
  }

  public long[] bytes() {
    return bytes.clone();
  }

  public double abortedBytes() {
    return abortedBytes;
  }

  public double integratedBytes() {
    return integratedBytes;
  }

  public double busySlotSeconds() {
    return busySlotSeconds;
  }

  public int maxNodes() {
    return maxNodes;
  }

  public long arrivedBytes() {
    return arrivedBytes;
  }

  public DiffusionMetrics.Times times(double firstArrival, double idealTime) {
    double tn = lastCompletion - firstArrival;
    double n = completed;
    return new DiffusionMetrics.Times(firstArrival, lastCompletion, tn, idealTime, idealTime / tn,
        completed == 0 ? Double.NaN : sumResponse / n, completed == 0 ? Double.NaN : sumQueue / n,
        completed == 0 ? Double.NaN : sumExec / n,
        completed == 0 ? Double.NaN : sumExecShare / n);
  }

  /** SL_i = C_last(i) / (a_last(i) + compute) per step (spec §6, D16, E8). */
  public double[] slowdowns() {
    double[] out = new double[steps];
    for (int i = 0; i < steps; i++) {
      double c = stepLastCompletion.get(i);
      double a = stepLastArrival.get(i);
      boolean known = stepHasTask.get(i) > 0 && !Double.isNaN(c);
      out[i] = known ? c / (a + stepLastCompute.get(i)) : Double.NaN;
    }
    return out;
  }

  public double stepSeconds() {
    return stepSeconds;
  }

  /** The per-second series up to and including second {@code lastSecond}. */
  public TimeSeries series(int lastSecond) {
    int n = Math.max(0, lastSecond + 1);
    Map<String, double[]> cols = new LinkedHashMap<>();
    double[] time = new double[n];
    for (int k = 0; k < n; k++) {
      time[k] = k;
    }
    cols.put(TimeSeries.TIME, time);
    cols.put(TimeSeries.ARRIVALS, arrivals.toArray(n));
    cols.put(TimeSeries.DEMAND_GBPS, gbps(demandBytes.toArray(n)));
    cols.put(TimeSeries.COMPLETIONS, completions.toArray(n));
    double[] local = gbps(flowBytes[0].toArray(n));
    double[] peer = gbps(flowBytes[1].toArray(n));
    double[] storage = gbps(flowBytes[2].toArray(n));
    double[] total = new double[n];
    for (int k = 0; k < n; k++) {
      total[k] = local[k] + peer[k] + storage[k];
    }
    cols.put(TimeSeries.LOCAL_GBPS, local);
    cols.put(TimeSeries.PEER_GBPS, peer);
    cols.put(TimeSeries.STORAGE_GBPS, storage);
    cols.put(TimeSeries.THROUGHPUT_GBPS, total);
    double[] lh = accessCount[0].toArray(n);
    double[] ph = accessCount[1].toArray(n);
    double[] ms = accessCount[2].toArray(n);
    cols.put(TimeSeries.LOCAL_HITS, lh);
    cols.put(TimeSeries.PEER_HITS, ph);
    cols.put(TimeSeries.MISSES, ms);
    double[] ls = new double[n];
    double[] ps = new double[n];
    double[] mss = new double[n];
    for (int k = 0; k < n; k++) {
      double all = lh[k] + ph[k] + ms[k];
      if (all > 0) {
        ls[k] = lh[k] / all;
        ps[k] = ph[k] / all;
        mss[k] = ms[k] / all;
      }
    }
    cols.put(TimeSeries.LOCAL_SHARE, ls);
    cols.put(TimeSeries.PEER_SHARE, ps);
    cols.put(TimeSeries.MISS_SHARE, mss);
    cols.put(TimeSeries.QUEUE, queue.toArray(n));
    double[] b = busy.toArray(n);
    double[] r = registered.toArray(n);
    double[] util = new double[n];
    for (int k = 0; k < n; k++) {
      util[k] = r[k] > 0 ? b[k] / r[k] : 0.0;
    }
    cols.put(TimeSeries.BUSY_SLOTS, b);
    cols.put(TimeSeries.REGISTERED_SLOTS, r);
    cols.put(TimeSeries.CPU_UTIL, util);
    cols.put(TimeSeries.NODES, nodes.toArray(n));
    cols.put(TimeSeries.PENDING_NODES, pending.toArray(n));
    return new TimeSeries(cols);
  }

  private static double[] gbps(double[] bytesPerSecond) {
    for (int k = 0; k < bytesPerSecond.length; k++) {
      bytesPerSecond[k] = bytesPerSecond[k] * 8 / 1e9;
    }
    return bytesPerSecond;
  }

  private static int second(double t) {
    return (int) Math.floor(t);
  }
}
