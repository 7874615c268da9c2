package io.locus.workloads;

import io.locus.core.model.ResourceVector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The job mixes of the hybrid co-scheduling spec (§4): jobs with a resource profile and no input
 * files.
 *
 * <ul>
 *   <li>{@code IDEAL_MIX}: exactly round(N · fracCPU) jobs ⟨1, 0, 0⟩ (CPU) and the rest ⟨0, 0, 1⟩
 *       (disk), in a uniformly random submission order.
 *   <li>{@code RANDOM_MIX}: c, m, d i.i.d. continuous U[0, 1] (D9).
 *   <li>{@code NOISY_MIX}: round(N · fracCPU) CPU jobs ⟨U(0.7, 1), U(0, 0.2), U(0, 0.2)⟩ and I/O
 *       jobs ⟨U(0, 0.3), U(0, 0.2), U(0.7, 1)⟩, shuffled.
 * </ul>
 *
 * Profiles are fractions of one node (D1); thesis mode reads them × 100 ({@link #toJob}). Each job
 * carries them as the attributes {@code cpu}, {@code mem}, {@code disk} (exact decimal text of the
 * doubles, so a trace file round-trips bit for bit) and its class ({@code CPU}, {@code IO}, or D2's
 * classification for RANDOM_MIX) as {@code class}. Its duration is {@code computeSeconds}: fixed
 * (default 600 s, one epoch, A5) or exponential with that mean. Arrivals are all at 0 (the thesis
 * batch) or Poisson at {@code rate} jobs/s. The seed feeds three independent streams (profiles,
 * arrivals, durations), so changing the arrival rate or durations keeps the same profiles.
 */
public final class HybridMix {
  /** Which mix. */
  public enum Kind {
    IDEAL("ideal-mix"),
    RANDOM("random-mix"),
    NOISY("noisy-mix");

    private final String workloadName;

    Kind(String workloadName) {
      this.workloadName = workloadName;
    }

    public String workloadName() {
      return workloadName;
    }
  }

  /** One epoch (A5), the default duration. */
  public static final double EPOCH_SECONDS = 600.0;
  public static final String CPU = "cpu";
  public static final String MEM = "mem";
  public static final String DISK = "disk";
  public static final String CLASS = "class";

  /** A mix's settings; {@code rate} 0 = every job at t = 0. */
  public record Options(Kind kind, int n, double fracCpu, double rate, double duration,
      boolean exponentialDurations) {
    public Options {
      if (n < 1) {
        throw new IllegalArgumentException("n must be >= 1, got " + n);
      }
      if (!(fracCpu >= 0 && fracCpu <= 1)) {
        throw new IllegalArgumentException("fracCpu must be in [0, 1], got " + fracCpu);
      }
      if (!(rate >= 0) || Double.isInfinite(rate)) {
        throw new IllegalArgumentException("rate must be a finite number >= 0 jobs/s, got "
            + rate);
      }
      if (!(duration > 0) || Double.isInfinite(duration)) {
        throw new IllegalArgumentException("duration must be a finite number > 0 s, got "
            + duration);
      }
    }

    /** The thesis's batch: N jobs at t = 0, one epoch each. */
    public static Options batch(Kind kind, int n) {
      return new Options(kind, n, 0.5, 0, EPOCH_SECONDS, false);
    }
  }

  private HybridMix() {}

  /** The profiles in submission order, and each one's class. */
  record Drawn(List<ResourceVector> profiles, List<String> classes) {}

  static Drawn draw(Kind kind, int n, double fracCpu, SplittableRandom rng) {
    List<ResourceVector> profiles = new ArrayList<>(n);
    List<String> classes = new ArrayList<>(n);
    if (kind == Kind.RANDOM) {
      for (int i = 0; i < n; i++) {
        ResourceVector v = ResourceVector.of(rng.nextDouble(), rng.nextDouble(), rng.nextDouble());
        profiles.add(v);
        classes.add(v.classify(1));
      }
      return new Drawn(profiles, classes);
    }
    int cpuJobs = (int) Math.round(n * fracCpu);
    int[] order = Draws.permutation(n, rng); // position i holds job order[i]; < cpuJobs is CPU
    for (int i = 0; i < n; i++) {
      boolean cpu = order[i] < cpuJobs;
      classes.add(cpu ? "CPU" : "IO");
      if (kind == Kind.IDEAL) {
        profiles.add(cpu ? ResourceVector.of(1, 0, 0) : ResourceVector.of(0, 0, 1));
      } else if (cpu) {
        profiles.add(ResourceVector.of(u(rng, 0.7, 1), u(rng, 0, 0.2), u(rng, 0, 0.2)));
      } else {
        profiles.add(ResourceVector.of(u(rng, 0, 0.3), u(rng, 0, 0.2), u(rng, 0.7, 1)));
      }
    }
    return new Drawn(profiles, classes);
  }

  private static double u(SplittableRandom rng, double lo, double hi) {
    return lo + (hi - lo) * rng.nextDouble();
  }

  public static Workload workload(Options o, long seed) {
    String desc = o.kind().name() + "_MIX (hybrid §4): " + o.n() + " jobs"
        + (o.kind() == Kind.RANDOM ? "" : ", fracCPU " + o.fracCpu())
        + (o.rate() == 0 ? ", all at t = 0" : ", Poisson arrivals at " + o.rate() + " jobs/s")
        + ", " + (o.exponentialDurations() ? "exponential durations, mean " : "duration ")
        + o.duration() + " s; seed " + seed;
    return new Workload(o.kind().workloadName(), desc, o.n(), () -> {
      SplittableRandom root = new SplittableRandom(seed);
      SplittableRandom profileRng = root.split();
      SplittableRandom arrivalRng = root.split();
      SplittableRandom durationRng = root.split();
      Drawn d = draw(o.kind(), o.n(), o.fracCpu(), profileRng);
      return new CountingIterator(o.n()) {
        private double t;

        @Override
        TraceJob make(long k) {
          if (o.rate() > 0) {
            t += -Math.log(1 - arrivalRng.nextDouble()) / o.rate();
          }
          double duration = o.exponentialDurations()
              ? -Math.log(1 - durationRng.nextDouble()) * o.duration()
              : o.duration();
          ResourceVector v = d.profiles().get((int) k);
          return new TraceJob(o.kind().workloadName().replace("-mix", "") + "-" + k, null, t,
              List.of(), duration, 0, Map.of(CPU, Double.toString(v.cpu()),
                  MEM, Double.toString(v.mem()), DISK, Double.toString(v.disk()),
                  CLASS, d.classes().get((int) k)));
        }
      };
    });
  }

  /** A job's profile from its attributes, or null when it has none (a job of another workload). */
  public static ResourceVector profile(TraceJob job) {
    Map<String, String> a = job.attributes();
    if (!a.containsKey(CPU) && !a.containsKey(MEM) && !a.containsKey(DISK)) {
      return null;
    }
    try {
      return ResourceVector.of(share(a, CPU), share(a, MEM), share(a, DISK));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("job " + job.jobId() + ": bad profile attributes " + a
          + ": " + e.getMessage(), e);
    }
  }

  private static double share(Map<String, String> a, String key) {
    String v = a.get(key);
    return v == null ? 0 : Double.parseDouble(v);
  }

  /**
   * A trace job as a co-scheduling job: profile × {@code unit} (1 for cluster mode, 100 for the
   * thesis's percentages), duration = its compute seconds, submission order {@code seq}.
   */
  public static HybridJob toJob(TraceJob job, long seq, double unit) {
    ResourceVector p = profile(job);
    if (p == null) {
      throw new IllegalArgumentException("job " + job.jobId() + " has no resource profile");
    }
    return new HybridJob(job.jobId(), seq, p.scale(unit), job.arrival(), job.computeSeconds());
  }

  /** Every job of a workload, in submission order. */
  public static List<HybridJob> jobs(Workload w, double unit) {
    List<HybridJob> out = new ArrayList<>((int) w.size());
    long seq = 0;
    for (TraceJob j : w) {
      out.add(toJob(j, seq++, unit));
    }
    return out;
  }
}
