package io.locus.core.split;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code ADAPTIVE_DELAY} (spec §2.7, D21): {@link Delayed} with the smallest period d of the
 * calibrated table whose sustainable load Lmax(d) is at least (1 + margin) × λ̂, λ̂ being the
 * arrivals of the last 24 h per hour; the largest d when none is. d rises at once and falls only
 * after {@code hysteresis} consecutive evaluations ask for less. Evaluated at every period end, and
 * every hour while d = 0. The table comes from the offline calibration (E6).
 */
final class AdaptiveDelay implements PolicyHooks {
  private final Primitives ops;
  private final SplitParams params;
  private final Delayed delayed;
  private double d;
  private int lowerVotes;
  private double nextEvaluation;
  /** Arrival times in the rate window. */
  private final TimeQueue window;

  AdaptiveDelay(Primitives ops) {
    this.ops = ops;
    this.params = ops.params;
    if (params.lmaxTable().isEmpty()) {
      throw new IllegalArgumentException("ADAPTIVE_DELAY needs a non-empty lmaxTable");
    }
    this.delayed = new Delayed(ops, () -> d);
    this.window = new TimeQueue("window", ops.state.changes);
    d = params.lmaxTable().firstKey();
    nextEvaluation = nextBoundary(0);
  }

  /** The period in force. */
  double currentPeriod() {
    return d;
  }

  /** λ̂ in jobs per hour over the window ending now. */
  double estimatedRate() {
    return window.size() / (params.windowSeconds() / 3600.0);
  }

  @Override
  public void arrival(JobState j) {
    window.addLast(ops.now());
    delayed.arrival(j);
  }

  @Override
  public void subjobEnded(SplitNode v, JobState k, boolean jobFinished) {
    delayed.subjobEnded(v, k, jobFinished);
  }

  @Override
  public void nodeAvailable(SplitNode v) {
    delayed.nodeAvailable(v);
  }

  @Override
  public void requeue(Subjob x) {
    delayed.requeue(x);
  }

  @Override
  public void jobCancelled(JobState j) {
    delayed.jobCancelled(j); // the rate window keeps its arrival: it did arrive
  }

  @Override
  public boolean queueBacklog() {
    return delayed.queueBacklog();
  }

  @Override
  public double timerAt() {
    return Math.min(delayed.timerAt(), nextEvaluation);
  }

  @Override
  public void timer() {
    delayed.timer();
    if (ops.now() >= nextEvaluation) {
      evaluate();
      nextEvaluation = nextBoundary(ops.now());
      ops.state.changes.memory(period());
    }
  }

  private PolicyEntry.AdaptivePeriod period() {
    return new PolicyEntry.AdaptivePeriod(d, lowerVotes, nextEvaluation);
  }

  @Override
  public void exportMemory(Consumer<PolicyEntry> out) {
    delayed.exportMemory(out);
    window.export(out);
    out.accept(period());
  }

  @Override
  public void restore(List<PolicyEntry> memory) {
    delayed.restore(memory);
    window.restore(memory);
    for (Iterator<PolicyEntry> it = memory.iterator(); it.hasNext(); ) {
      if (it.next() instanceof PolicyEntry.AdaptivePeriod p) {
        d = p.period();
        lowerVotes = p.lowerVotes();
        nextEvaluation = p.nextEvaluation();
        it.remove();
      }
    }
  }

  /** The candidate period for the rate λ̂ (W10). */
  static double choose(Map<Double, Double> table, double rate, double margin) {
    double need = (1 + margin) * rate;
    double last = Double.NaN;
    for (Map.Entry<Double, Double> e : table.entrySet()) {
      if (e.getValue() >= need) {
        return e.getKey();
      }
      last = e.getKey();
    }
    return last;
  }

  private void evaluate() {
    while (!window.isEmpty() && window.peekFirst() <= ops.now() - params.windowSeconds()) {
      window.pollFirst();
    }
    double cand = choose(params.lmaxTable(), estimatedRate(), params.margin());
    if (cand > d) {
      d = cand;
      lowerVotes = 0;
    } else if (cand < d) {
      if (++lowerVotes >= params.hysteresis()) {
        d = cand;
        lowerVotes = 0;
      }
    } else {
      lowerVotes = 0;
    }
  }

  /** The next evaluation after t: the next period end, or the next hour while d = 0. */
  private double nextBoundary(double t) {
    double step = d > 0 ? d : params.evaluateSeconds();
    return (Math.floor(t / step) + 1) * step;
  }

}
