package io.locus.core.split;

/**
 * The per-event service cost model of spec §1.2: c_miss for tape, c_hit for the local cache and
 * c_remote (= c_hit, D6) for another node's cache. The two pipelining switches turn a sum into a
 * max. Writing tape data into the cache is free; pipeline fill and drain are ignored.
 */
public record EventCosts(double tCpu, double tDisk, double tTape, boolean tapePipelining,
    boolean diskPipelining) {
  /** Spec defaults: 0.2 s CPU, 600 KB at 10 MB/s from disk and 1 MB/s from tape. */
  public static final double T_CPU = 0.2;
  public static final double T_DISK = 0.06;
  public static final double T_TAPE = 0.6;
  /** The farm's cost per event without pipelining: the speedup reference of every run (D23). */
  public static final double FARM_REFERENCE = T_CPU + T_TAPE;

  public EventCosts {
    if (!(tCpu > 0) || !(tDisk > 0) || !(tTape > 0)) {
      throw new IllegalArgumentException("tCpu, tDisk and tTape must be > 0");
    }
  }

  public static EventCosts serial() {
    return new EventCosts(T_CPU, T_DISK, T_TAPE, false, false);
  }

  public static EventCosts of(boolean tapePipelining, boolean diskPipelining) {
    return new EventCosts(T_CPU, T_DISK, T_TAPE, tapePipelining, diskPipelining);
  }

  /** An event read from tertiary storage. */
  public double cMiss() {
    return tapePipelining ? Math.max(tCpu, tTape) : tCpu + tTape;
  }

  /** An event read from the node's own cache. */
  public double cHit() {
    return diskPipelining ? Math.max(tCpu, tDisk) : tCpu + tDisk;
  }

  /** An event read from another node's cache (D6: disk-bound, like a hit). */
  public double cRemote() {
    return cHit();
  }

  public double cost(Source s) {
    return switch (s) {
      case LOCAL -> cHit();
      case REMOTE -> cRemote();
      case TAPE -> cMiss();
    };
  }

  /** Cache capacity in events for a cache of {@code bytes} and events of {@code eventBytes}. */
  public static long capacityEvents(double bytes, double eventBytes) {
    return Math.round(bytes / eventBytes);
  }

  /**
   * The spec's maximal theoretical load (§1.4): every CPU busy, every event from the cache, serial
   * costs: n · 3600 / (N̄ · (t_cpu + t_disk)) jobs per hour.
   */
  public static double maximalTheoreticalLoad(int nodes, double meanEventsPerJob) {
    return nodes * 3600.0 / (meanEventsPerJob * (T_CPU + T_DISK));
  }

  /** λ_cap(c) = n · 3600 / (N̄ · c): the arrival rate that keeps n nodes busy at cost c per event. */
  public static double capacity(int nodes, double meanEventsPerJob, double perEvent) {
    return nodes * 3600.0 / (meanEventsPerJob * perEvent);
  }
}
