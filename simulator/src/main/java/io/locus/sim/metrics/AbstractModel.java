package io.locus.sim.metrics;

/**
 * The corrected abstract data-diffusion model of spec §1.5 (D18), for analysis and as a quick check
 * of simulated runs: measured hit ratios go into Eq. 5 in every regime.
 *
 * @param rLocal R_l, cost of one local-cache access (s)
 * @param rPeer R_c, cost of one peer-cache access (s)
 * @param rStorage R_s, cost of one persistent-storage access (s)
 * @param compute C, compute per access (s)
 * @param hrLocal HR_l
 * @param hrPeer HR_c
 * @param hrStorage HR_s (the three ratios sum to 1)
 */
public record AbstractModel(double rLocal, double rPeer, double rStorage, double compute,
    double hrLocal, double hrPeer, double hrStorage) {

  public AbstractModel {
    double sum = hrLocal + hrPeer + hrStorage;
    if (Math.abs(sum - 1.0) > 1e-9 || hrLocal < 0 || hrPeer < 0 || hrStorage < 0) {
      throw new IllegalArgumentException("hit ratios must be >= 0 and sum to 1, got " + sum);
    }
  }

  /** Hit ratios from access counts H_l, H_c, H_s. */
  public static AbstractModel fromCounts(double rLocal, double rPeer, double rStorage,
      double compute, long local, long peer, long storage) {
    double n = local + peer + storage;
    return new AbstractModel(rLocal, rPeer, rStorage, compute, local / n, peer / n, storage / n);
  }

  /** Eq. 5: TK = C + R_l·HR_l + R_c·HR_c + R_s·HR_s. */
  public double taskTime() {
    return compute + rLocal * hrLocal + rPeer * hrPeer + rStorage * hrStorage;
  }

  /** Eq. 6 (corrected, closed batch with perfect balance): T_N = (1/N) · K · TK / P. */
  public double completionTime(long tasks, int nodes, double speed) {
    return tasks * taskTime() / (nodes * speed);
  }

  /** Eq. 6, open workload: ≈ max(arrival span, (1/N)·Σ TK / P) + drain time. */
  public double openCompletionTime(long tasks, int nodes, double speed, double arrivalSpan,
      double drain) {
    return Math.max(arrivalSpan, completionTime(tasks, nodes, speed)) + drain;
  }

  /** Eq. 7: SP = T_1 / T_N. */
  public double speedup(long tasks, int nodes, double speed) {
    return completionTime(tasks, 1, speed) / completionTime(tasks, nodes, speed);
  }

  /** Eq. 8: EF = SP / N. */
  public double efficiency(long tasks, int nodes, double speed) {
    return speedup(tasks, nodes, speed) / nodes;
  }

  /** Eq. 9 (corrected): A_max = N·P / TK. */
  public double maxArrivalRate(int nodes, double speed) {
    return nodes * speed / taskTime();
  }

  /** Eq. 11: U = A·T / (N·P), with T = TK of Eq. 5. */
  public double utilisation(double arrivalRate, int nodes, double speed) {
    return arrivalRate * taskTime() / (nodes * speed);
  }

  /** Eq. 10 (corrected): the saturating arrival rate A = N·P / T. */
  public double saturatingRate(int nodes, double speed) {
    return maxArrivalRate(nodes, speed);
  }

  /** Ideal hit ratio when each file is read L times: 1 − 1/L. */
  public static double idealHitRatio(double locality) {
    if (!(locality >= 1)) {
      throw new IllegalArgumentException("locality must be >= 1: " + locality);
    }
    return 1.0 - 1.0 / locality;
  }
}
