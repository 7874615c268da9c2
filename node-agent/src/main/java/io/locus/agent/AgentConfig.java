package io.locus.agent;

import io.locus.core.cache.EvictionPolicies;
import io.locus.schemas.limits.Limits;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One agent's settings. Immutable; build with {@link #builder(String)}.
 *
 * <p>Bandwidths are bytes per second (decimal units, as the spec). Every modelled duration (a
 * transfer of bytes / bandwidth, a task's compute seconds) is multiplied by {@code timeScale} before
 * it is scheduled, so 0.01 runs 100 times faster than real time. {@code heartbeatMs} is a wall-clock
 * interval and is not scaled: it is about liveness, not about the modelled work.
 *
 * @param pool the pool this agent belongs to; decisions of another pool are ignored
 * @param nodeId this node's id (the key of its decisions); {@link #TEMPLATE_NODE} in a host template
 * @param slots tasks that may run at once (spec D24: 2)
 * @param cacheCapacityBytes local cache quota, never exceeded
 * @param storageBandwidth persistent-storage read rate, bytes/s
 * @param peerBandwidth peer-to-peer read rate, bytes/s
 * @param localBandwidth local-disk read rate for cache hits, bytes/s
 * @param timeScale factor applied to every modelled duration (&gt; 0)
 * @param heartbeatMs interval between HEARTBEAT reports, wall-clock ms
 * @param evictionPolicy name given to {@code EvictionPolicies.create} (LRU by default, spec D11)
 * @param evictionSeed seed for a randomised eviction policy
 * @param dedupeWindow how many recent decision ids are remembered for deduplication
 * @param queueDepth placed attempts this agent holds in its local queue beyond its slots (late
 *     binding: the next task is on the node when a slot frees); 0, the default, refuses a placement
 *     when every slot is busy. Advertised in REGISTER and HEARTBEAT.
 */
public record AgentConfig(
    String pool,
    String nodeId,
    int slots,
    long cacheCapacityBytes,
    double storageBandwidth,
    double peerBandwidth,
    double localBandwidth,
    double timeScale,
    long heartbeatMs,
    String evictionPolicy,
    long evictionSeed,
    int dedupeWindow,
    int queueDepth) {

  /** The node id of a template config whose node id a host fills in per agent. */
  public static final String TEMPLATE_NODE = "*";

  public static final int DEFAULT_SLOTS = 2;
  /** 1 GB: the smallest executor cache of the spec's experiments. */
  public static final long DEFAULT_CACHE_BYTES = 1_000_000_000L;
  /** 1 Gb/s NIC. */
  public static final double DEFAULT_STORAGE_BW = 125e6;
  public static final double DEFAULT_PEER_BW = 125e6;
  public static final double DEFAULT_LOCAL_BW = 150e6;
  public static final long DEFAULT_HEARTBEAT_MS = 1000;
  public static final int DEFAULT_DEDUPE_WINDOW = 100_000;
  /** The deepest local queue an agent accepts: a queue is a short pre-fetch, not a backlog. */
  public static final int MAX_QUEUE_DEPTH = 1024;

  /**
   * The eviction policies an agent can run (case does not matter): those of
   * {@link EvictionPolicies} that need no pool-wide statistics.
   */
  public static final List<String> EVICTION_POLICIES = EvictionPolicies.NAMES.stream()
      .filter(n -> {
        try {
          EvictionPolicies.create(n, 0);
          return true;
        } catch (IllegalArgumentException e) {
          return false;
        }
      }).toList();

  public AgentConfig {
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(evictionPolicy, "evictionPolicy");
    if (pool.isBlank() || nodeId.isBlank()) {
      throw new IllegalArgumentException("pool and nodeId must not be blank");
    }
    // The scheduler's limits (Limits): an agent it would not accept refuses to start, rather
    // than have every report dead-lettered.
    id("pool", pool);
    id("nodeId", nodeId);
    if (slots < 1 || slots > Limits.MAX_SLOTS) {
      throw new IllegalArgumentException("slots must be 1.." + Limits.MAX_SLOTS + ", got "
          + slots);
    }
    if (queueDepth < 0 || queueDepth > MAX_QUEUE_DEPTH) {
      throw new IllegalArgumentException("queueDepth must be 0.." + MAX_QUEUE_DEPTH + ", got "
          + queueDepth);
    }
    if (cacheCapacityBytes < 0 || cacheCapacityBytes > Limits.MAX_BYTE_COUNT) {
      throw new IllegalArgumentException("cacheCapacityBytes must be 0.." + Limits.MAX_BYTE_COUNT
          + ", got " + cacheCapacityBytes);
    }
    positive("storageBandwidth", storageBandwidth);
    positive("peerBandwidth", peerBandwidth);
    positive("localBandwidth", localBandwidth);
    positive("timeScale", timeScale);
    if (heartbeatMs < 1) {
      throw new IllegalArgumentException("heartbeatMs must be >= 1");
    }
    if (dedupeWindow < 1) {
      throw new IllegalArgumentException("dedupeWindow must be >= 1");
    }
    // An agent makes its policy when it is created: a bad name must fail here, not there.
    String bad = evictionProblem(evictionPolicy);
    if (bad != null) {
      throw new IllegalArgumentException("evictionPolicy: " + bad);
    }
  }

  /** What is wrong with {@code name} as an agent's eviction policy; null when nothing is. */
  public static String evictionProblem(String name) {
    if (EVICTION_POLICIES.contains(name.toUpperCase(Locale.ROOT))) {
      return null;
    }
    return "'" + name + "' is not an eviction policy an agent can use; use one of "
        + EVICTION_POLICIES
        + (EvictionPolicies.NAMES.contains(name.toUpperCase(Locale.ROOT))
            ? " (" + name + " needs the pool's statistics, which only the scheduler has)" : "");
  }

  /** An id of the records: at most {@link Limits#MAX_ID_CHARS} chars, no control character. */
  private static void id(String what, String value) {
    if (value.length() > Limits.MAX_ID_CHARS) {
      throw new IllegalArgumentException(what + " has " + value.length()
          + " characters, more than the limit of " + Limits.MAX_ID_CHARS);
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        throw new IllegalArgumentException(what + " contains a control character at index " + i);
      }
    }
  }

  private static void positive(String name, double v) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(name + " must be a positive finite number, got " + v);
    }
  }

  /** A template for a host: every setting but the node id, which the host assigns. */
  public static Builder builder(String pool) {
    return new Builder(pool, TEMPLATE_NODE);
  }

  public static Builder builder(String pool, String nodeId) {
    return new Builder(pool, nodeId);
  }

  public Builder toBuilder() {
    Builder b = new Builder(pool, nodeId);
    b.slots = slots;
    b.cacheCapacityBytes = cacheCapacityBytes;
    b.storageBandwidth = storageBandwidth;
    b.peerBandwidth = peerBandwidth;
    b.localBandwidth = localBandwidth;
    b.timeScale = timeScale;
    b.heartbeatMs = heartbeatMs;
    b.evictionPolicy = evictionPolicy;
    b.evictionSeed = evictionSeed;
    b.dedupeWindow = dedupeWindow;
    b.queueDepth = queueDepth;
    return b;
  }

  public AgentConfig withNodeId(String node) {
    return toBuilder().nodeId(node).build();
  }

  /** Scaled scheduling delay, in nanoseconds, of a modelled duration in seconds. */
  public long scaledNanos(double seconds) {
    double nanos = seconds * timeScale * 1e9;
    if (!(nanos > 0)) {
      return 0;
    }
    return nanos >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(nanos);
  }

  /** Mutable builder with the documented defaults. */
  public static final class Builder {
    private String pool;
    private String nodeId;
    private int slots = DEFAULT_SLOTS;
    private long cacheCapacityBytes = DEFAULT_CACHE_BYTES;
    private double storageBandwidth = DEFAULT_STORAGE_BW;
    private double peerBandwidth = DEFAULT_PEER_BW;
    private double localBandwidth = DEFAULT_LOCAL_BW;
    private double timeScale = 1.0;
    private long heartbeatMs = DEFAULT_HEARTBEAT_MS;
    private String evictionPolicy = "LRU";
    private long evictionSeed = 0;
    private int dedupeWindow = DEFAULT_DEDUPE_WINDOW;
    private int queueDepth = 0;

    private Builder(String pool, String nodeId) {
      this.pool = pool;
      this.nodeId = nodeId;
    }

    public Builder pool(String v) {
      this.pool = v;
      return this;
    }

    public Builder nodeId(String v) {
      this.nodeId = v;
      return this;
    }

    public Builder slots(int v) {
      this.slots = v;
      return this;
    }

    public Builder cacheCapacityBytes(long v) {
      this.cacheCapacityBytes = v;
      return this;
    }

    public Builder storageBandwidth(double bytesPerSecond) {
      this.storageBandwidth = bytesPerSecond;
      return this;
    }

    public Builder peerBandwidth(double bytesPerSecond) {
      this.peerBandwidth = bytesPerSecond;
      return this;
    }

    public Builder localBandwidth(double bytesPerSecond) {
      this.localBandwidth = bytesPerSecond;
      return this;
    }

    public Builder timeScale(double v) {
      this.timeScale = v;
      return this;
    }

    public Builder heartbeatMs(long v) {
      this.heartbeatMs = v;
      return this;
    }

    public Builder evictionPolicy(String v) {
      this.evictionPolicy = v;
      return this;
    }

    public Builder evictionSeed(long v) {
      this.evictionSeed = v;
      return this;
    }

    public Builder dedupeWindow(int v) {
      this.dedupeWindow = v;
      return this;
    }

    public Builder queueDepth(int v) {
      this.queueDepth = v;
      return this;
    }

    public AgentConfig build() {
      return new AgentConfig(pool, nodeId, slots, cacheCapacityBytes, storageBandwidth,
          peerBandwidth, localBandwidth, timeScale, heartbeatMs, evictionPolicy, evictionSeed,
          dedupeWindow, queueDepth);
    }
  }
}
