package io.locus.sim.workload;

import io.locus.workloads.TraceJob;
import java.util.Iterator;
import java.util.SplittableRandom;

/**
 * The what-if cancels of {@code locus simulate --cancel F}: each job of the stream is cancelled
 * with probability F, at a time drawn uniformly within a window after its arrival; a job whose
 * trace sets {@code cancelAfter} keeps it. Draws come from the run's seed, two per job in stream
 * order whether it is drawn or not, so equal seeds cancel the same jobs at the same times and
 * changing F moves only which jobs fall under it.
 */
public final class CancelDraws implements Iterator<TraceJob> {
  private final Iterator<TraceJob> jobs;
  private final double fraction;
  private final double withinSeconds;
  private final double bytesPerSecond;
  private final SplittableRandom rng;

  /**
   * @param withinSeconds the window after arrival; NaN: twice the job's uncontended run time,
   *     its compute plus its bytes at {@code bytesPerSecond}
   */
  public CancelDraws(Iterator<TraceJob> jobs, double fraction, double withinSeconds,
      double bytesPerSecond, SplittableRandom rng) {
    this.jobs = jobs;
    this.fraction = fraction;
    this.withinSeconds = withinSeconds;
    this.bytesPerSecond = bytesPerSecond;
    this.rng = rng;
  }

  @Override
  public boolean hasNext() {
    return jobs.hasNext();
  }

  @Override
  public TraceJob next() {
    TraceJob j = jobs.next();
    double drawn = rng.nextDouble();
    double at = rng.nextDouble();
    if (drawn >= fraction || j.cancelAfter() != null) {
      return j;
    }
    double window = Double.isNaN(withinSeconds)
        ? 2 * (j.totalComputeSeconds() + j.totalBytes() / bytesPerSecond)
        : withinSeconds;
    return j.withCancelAfter(at * window);
  }
}
