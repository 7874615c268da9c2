package io.locus.workloads;

import io.locus.core.model.InputFile;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * {@code STACKING}, astronomy image stacking (data-diffusion spec §4.4).
 *
 * <p>A row of the locality table gives the objects (tasks) and the files; locality L = objects /
 * files. Object o is in file o mod F, which spreads objects over files as evenly as possible. Tasks
 * are submitted at t = 0 in a uniformly shuffled order. Each reads its object's file (2 MB GZ or
 * 6 MB FIT) and stacks a region for {@code cStack} seconds, plus {@code decompress} seconds for GZ.
 */
public final class Stacking {
  /** One row of the §4.4 table. {@code locality} is the label as published ("1.38"). */
  public record Row(String locality, int objects, int files) {
    /** Measured locality objects / files (e.g. 154,345 / 111,699 = 1.382). */
    public double ratio() {
      return (double) objects / files;
    }
  }

  /** The fixed table of §4.4. */
  public static final List<Row> TABLE = List.of(
      new Row("1", 111_700, 111_700),
      new Row("1.38", 154_345, 111_699),
      new Row("2", 97_999, 49_000),
      new Row("3", 88_857, 29_620),
      new Row("4", 76_575, 19_145),
      new Row("5", 60_590, 12_120),
      new Row("10", 46_480, 4_650),
      new Row("20", 40_460, 2_025),
      new Row("30", 23_695, 790));

  /** Image file format; sizes are decimal, as everywhere in data diffusion. */
  public enum Format {
    GZ(2 * Units.MB),
    FIT(6 * Units.MB);

    public final long bytes;

    Format(long bytes) {
      this.bytes = bytes;
    }
  }

  /** The spec gives no absolute c_stack, only that the task is I/O-bound: default 10 ms. */
  public static final double DEFAULT_C_STACK = 0.010;

  private Stacking() {}

  public static Row row(String locality) {
    for (Row r : TABLE) {
      if (r.locality().equals(locality)) {
        return r;
      }
    }
    throw new IllegalArgumentException("unknown STACKING locality '" + locality + "'; valid: "
        + TABLE.stream().map(Row::locality).collect(Collectors.joining(", ")));
  }

  /**
   * @param locality a label of {@link #TABLE}
   * @param cStack stacking compute per task (seconds)
   * @param decompress extra compute per GZ task (seconds), default 0
   */
  public static Workload workload(String locality, Format format, double cStack, double decompress,
      long seed) {
    Row row = row(locality);
    if (!(cStack >= 0) || !(decompress >= 0) || Double.isInfinite(cStack + decompress)) {
      throw new IllegalArgumentException("STACKING compute must be finite and >= 0");
    }
    double compute = cStack + (format == Format.GZ ? decompress : 0.0);
    return new Workload("stacking",
        "STACKING (data-diffusion §4.4): L = " + row.locality() + ", " + row.objects()
            + " objects over " + row.files() + " " + format + " files, shuffled, all at t = 0, "
            + "compute " + compute + " s; seed " + seed,
        row.objects(), () -> {
          // A shuffle needs the whole permutation; at most 154,345 ints (0.6 MB) is fine.
          int[] order = Draws.permutation(row.objects(), new SplittableRandom(seed));
          return new CountingIterator(row.objects()) {
            @Override
            TraceJob make(long k) {
              int object = order[(int) k];
              InputFile in = new InputFile("stack-f" + (object % row.files()), format.bytes, 0.0,
                  null, null);
              return new TraceJob("stack-o" + object, null, 0.0, List.of(in), compute, 0,
                  Map.of("object", Integer.toString(object)));
            }
          };
        });
  }
}
