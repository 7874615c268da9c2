package io.locus.cli.bench;

import io.locus.cli.demo.DemoWorkload;
import io.locus.schemas.DataUnit;
import io.locus.schemas.JobSubmitted;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The bench's endless job source. {@code zipf}: the demo's jobs ({@link DemoWorkload}: 1–3 inputs
 * of Zipf popularity), cycled from a fixed set of templates so a long run needs no more memory.
 * {@code no-idle}: every job reads one of the files every node preloads ({@code PREFIX0} …
 * {@code PREFIX(N-1)}, {@code locus agent sim --preload-files}), so every node is a holder of
 * every input and a data-aware policy has no reason to leave a slot idle. Deterministic for a seed.
 * Job ids end in {@code -j<seq>}: the bench finds its publish time by that number.
 */
public final class BenchWorkload {
  /** The agents' default preload prefix; the bench passes it explicitly anyway. */
  public static final String PRELOAD_PREFIX = "bench-file-";
  private static final int TEMPLATES = 10_000;

  private final BenchConfig.Workload kind;
  private final List<JobSubmitted> templates;
  private final int files;
  private final long fileBytes;
  private final long seed;

  public BenchWorkload(BenchConfig cfg) {
    this.kind = cfg.workload();
    this.files = cfg.files();
    this.fileBytes = cfg.fileBytes();
    this.seed = cfg.seed();
    this.templates = kind == BenchConfig.Workload.ZIPF
        ? DemoWorkload.generate("bench", DemoWorkload.Spec.demo(TEMPLATES, files, seed))
        : List.of();
  }

  /** Job number {@code seq} of {@code pool}; its submit time is set by the caller. */
  public JobSubmitted job(String pool, long seq) {
    String id = pool + "-j" + seq;
    if (kind == BenchConfig.Workload.ZIPF) {
      JobSubmitted t = templates.get((int) (seq % templates.size()));
      return JobSubmitted.newBuilder(t).setJobId(id).setPool(pool).build();
    }
    // A per-job stream: the same seq draws the same file and compute whatever the pacing.
    SplittableRandom rnd = new SplittableRandom(seed ^ (seq * 0x9E3779B97F4A7C15L));
    int f = rnd.nextInt(files);
    double compute = 0.5 + rnd.nextDouble() * 1.5; // the demo's 0.5–2 modelled seconds
    return JobSubmitted.newBuilder()
        .setJobId(id)
        .setPool(pool)
        .setSubmitTimeMs(0)
        .setInputs(List.of(DataUnit.newBuilder().setId(PRELOAD_PREFIX + f).setBytes(fileBytes)
            .build()))
        .setComputeSeconds(Math.round(compute * 1000) / 1000.0)
        .build();
  }

  /** The sequence number in a bench job id, or -1 if it is not one. */
  public static long seqOf(String jobId) {
    int i = jobId.lastIndexOf("-j");
    if (i < 0) {
      return -1;
    }
    try {
      return Long.parseLong(jobId, i + 2, jobId.length(), 10);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
