package io.locus.cli.demo;

import io.locus.schemas.EventRange;
import io.locus.schemas.JobSubmitted;
import io.locus.workloads.CernEventJobs;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The demo's event-range workload for split pools: the CERN spec's jobs ({@link CernEventJobs},
 * spec §4: Erlang-4 lengths, half of the starts in the two hot spots H1 and H2) with every event
 * count divided by {@code scale}, so that a job of the spec's mean 40,000 events becomes one of
 * 400 and the data space D = 3,333,333 events becomes 33,333. Arrivals are Poisson in wall-clock
 * time at {@code arrivalsPerSecond}. Deterministic for a seed; submit times are set when published.
 */
public final class SplitDemoWorkload {
  /** CPU seconds per event, as CernEventJobs: the job's compute is its length times this. */
  private static final double CPU_SECONDS_PER_EVENT = CernEventJobs.CPU_SECONDS_PER_EVENT;

  /** Generator settings. */
  public record Spec(int jobs, long seed, long scale, double arrivalsPerSecond, String dataset) {
    public Spec {
      if (jobs < 1) {
        throw new IllegalArgumentException("jobs must be >= 1, got " + jobs);
      }
      if (scale < 1 || CernEventJobs.DEFAULT_SPACE / scale < 20 * CernEventJobs.MIN) {
        throw new IllegalArgumentException("scale must be between 1 and "
            + CernEventJobs.DEFAULT_SPACE / (20 * CernEventJobs.MIN) + ", got " + scale);
      }
      if (!(arrivalsPerSecond > 0) || !Double.isFinite(arrivalsPerSecond)) {
        throw new IllegalArgumentException("arrivals per second must be > 0, got "
            + arrivalsPerSecond);
      }
      if (dataset == null || dataset.isBlank()) {
        throw new IllegalArgumentException("dataset is required");
      }
    }

    /** Events in the scaled data space. */
    public long space() {
      return CernEventJobs.DEFAULT_SPACE / scale;
    }
  }

  /** A job and when to publish it, in wall-clock seconds after the first. */
  public record Job(JobSubmitted job, double atSeconds) {}

  private SplitDemoWorkload() {}

  public static List<Job> generate(String pool, Spec spec) {
    SplittableRandom rnd = new SplittableRandom(spec.seed());
    long space = spec.space();
    List<Job> jobs = new ArrayList<>(spec.jobs());
    double t = 0;
    for (int i = 0; i < spec.jobs(); i++) {
      if (i > 0) {
        t += -Math.log(1 - rnd.nextDouble()) / spec.arrivalsPerSecond();
      }
      CernEventJobs.Draw d = CernEventJobs.next(rnd, CernEventJobs.DEFAULT_SPACE, true);
      long len = Math.max(CernEventJobs.MIN, Math.round((double) d.events().length()
          / spec.scale()));
      len = Math.min(len, space);
      long start = Math.min(d.events().start() / spec.scale(), space - len);
      jobs.add(new Job(JobSubmitted.newBuilder()
          .setJobId(String.format("%s-job-%04d", pool, i))
          .setPool(pool)
          .setSubmitTimeMs(0)
          .setInputs(new ArrayList<>())
          .setSplittable(true)
          .setComputeSeconds(len * CPU_SECONDS_PER_EVENT)
          .setEvents(new EventRange(spec.dataset(), start, start + len))
          .build(), t));
    }
    return jobs;
  }

  /** Events of all jobs. */
  public static long events(List<Job> jobs) {
    long n = 0;
    for (Job j : jobs) {
      n += j.job().getEvents().getEnd() - j.job().getEvents().getStart();
    }
    return n;
  }
}
