package io.locus.core.staging;

import io.locus.core.model.InputFile;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Khanna's cost model (hypergraph spec §1.4–1.5). Sizes are in MiB (2^20 bytes, D27), times in
 * seconds, bandwidths in MiB/s. A job's staging, local read and compute run strictly in sequence.
 *
 * @param rbw storage→compute bandwidth, min(remoteDiskBW, netBW) (D5); default 117 (D26)
 * @param lbw local-disk read bandwidth; default 150 (D26)
 * @param computePerMiB compute cost C per MiB; default 0.001 s (D26)
 * @param storageNodes M, the number of storage nodes; used only to place a file without a location
 */
public record CostModel(double rbw, double lbw, double computePerMiB, int storageNodes) {
  public static final double MIB = 1024.0 * 1024.0;
  public static final CostModel DEFAULT = new CostModel(117, 150, 0.001, 4);

  public CostModel {
    if (!(rbw > 0) || !(lbw > 0) || !(computePerMiB >= 0) || storageNodes < 1
        || !Double.isFinite(rbw) || !Double.isFinite(lbw) || !Double.isFinite(computePerMiB)) {
      throw new IllegalArgumentException("invalid cost model: rbw " + rbw + ", lbw " + lbw + ", c "
          + computePerMiB + ", storage nodes " + storageNodes);
    }
  }

  /** From a pool's policy parameters {@code rbw}, {@code lbw}, {@code c}, {@code storageNodes}; defaults D26. */
  public static CostModel fromParams(Map<String, String> p) {
    double rbw = num(p, "rbw", DEFAULT.rbw);
    double lbw = num(p, "lbw", DEFAULT.lbw);
    double c = num(p, "c", DEFAULT.computePerMiB);
    double m = num(p, "storageNodes", DEFAULT.storageNodes);
    if (!(rbw > 0)) {
      throw new IllegalArgumentException("parameter rbw must be > 0 (MiB/s), got " + rbw);
    }
    if (!(lbw > 0)) {
      throw new IllegalArgumentException("parameter lbw must be > 0 (MiB/s), got " + lbw);
    }
    if (!(c >= 0)) {
      throw new IllegalArgumentException("parameter c must be >= 0 (s/MiB), got " + c);
    }
    if (m != Math.rint(m) || m < 1 || m > 1_000_000) {
      throw new IllegalArgumentException("parameter storageNodes must be an integer in [1, "
          + "1000000], got " + m);
    }
    return new CostModel(rbw, lbw, c, (int) m);
  }

  public static double mib(long bytes) {
    return bytes / MIB;
  }

  /** d_f = size / RBW. */
  public double transferSeconds(long bytes) {
    return mib(bytes) / rbw;
  }

  /** Local read plus compute of {@code bytes}: size/LBW + size·C. */
  public double readComputeSeconds(long bytes) {
    double m = mib(bytes);
    return m / lbw + m * computePerMiB;
  }

  /**
   * Exec_k(j) (§2.3) from the bytes not local on k and the job's total bytes. Taking byte sums
   * (exact longs) makes equal inputs give bit-identical times, so "argmin" ties are exact.
   */
  public double exec(long missingBytes, long totalBytes) {
    return transferSeconds(missingBytes) + readComputeSeconds(totalBytes);
  }

  /**
   * Eq. 5 (per file, D4): Tr_f = (1/s_f)/RBW + (1 − 1/s_f)(1 − 1/P)/RBW, the expected transfer
   * cost per MiB of a file shared by s_f pins on P compute nodes.
   */
  public double trPerMiB(int sf, int computeNodes) {
    if (sf < 1 || computeNodes < 1) {
      throw new IllegalArgumentException("s_f and P must be ≥ 1, got " + sf + ", " + computeNodes);
    }
    double probNotElsewhere = 1.0 / sf;
    double probElsewhereLocal = 1.0 / computeNodes;
    return probNotElsewhere / rbw + (1 - probNotElsewhere) * (1 - probElsewhereLocal) / rbw;
  }

  /** Eq. 6: EstimatedExec(j) = Σ_f size(f) · (Tr_f + 1/LBW + C), with s_f given per file id. */
  public double estimatedExec(List<InputFile> files, ToIntFunction<String> sf, int computeNodes) {
    double sum = 0;
    for (InputFile u : files) {
      sum += mib(u.bytes()) * (trPerMiB(sf.applyAsInt(u.id()), computeNodes) + 1 / lbw
          + computePerMiB);
    }
    return sum;
  }

  /**
   * storageOf(f): the number at the end of the file's location ("3", "SN3", "storage-3"); a file
   * without a location is spread over the M storage nodes by its id's hash (String.hashCode is
   * fixed by the language, so every driver agrees).
   */
  public int storageOf(InputFile u) {
    String loc = u.location();
    if (loc == null) {
      return Math.floorMod(u.id().hashCode(), storageNodes);
    }
    int end = loc.length();
    int start = end;
    while (start > 0 && Character.isDigit(loc.charAt(start - 1))) {
      start--;
    }
    if (start == end) {
      throw new IllegalArgumentException("location '" + loc + "' of " + u.id()
          + " does not name a storage node (it must end with the node's number)");
    }
    try {
      return Integer.parseInt(loc.substring(start, end));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("storage node number too large in '" + loc + "'");
    }
  }

  private static double num(Map<String, String> p, String key, double dflt) {
    String v = p == null ? null : p.get(key);
    double d;
    try {
      d = v == null ? dflt : Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("parameter " + key + " must be a number, got '" + v + "'");
    }
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("parameter " + key + " must be a finite number, got '"
          + v + "'");
    }
    return d;
  }
}
