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
 */
public final class TransferRates {
  /** Bytes per second of 1.1875 Gb/s and 1 Gb/s. */
  public static final double DEFAULT_LOCAL = 1.1875e9 / 8;
  public static final double DEFAULT_REMOTE = 1e9 / 8;
  static final double WEIGHT = 0.1;

  private double local = DEFAULT_LOCAL;
  private double peer = DEFAULT_REMOTE;
  private double storage = DEFAULT_REMOTE;
  private long observations;

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

  /** Predicted seconds to read these bytes and compute. */
  public double seconds(double computeSeconds, long bytesLocal, long bytesPeer, long bytesStorage) {
    return computeSeconds + bytesLocal / local + bytesPeer / peer + bytesStorage / storage;
  }

  /**
   * A real completion: {@code durationSeconds} from its start to its end, as the agent reported.
   * Returns whether it taught a rate.
   */
  public boolean observe(double durationSeconds, double computeSeconds, long bytesLocal,
      long bytesPeer, long bytesStorage) {
    double transfer = durationSeconds - computeSeconds;
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
