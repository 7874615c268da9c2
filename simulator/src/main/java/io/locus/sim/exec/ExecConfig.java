package io.locus.sim.exec;

/**
 * Bandwidths and per-task constants of the execution model (spec §1.2), in bytes per second and
 * seconds. {@link #gbps} converts the spec's decimal Gb/s.
 *
 * @param diskBytesPerSecond local cache read bandwidth B_local of one node
 * @param nicInBytesPerSecond NIC receive bandwidth of one node
 * @param nicOutBytesPerSecond NIC send bandwidth of one node
 * @param fsBytesPerSecond aggregate cap of the shared file system B_fs
 * @param deliverySeconds result delivery time D_i after compute (spec §1.2, default 0)
 * @param eviction eviction policy name per node cache (LRU by default)
 */
public record ExecConfig(
    double diskBytesPerSecond,
    double nicInBytesPerSecond,
    double nicOutBytesPerSecond,
    double fsBytesPerSecond,
    double deliverySeconds,
    String eviction) {

  /** Spec §1.2: 1.1875 Gb/s local read per node (76 Gb/s over 64 nodes). */
  public static final double DEFAULT_DISK_GBPS = 1.1875;
  /** Spec §1.2: 1 Gb/s NIC in each direction. */
  public static final double DEFAULT_NIC_GBPS = 1.0;

  public ExecConfig {
    positive(diskBytesPerSecond, "local disk bandwidth");
    positive(nicInBytesPerSecond, "NIC in bandwidth");
    positive(nicOutBytesPerSecond, "NIC out bandwidth");
    positive(fsBytesPerSecond, "file system bandwidth");
    if (!(deliverySeconds >= 0) || Double.isInfinite(deliverySeconds)) {
      throw new IllegalArgumentException("delivery time must be finite and >= 0: "
          + deliverySeconds);
    }
    if (eviction == null || eviction.isBlank()) {
      throw new IllegalArgumentException("an eviction policy is required");
    }
  }

  /** Decimal gigabits per second to bytes per second (spec "Units": 1 Gb/s = 1.25e8 B/s). */
  public static double gbps(double gigabitsPerSecond) {
    return gigabitsPerSecond * 1e9 / 8.0;
  }

  public ExecConfig withEviction(String name) {
    return new ExecConfig(diskBytesPerSecond, nicInBytesPerSecond, nicOutBytesPerSecond,
        fsBytesPerSecond, deliverySeconds, name);
  }

  public ExecConfig withDelivery(double seconds) {
    return new ExecConfig(diskBytesPerSecond, nicInBytesPerSecond, nicOutBytesPerSecond,
        fsBytesPerSecond, seconds, eviction);
  }

  /** Spec defaults with the given file-system cap. */
  public static ExecConfig defaults(double fsGbps) {
    return new ExecConfig(gbps(DEFAULT_DISK_GBPS), gbps(DEFAULT_NIC_GBPS), gbps(DEFAULT_NIC_GBPS),
        gbps(fsGbps), 0.0, "LRU");
  }

  private static void positive(double v, String what) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(what + " must be finite and > 0: " + v);
    }
  }
}
