package io.locus.cli.demo;

import io.locus.schemas.DataUnit;
import io.locus.schemas.JobSubmitted;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The demo's workload: jobs that each read 1 to {@code maxInputs} files out of a shared set, file
 * popularity Zipf-distributed (a few hot files, a long tail), so data-aware placement has
 * something to exploit. Deterministic for a seed. Submit times are set when published.
 */
public final class DemoWorkload {
  /** Generator settings; sizes in bytes, compute in modelled seconds. */
  public record Spec(int tasks, int files, long seed, long minFileBytes, long maxFileBytes,
      int maxInputs, double zipfExponent, double minCompute, double maxCompute) {
    public Spec {
      if (tasks < 1 || files < 1 || maxInputs < 1 || minFileBytes < 0
          || maxFileBytes < minFileBytes || minCompute < 0 || maxCompute < minCompute) {
        throw new IllegalArgumentException("invalid workload spec " + this);
      }
    }

    public static Spec demo(int tasks, int files, long seed) {
      return new Spec(tasks, files, seed, 20_000_000L, 200_000_000L, 3, 1.1, 0.5, 2.0);
    }

    /** For real agents: the same sharing, files small enough to write to disk (16 KB – 1 MB). */
    public static Spec real(int tasks, int files, long seed) {
      return new Spec(tasks, files, seed, 16_000L, 1_000_000L, 3, 1.1, 0.0, 0.0);
    }
  }

  private DemoWorkload() {}

  public static List<JobSubmitted> generate(String pool, Spec spec) {
    SplittableRandom rnd = new SplittableRandom(spec.seed());
    long[] sizes = fileSizes(spec, rnd);
    double[] cdf = zipfCdf(spec.files(), spec.zipfExponent());
    List<JobSubmitted> jobs = new ArrayList<>(spec.tasks());
    for (int i = 0; i < spec.tasks(); i++) {
      int n = 1 + rnd.nextInt(spec.maxInputs());
      Set<Integer> chosen = new LinkedHashSet<>();
      while (chosen.size() < Math.min(n, spec.files())) {
        chosen.add(sample(cdf, rnd.nextDouble()));
      }
      List<DataUnit> inputs = new ArrayList<>(chosen.size());
      for (int f : chosen) {
        inputs.add(DataUnit.newBuilder().setId(fileId(f)).setBytes(sizes[f]).build());
      }
      double compute = spec.minCompute() + rnd.nextDouble() * (spec.maxCompute() - spec.minCompute());
      jobs.add(JobSubmitted.newBuilder()
          .setJobId(String.format("%s-job-%06d", pool, i))
          .setPool(pool)
          .setSubmitTimeMs(0)
          .setInputs(inputs)
          .setComputeSeconds(Math.round(compute * 1000) / 1000.0)
          .build());
    }
    return jobs;
  }

  /**
   * Writes every file a workload of {@code spec} reads into {@code dir} (the storage the real agents
   * stage from), with the sizes the jobs declare and seeded random content.
   */
  public static void writeStorage(java.nio.file.Path dir, Spec spec) throws java.io.IOException {
    java.nio.file.Files.createDirectories(dir);
    SplittableRandom rnd = new SplittableRandom(spec.seed());
    long[] sizes = fileSizes(spec, rnd);
    java.util.Random content = new java.util.Random(spec.seed());
    byte[] buf = new byte[64 * 1024];
    for (int f = 0; f < sizes.length; f++) {
      try (var out = java.nio.file.Files.newOutputStream(dir.resolve(fileId(f)))) {
        long left = sizes[f];
        while (left > 0) {
          content.nextBytes(buf);
          int n = (int) Math.min(buf.length, left);
          out.write(buf, 0, n);
          left -= n;
        }
      }
    }
  }

  /** File sizes: drawn first from the seed, so {@link #generate} and {@link #writeStorage} agree. */
  private static long[] fileSizes(Spec spec, SplittableRandom rnd) {
    long[] sizes = new long[spec.files()];
    for (int f = 0; f < sizes.length; f++) {
      sizes[f] = spec.minFileBytes()
          + (long) (rnd.nextDouble() * (spec.maxFileBytes() - spec.minFileBytes()));
    }
    return sizes;
  }

  public static String fileId(int f) {
    return String.format("file-%05d", f);
  }

  private static double[] zipfCdf(int n, double s) {
    double[] cdf = new double[n];
    double sum = 0;
    for (int k = 0; k < n; k++) {
      sum += 1.0 / Math.pow(k + 1, s);
      cdf[k] = sum;
    }
    for (int k = 0; k < n; k++) {
      cdf[k] /= sum;
    }
    return cdf;
  }

  private static int sample(double[] cdf, double u) {
    int lo = 0;
    int hi = cdf.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cdf[mid] < u) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
