package io.locus.sim;

import io.locus.core.model.InputFile;
import io.locus.workloads.TraceJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Hand-built workloads for the tests, through the real {@link TraceJob} type. */
public final class TestJobs {
  public static final long MB = 1_000_000L;

  private TestJobs() {}

  /**
   * An MI-like trace: steps of {@code stepSeconds} whose rate starts at {@code firstRate} and grows
   * by {@code growth} per step; each task reads one of {@code files} files of {@code fileBytes},
   * drawn uniformly with replacement, then computes {@code compute} seconds.
   */
  public static List<TraceJob> miLike(int tasks, int files, long fileBytes, double firstRate,
      double growth, double stepSeconds, double compute, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    List<TraceJob> jobs = new ArrayList<>(tasks);
    double rate = firstRate;
    int step = 0;
    int inStep = 0;
    for (int k = 0; k < tasks; k++) {
      if (inStep >= rate * stepSeconds) {
        step++;
        rate = Math.ceil(rate * growth);
        inStep = 0;
      }
      double arrival = step * stepSeconds + inStep / rate;
      inStep++;
      InputFile f = InputFile.of("f" + rng.nextInt(files), fileBytes);
      jobs.add(new TraceJob("t" + k, null, arrival, List.of(f), compute, 0,
          Map.of("step", Integer.toString(step))));
    }
    return jobs;
  }

  /** Tasks without input, all at {@code arrival}. */
  public static List<TraceJob> sleeps(int n, double arrival, double seconds) {
    List<TraceJob> jobs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      jobs.add(new TraceJob("s" + i, arrival, List.of(), seconds));
    }
    return jobs;
  }

  public static TraceJob job(String id, double arrival, double compute, InputFile... inputs) {
    return new TraceJob(id, arrival, List.of(inputs), compute);
  }

  public static long totalBytes(List<TraceJob> jobs) {
    long sum = 0;
    for (TraceJob j : jobs) {
      sum += j.totalBytes();
    }
    return sum;
  }
}
