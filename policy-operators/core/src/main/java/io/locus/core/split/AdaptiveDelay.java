package io.locus.core.split;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Map;

/**
 * {@code ADAPTIVE_DELAY} (spec §2.7, D21): {@link Delayed} with the smallest period d of the
 * calibrated table whose sustainable load Lmax(d) is at least (1 + margin) × λ̂, λ̂ being the
 * arrivals of the last 24 h per hour; the largest d when none is. d rises at once and falls only
 * after {@code hysteresis} consecutive evaluations ask for less. Evaluated at every period end, and
 * every hour while d = 0. The table comes from the offline calibration (E6).
 */
public final class AdaptiveDelay extends Delayed {
  private double d;
  private int lowerVotes;
  private double nextEvaluation;
  private final ArrayDeque<Double> window = new ArrayDeque<>();

  public AdaptiveDelay(SplitParams params) {
    super(params);
    if (params.lmaxTable().isEmpty()) {
      throw new IllegalArgumentException("ADAPTIVE_DELAY needs a non-empty lmaxTable");
    }
    d = params.lmaxTable().firstKey();
    nextEvaluation = nextBoundary(0);
  }

  /** The period in force. */
  public double currentPeriod() {
    return d;
  }

  /** λ̂ in jobs per hour over the window ending now. */
  public double estimatedRate() {
    return window.size() / (params.windowSeconds() / 3600.0);
  }

  @Override
  protected double period() {
    return d;
  }

  @Override
  protected void arrival(JobState j) {
    window.addLast(now);
    super.arrival(j);
  }

  @Override
  protected double timerAt() {
    return Math.min(super.timerAt(), nextEvaluation);
  }

  @Override
  protected void timer() {
    super.timer();
    if (now >= nextEvaluation) {
      evaluate();
      nextEvaluation = nextBoundary(now);
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
    while (!window.isEmpty() && window.peekFirst() <= now - params.windowSeconds()) {
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

  @Override
  protected void writeState(DataOutput o) throws IOException {
    super.writeState(o);
    o.writeDouble(d);
    o.writeInt(lowerVotes);
    o.writeDouble(nextEvaluation);
    o.writeInt(window.size());
    for (double t : window) {
      o.writeDouble(t);
    }
  }

  @Override
  protected void readState(DataInput in) throws IOException {
    super.readState(in);
    d = in.readDouble();
    lowerVotes = in.readInt();
    nextEvaluation = in.readDouble();
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      window.addLast(in.readDouble());
    }
  }
}
