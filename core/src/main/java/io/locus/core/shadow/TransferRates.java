package io.locus.core.shadow;

/**
 * How long a shadow task takes in the model: its compute seconds plus its input bytes at the rate
 * of where each comes from (local disk, a peer, storage). No contention is modelled: a task reads
 * at the source's rate whatever else runs (a shadow compares policies under one model, so the
 * model's error is shared; docs/operations.md shows how far its predictions were from a real run).
 *
 * <p>The rates start at the data-diffusion model's defaults (disk 1.1875 Gb/s, NIC 1 Gb/s, the
 * NIC bounding a peer or storage read; spec data-diffusion §3) and are learned from the real pool:
 * a COMPLETED task that read all its bytes from one source and ran longer than its compute gives
 * that source's observed rate, {@code bytes / (duration − compute)}, folded in with weight 1/10
 * (an exponential average over about the last ten such tasks: recent enough to follow a change of
 * load, smooth enough that one slow task does not swing it). Tasks that mixed sources are not used:
 * splitting their transfer time between sources would need a model of the very thing measured.
 *
 * <p>A real slot is held longer than the task runs on its node: the decision travels to the
 * agent and the completion back (the data-diffusion simulator's dispatch cost τ and result
 * delivery D). That overhead, the slot's hold time (placement to completion, on the pool's clock)
 * minus the run the agent reported, is learned the same way from every real completion and added
 * to every prediction; it starts at 0.
 */
public final class TransferRates {
  /** Bytes per second of 1.1875 Gb/s and 1 Gb/s. */
  public static final double DEFAULT_LOCAL = 1.1875e9 / 8;
  public static final double DEFAULT_REMOTE = 1e9 / 8;
  static final double WEIGHT = 0.1;

  /** Wall seconds per model second: simulated agents compress time (the demo's --time-scale). */
  private final double timeScale;
  private double local = DEFAULT_LOCAL;
  private double peer = DEFAULT_REMOTE;
  private double storage = DEFAULT_REMOTE;
  private long observations;
  private double overhead;
  private long overheadObservations;

  public TransferRates() {
    this(1.0);
  }

  /**
   * Rates for agents that run {@code timeScale} wall seconds per second of work (1 for real
   * agents; simulated agents may compress time). Predictions and observations are wall seconds.
   */
  public TransferRates(double timeScale) {
    if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
      throw new IllegalArgumentException("time scale must be finite and > 0: " + timeScale);
    }
    this.timeScale = timeScale;
  }

  public double timeScale() {
    return timeScale;
  }

  public double local() {
    return local;
  }

  public double peer() {
    return peer;
  }

  public double storage() {
    return storage;
  }

  /** Real completions that taught a rate. */
  public long observations() {
    return observations;
  }

  /** The learned per-task overhead, wall seconds. */
  public double overhead() {
    return overhead;
  }

  /** Predicted wall seconds a slot is held to read these bytes and compute. */
  public double seconds(double computeSeconds, long bytesLocal, long bytesPeer, long bytesStorage) {
    return overhead + timeScale
        * (computeSeconds + bytesLocal / local + bytesPeer / peer + bytesStorage / storage);
  }

  /**
   * A real completion's slot hold ({@code holdSeconds}, placement to completion on the pool's
   * clock) against its run on the node ({@code runSeconds}, as the agent reported).
   */
  public void observeOverhead(double holdSeconds, double runSeconds) {
    if (!Double.isFinite(holdSeconds) || !Double.isFinite(runSeconds)) {
      return;
    }
    double sample = Math.max(0, holdSeconds - runSeconds);
    overhead = overheadObservations++ == 0 ? sample : fold(overhead, sample);
  }

  /**
   * A real completion: {@code durationSeconds} (wall) from its start to its end, as the agent
   * reported. Returns whether it taught a rate.
   */
  public boolean observe(double durationSeconds, double computeSeconds, long bytesLocal,
      long bytesPeer, long bytesStorage) {
    double transfer = durationSeconds / timeScale - computeSeconds;
    int sources = (bytesLocal > 0 ? 1 : 0) + (bytesPeer > 0 ? 1 : 0) + (bytesStorage > 0 ? 1 : 0);
    if (sources != 1 || !(transfer > 0) || !Double.isFinite(transfer)) {
      return false;
    }
    observations++;
    if (bytesLocal > 0) {
      local = fold(local, bytesLocal / transfer);
    } else if (bytesPeer > 0) {
      peer = fold(peer, bytesPeer / transfer);
    } else {
      storage = fold(storage, bytesStorage / transfer);
    }
    return true;
  }

  private static double fold(double rate, double observed) {
    return (1 - WEIGHT) * rate + WEIGHT * observed;
  }
}
