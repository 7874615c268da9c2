package io.locus.workloads;

import io.locus.core.model.InputFile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * {@code KhannaImageTrace}: the medical-image workload of Khanna et al. (hypergraph spec §4, D23–D25).
 *
 * <p><b>Dataset (§4.1).</b> 2000 patients × 4 study days × (4 MRI of 4 MiB + 4 CT of 64 MiB):
 * file {@code fid = p·32 + d·8 + m·4 + i} (m = 0 MRI, 1 CT), 64,000 files. File fid sits on storage
 * node {@code (fid mod 32) mod M}; the job's {@link InputFile#location()} names it {@code "sn-<k>"}.
 * Each file carries its compute cost C · size (s) in {@link InputFile#computeSeconds()} (§0).
 *
 * <p><b>Jobs (§4.2).</b> N/20 sharing clusters. Cluster c owns a base set of 16 images (one patient,
 * days d0 and d0+1); each of its 20 jobs draws 4 + Bin(6, 1/3) files, each with probability ρ from
 * what is left of the base set, else the next file of a shuffled pool of images of patients no
 * cluster uses (a fresh file: used by this job only).
 *
 * <p><b>Order and arrivals (§4.3, §4.4).</b> CLUSTERED: clusters in random order, each cluster's jobs
 * on consecutive arrival slots in generation order; RANDOM: a uniform permutation. Arrival times
 * are POISSON or LUBLIN, rescaled so the last arrival is TLarrival exactly.
 *
 * <p>The seed feeds three independent streams, split in a fixed order: jobs, ordering, arrivals. So
 * changing only the ordering or the arrival process keeps the same jobs, which makes X5–X9 panels
 * comparable.
 *
 * <p>The calibration helpers implement Eq. 5, 6, 10 and 11 (§1.5, §1.7, §4.5) and the overlap
 * measures O1 and O2 (§6).
 */
public final class KhannaImageTrace {
  public static final int PATIENTS = 2000;
  public static final int DAYS = 4;
  public static final int IMAGES_PER_PATIENT = 32;
  public static final int FILES = PATIENTS * IMAGES_PER_PATIENT;
  public static final int JOBS_PER_CLUSTER = 20;
  public static final int BASE_SET_FILES = 16;
  public static final long MRI_BYTES = 4 * Units.MIB;
  public static final long CT_BYTES = 64 * Units.MIB;
  /** Figures 5–8: TLarrival = 600 s, which makes N = 800 a Load of about 1 (§4.5). */
  public static final double DEFAULT_TL_ARRIVAL = 600;
  public static final int DEFAULT_STORAGE_NODES = 4;

  /** Overlap level: ρ, the probability a file is drawn from the cluster's base set (D23). */
  public enum Overlap {
    HIGH(0.85),
    MEDIUM(0.42),
    LOW(0.15);

    public final double rho;

    Overlap(double rho) {
      this.rho = rho;
    }
  }

  public enum Ordering {
    CLUSTERED,
    RANDOM
  }

  public enum Arrivals {
    POISSON,
    LUBLIN
  }

  /**
   * Static cost constants of Eq. 5/6: bandwidths in MiB/s, C in s/MiB, P compute nodes. {@link
   * #DEFAULT} is D26 (RBW calibrated once to 117, then held fixed) with P = 4.
   */
  public record TraceCosts(double rbw, double lbw, double c, int p) {
    public static final TraceCosts DEFAULT = new TraceCosts(117, 150, 0.001, 4);

    public TraceCosts {
      if (!(rbw > 0) || !(lbw > 0) || !(c >= 0) || p < 1) {
        throw new IllegalArgumentException("need rbw > 0, lbw > 0, c >= 0, p >= 1: rbw=" + rbw
            + " lbw=" + lbw + " c=" + c + " p=" + p);
      }
    }
  }

  /** What to generate. {@code cost} supplies C (per-file compute) and, for a load, P. */
  public record Options(int jobs, Overlap overlap, Ordering ordering, Arrivals arrivals,
      int storageNodes, TraceCosts cost) {
    public Options {
      if (jobs < JOBS_PER_CLUSTER || jobs % JOBS_PER_CLUSTER != 0) {
        throw new IllegalArgumentException("Khanna jobs must be a positive multiple of "
            + JOBS_PER_CLUSTER + ", got " + jobs);
      }
      if (jobs / JOBS_PER_CLUSTER >= PATIENTS) {
        throw new IllegalArgumentException("Khanna jobs " + jobs + " need more than " + PATIENTS
            + " patients");
      }
      if (storageNodes < 1) {
        throw new IllegalArgumentException("storage nodes must be >= 1: " + storageNodes);
      }
      if (overlap == null || ordering == null || arrivals == null || cost == null) {
        throw new IllegalArgumentException("overlap, ordering, arrivals and cost are required");
      }
    }

    /** N jobs, HIGH overlap, clustered, Poisson, M = 4, D26 costs: the §5 common settings. */
    public static Options defaults(int jobs) {
      return new Options(jobs, Overlap.HIGH, Ordering.CLUSTERED, Arrivals.POISSON,
          DEFAULT_STORAGE_NODES, TraceCosts.DEFAULT);
    }
  }

  private KhannaImageTrace() {}

  // ------------------------------------------------------------------ dataset (§4.1)

  public static int fileId(int patient, int day, int modality, int image) {
    return patient * IMAGES_PER_PATIENT + day * 8 + modality * 4 + image;
  }

  public static long sizeOf(int fid) {
    return (fid % 8) < 4 ? MRI_BYTES : CT_BYTES;
  }

  public static int storageOf(int fid, int storageNodes) {
    return (fid % IMAGES_PER_PATIENT) % storageNodes;
  }

  /** The file as a data unit: id {@code img-<fid>}, on {@code sn-<k>}, compute C · size. */
  public static InputFile file(int fid, int storageNodes, double cPerMib) {
    long bytes = sizeOf(fid);
    return new InputFile("img-" + fid, bytes, cPerMib * bytes / Units.MIB,
        "sn-" + storageOf(fid, storageNodes), null);
  }

  // ------------------------------------------------------------------ workloads

  /** A trace whose last arrival is {@code tlArrival} seconds. */
  public static Workload workload(Options o, double tlArrival, long seed) {
    if (!(tlArrival > 0) || Double.isInfinite(tlArrival)) {
      throw new IllegalArgumentException("TLarrival must be finite and > 0: " + tlArrival);
    }
    return build(o, generate(o, seed), tlArrival, seed);
  }

  /**
   * A trace at a given Load: TLarrival = N · AvgExecTime / (P · Load) (Eq. 11 generalised), with
   * AvgExecTime measured on this very trace (Eq. 10) and P from {@code o.cost()}.
   */
  public static Workload workloadAtLoad(Options o, double load, long seed) {
    if (!(load > 0) || Double.isInfinite(load)) {
      throw new IllegalArgumentException("load must be finite and > 0: " + load);
    }
    List<TraceJob> jobs = generate(o, seed);
    double tl = tlArrival(jobs.size(), avgExecTime(jobs, o.cost()), o.cost().p(), load);
    return build(o, jobs, tl, seed);
  }

  /** GENERATE of §4.2: jobs in generation order, arrival 0 for now. */
  static List<TraceJob> generate(Options o, long seed) {
    SplittableRandom rng = new SplittableRandom(seed).split(); // first stream: jobs
    int clusters = o.jobs() / JOBS_PER_CLUSTER;
    int[] perm = Draws.permutation(PATIENTS, rng);
    int[] fresh = new int[(PATIENTS - clusters) * IMAGES_PER_PATIENT];
    for (int k = clusters, n = 0; k < PATIENTS; k++) {
      for (int img = 0; img < IMAGES_PER_PATIENT; img++) {
        fresh[n++] = perm[k] * IMAGES_PER_PATIENT + img;
      }
    }
    Draws.shuffle(fresh, rng);
    int nextFresh = 0;
    double rho = o.overlap().rho;
    double c = o.cost().c();
    List<TraceJob> jobs = new ArrayList<>(o.jobs());
    for (int cl = 0; cl < clusters; cl++) {
      int patient = perm[cl];
      int d0 = rng.nextInt(DAYS - 1); // uniformInt(0, 2): days d0 and d0 + 1 must exist
      Map<String, String> attrs = Map.of("cluster", Integer.toString(cl),
          "basePatient", Integer.toString(patient), "baseDay", Integer.toString(d0));
      for (int j = 0; j < JOBS_PER_CLUSTER; j++) {
        int n = 4 + Draws.binomial(6, 1.0 / 3, rng);
        List<Integer> avail = new ArrayList<>(BASE_SET_FILES);
        for (int f = 0; f < BASE_SET_FILES; f++) {
          avail.add(patient * IMAGES_PER_PATIENT + d0 * 8 + f);
        }
        List<InputFile> files = new ArrayList<>(n);
        for (int f = 0; f < n; f++) {
          int fid;
          if (rng.nextDouble() < rho) {
            fid = avail.remove(rng.nextInt(avail.size()));
          } else {
            if (nextFresh == fresh.length) {
              throw new IllegalArgumentException("Khanna: " + o.jobs() + " jobs use up the "
                  + fresh.length + " fresh images");
            }
            fid = fresh[nextFresh++];
          }
          files.add(file(fid, o.storageNodes(), c));
        }
        jobs.add(new TraceJob("job-" + jobs.size(), null, 0.0, files, 0.0, 0, attrs));
      }
    }
    return jobs;
  }

  private static Workload build(Options o, List<TraceJob> jobs, double tl, long seed) {
    SplittableRandom root = new SplittableRandom(seed);
    root.split(); // jobs stream, used by generate
    SplittableRandom orderRng = root.split();
    SplittableRandom arrivalRng = root.split();
    int n = jobs.size();
    List<TraceJob> order = new ArrayList<>(n);
    if (o.ordering() == Ordering.CLUSTERED) {
      for (int cl : Draws.permutation(n / JOBS_PER_CLUSTER, orderRng)) {
        order.addAll(jobs.subList(cl * JOBS_PER_CLUSTER, (cl + 1) * JOBS_PER_CLUSTER));
      }
    } else {
      for (int k : Draws.permutation(n, orderRng)) {
        order.add(jobs.get(k));
      }
    }
    double[] at = o.arrivals() == Arrivals.POISSON
        ? poisson(n, tl, arrivalRng)
        : LublinArrivals.generate(n, tl, arrivalRng);
    List<TraceJob> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      TraceJob j = order.get(k);
      out.add(new TraceJob(j.jobId(), j.pool(), at[k], j.inputs(), j.computeSeconds(), j.stage(),
          j.attributes()));
    }
    double load = load(n, avgExecTime(jobs, o.cost()), o.cost().p(), tl);
    String desc = String.format(Locale.ROOT,
        "KhannaImageTrace (hypergraph §4): N = %d, overlap %s (rho %.2f), %s order, %s arrivals, "
            + "TLarrival %.3f s, M = %d, Load %.3f at P = %d; seed %d",
        n, o.overlap(), o.overlap().rho, o.ordering(), o.arrivals(), tl, o.storageNodes(), load,
        o.cost().p(), seed);
    return Workload.of("khanna", desc, out);
  }

  /** POISSON of §4.4: exponential gaps of mean TL/N, cumulated, rescaled so t_N = TL exactly. */
  static double[] poisson(int n, double tl, SplittableRandom rng) {
    double[] t = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      double gap;
      do {
        gap = -Math.log1p(-rng.nextDouble()) * tl / n; // nextDouble() = 0 would give gap 0
      } while (gap == 0);
      sum += gap;
      t[i] = sum;
    }
    return LublinArrivals.rescale(t, tl);
  }

  // ------------------------------------------------------------------ calibration (§1.5, §1.7)

  /**
   * Eq. 5 per file (D4), in seconds per MiB: Tr_f = (1/s_f)/RBW + (1 − 1/s_f)(1 − 1/P)/RBW, where
   * s_f is the number of jobs sharing f.
   */
  public static double trPerMib(int sf, int p, double rbw) {
    if (sf < 1 || p < 1) {
      throw new IllegalArgumentException("need s_f >= 1 and P >= 1: s_f=" + sf + " P=" + p);
    }
    double probFne = 1.0 / sf;
    double probFe = 1.0 / p;
    return probFne / rbw + (1 - probFne) * (1 - probFe) / rbw;
  }

  /** s_f for load calibration (D3): the number of jobs of the whole trace that request f. */
  public static Map<String, Integer> shareCounts(Iterable<TraceJob> jobs) {
    Map<String, Integer> sf = new HashMap<>();
    Set<String> seen = new HashSet<>();
    for (TraceJob j : jobs) {
      seen.clear();
      for (InputFile u : j.inputs()) {
        if (seen.add(u.id())) { // a job counts once per file, even if it lists the file twice
          sf.merge(u.id(), 1, Integer::sum);
        }
      }
    }
    return sf;
  }

  /**
   * Eq. 6: EstimatedExec(j) = Σ_f size_MiB(f) · (Tr_f + 1/LBW + C). A file missing from {@code sf}
   * has no other pin: s_f = 1 (D3).
   */
  public static double estimatedExec(TraceJob job, Map<String, Integer> sf, TraceCosts cost) {
    double t = 0;
    for (InputFile u : job.inputs()) {
      double mib = (double) u.bytes() / Units.MIB;
      int s = sf.getOrDefault(u.id(), 1);
      t += mib * (trPerMib(s, cost.p(), cost.rbw()) + 1 / cost.lbw() + cost.c());
    }
    return t;
  }

  /** Eq. 10: mean EstimatedExec over the trace, s_f counted over the whole trace. */
  public static double avgExecTime(List<TraceJob> jobs, TraceCosts cost) {
    if (jobs.isEmpty()) {
      throw new IllegalArgumentException("AvgExecTime of an empty trace");
    }
    Map<String, Integer> sf = shareCounts(jobs);
    double[] est = new double[jobs.size()];
    for (int i = 0; i < est.length; i++) {
      est[i] = estimatedExec(jobs.get(i), sf, cost);
    }
    // Summed in sorted order, so the result does not depend on job order: AvgExecTime of a trace
    // in arrival order must equal, to the bit, the one its TLarrival was derived from.
    Arrays.sort(est);
    double sum = 0;
    for (double e : est) {
      sum += e;
    }
    return sum / est.length;
  }

  /** Eq. 11 for any load: the TLarrival at which N jobs offer {@code load} on P nodes. */
  public static double tlArrival(int n, double avgExecTime, int p, double load) {
    return avgExecTime * n / (p * load);
  }

  /** Load = N · AvgExecTime / (P · TLarrival) (§1.7). */
  public static double load(int n, double avgExecTime, int p, double tlArrival) {
    return n * avgExecTime / (p * tlArrival);
  }

  /**
   * Overlap O1 (§6, primary, D22): mean over jobs of the share of a job's files that at least one
   * other job also requests. Jobs without inputs have no share and are left out.
   */
  public static double overlapO1(List<TraceJob> jobs) {
    Map<String, Integer> sf = shareCounts(jobs);
    double sum = 0;
    int counted = 0;
    for (TraceJob j : jobs) {
      if (j.inputs().isEmpty()) {
        continue;
      }
      int shared = 0;
      for (InputFile u : j.inputs()) {
        if (sf.get(u.id()) > 1) { // s_f counts jobs, so 2+ means another job requests it
          shared++;
        }
      }
      sum += (double) shared / j.inputs().size();
      counted++;
    }
    return counted == 0 ? 0 : sum / counted;
  }

  /** Overlap O2 (§6): 1 − distinct files / file requests. */
  public static double overlapO2(List<TraceJob> jobs) {
    Set<String> distinct = new HashSet<>();
    long requests = 0;
    for (TraceJob j : jobs) {
      for (InputFile u : j.inputs()) {
        distinct.add(u.id());
        requests++;
      }
    }
    return requests == 0 ? 0 : 1 - (double) distinct.size() / requests;
  }
}
