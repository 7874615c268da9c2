package io.locus.sim.metrics;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-second series of a run (spec §6: "sampled every 1 s"). Row k covers second [k, k + 1):
 * counters and byte rates are totals over that second, gauges (queue, slots, nodes) are the state at
 * instant k, just before the events of time k.
 */
public final class TimeSeries {
  public static final String TIME = "time_s";
  public static final String ARRIVALS = "arrivals";
  public static final String DEMAND_GBPS = "demand_gbps";
  public static final String COMPLETIONS = "completions";
  public static final String LOCAL_GBPS = "local_gbps";
  public static final String PEER_GBPS = "peer_gbps";
  public static final String STORAGE_GBPS = "storage_gbps";
  public static final String THROUGHPUT_GBPS = "throughput_gbps";
  public static final String LOCAL_HITS = "local_hits";
  public static final String PEER_HITS = "peer_hits";
  public static final String MISSES = "misses";
  public static final String LOCAL_SHARE = "local_share";
  public static final String PEER_SHARE = "peer_share";
  public static final String MISS_SHARE = "miss_share";
  public static final String QUEUE = "queue";
  public static final String BUSY_SLOTS = "busy_slots";
  public static final String REGISTERED_SLOTS = "registered_slots";
  public static final String CPU_UTIL = "cpu_util";
  public static final String NODES = "nodes";
  public static final String PENDING_NODES = "pending_nodes";

  private final Map<String, double[]> columns;
  private final int length;

  public TimeSeries(Map<String, double[]> columns) {
    int n = -1;
    for (Map.Entry<String, double[]> e : columns.entrySet()) {
      if (n >= 0 && e.getValue().length != n) {
        throw new IllegalArgumentException("column " + e.getKey() + " has " + e.getValue().length
            + " rows, expected " + n);
      }
      n = e.getValue().length;
    }
    this.length = Math.max(0, n);
    this.columns = Collections.unmodifiableMap(new LinkedHashMap<>(columns));
  }

  public int length() {
    return length;
  }

  public List<String> names() {
    return List.copyOf(columns.keySet());
  }

  /** A copy of a column. */
  public double[] column(String name) {
    double[] c = columns.get(name);
    if (c == null) {
      throw new IllegalArgumentException("no column " + name + "; have " + columns.keySet());
    }
    return c.clone();
  }

  public double get(String name, int row) {
    return columns.get(name)[row];
  }

  /** Exact equality of every column (determinism checks). */
  public boolean sameAs(TimeSeries o) {
    if (length != o.length || !columns.keySet().equals(o.columns.keySet())) {
      return false;
    }
    for (Map.Entry<String, double[]> e : columns.entrySet()) {
      if (!Arrays.equals(e.getValue(), o.columns.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }
}
