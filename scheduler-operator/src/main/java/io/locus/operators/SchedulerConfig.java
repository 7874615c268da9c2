package io.locus.operators;

import io.locus.core.policy.Policies;
import io.locus.core.provision.ProvisioningConfig;
import io.locus.core.state.RetryBackoff;
import java.io.Serializable;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scheduler operator's settings: the default policy, per-pool overrides (a pool's policy can
 * also be changed at run time with a Control record, which wins and is kept in state), how often
 * metrics are emitted, and the retry bound; and the input gate's rules ({@link InputGate}): node
 * timeout, maximum clock jump, job id retention, the declared pools and the optional secrets.
 *
 * <p>The gate's settings have defaults and are changed with the {@code with…} methods, each of
 * which returns a copy. The secrets are never printed.
 */
public final class SchedulerConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * A policy name with its parameters (e.g. window, theta; for a split policy the cost model,
   * cache and flags of {@code SplitParams} plus {@code dataset} and {@code timeScale}). A split
   * policy's name is stored in its canonical form (out-of-order → OUT_OF_ORDER).
   */
  public record PolicySpec(String name, Map<String, String> params) implements Serializable {
    public PolicySpec {
      params = Map.copyOf(params);
      // fail fast on a bad name or parameter
      if (SplitPoolParams.isSplitPolicy(name)) {
        name = SplitPoolParams.canonical(name);
        SplitPoolParams.validate(name, params);
      } else {
        Policies.create(name, params);
      }
    }

    public boolean split() {
      return SplitPoolParams.isSplitPolicy(name);
    }
  }

  private final PolicySpec defaultPolicy;
  private final HashMap<String, PolicySpec> poolPolicies;
  private final long metricsIntervalMs;
  private final int maxRetries;
  private final ProvisioningConfig defaultProvisioning;
  private final HashMap<String, ProvisioningConfig> poolProvisioning;

  /** A node not heard from for longer (record clock) is lost. */
  public static final long DEFAULT_NODE_TIMEOUT_MS = 30_000;
  /**
   * An event time further ahead of its Kafka record's timestamp is refused ({@code clock}): a
   * minute, far more than synchronised clocks differ (NTP keeps them within milliseconds) plus the
   * way to the broker, and the most one node can move its pool's clock.
   */
  public static final long DEFAULT_MAX_CLOCK_JUMP_MS = 60_000;
  /** A job id cannot be submitted again for this long (record clock) after its arrival. */
  public static final long DEFAULT_JOB_RETENTION_MS = 7L * 24 * 3600 * 1000;

  private long nodeTimeoutMs = DEFAULT_NODE_TIMEOUT_MS;
  private long maxClockJumpMs = DEFAULT_MAX_CLOCK_JUMP_MS;
  private long jobRetentionMs = DEFAULT_JOB_RETENTION_MS;
  /** Empty: any pool is accepted. */
  private LinkedHashSet<String> pools = new LinkedHashSet<>();
  private byte[] nodeSecret;
  private byte[] decisionSecret;
  /** Shadow policies per pool (file policies only), in the order given. */
  private HashMap<String, java.util.ArrayList<PolicySpec>> shadows = new HashMap<>();
  private double shadowTimeScale = 1.0;
  /**
   * None unless set: the Java API (tests, embedders) keeps the spec's immediate re-queue; {@code
   * locus run} sets its production default ({@link RetryBackoff#DEFAULT}) from its flags.
   */
  private RetryBackoff retryBackoff = RetryBackoff.NONE;
  /**
   * The cap on a queue head's locality wait, seconds, for every file pool (pools with queues
   * only): the core's default unless set ({@code locus run --max-locality-wait}).
   */
  private double maxLocalityWait = io.locus.core.share.LocalityWait.DEFAULT_MAX_LOCALITY_WAIT;
  /** The preemption grace, seconds, for every file pool; NaN: no preemption. */
  private double preemptionGrace = io.locus.core.share.Preemption.DEFAULT_GRACE_SECONDS;

  public SchedulerConfig(PolicySpec defaultPolicy, Map<String, PolicySpec> poolPolicies,
      long metricsIntervalMs, int maxRetries) {
    this(defaultPolicy, poolPolicies, metricsIntervalMs, maxRetries,
        ProvisioningConfig.staticPool(), Map.of());
  }

  /** With provisioning: the default for every pool, and per-pool overrides. */
  public SchedulerConfig(PolicySpec defaultPolicy, Map<String, PolicySpec> poolPolicies,
      long metricsIntervalMs, int maxRetries, ProvisioningConfig defaultProvisioning,
      Map<String, ProvisioningConfig> poolProvisioning) {
    if (metricsIntervalMs <= 0) {
      throw new IllegalArgumentException("metrics interval must be > 0 ms");
    }
    if (maxRetries < 0) {
      throw new IllegalArgumentException("max retries must be ≥ 0");
    }
    this.defaultPolicy = defaultPolicy;
    this.poolPolicies = new HashMap<>(poolPolicies);
    this.metricsIntervalMs = metricsIntervalMs;
    this.maxRetries = maxRetries;
    this.defaultProvisioning = defaultProvisioning;
    this.poolProvisioning = new HashMap<>(poolProvisioning);
  }

  private SchedulerConfig copy() {
    SchedulerConfig c = new SchedulerConfig(defaultPolicy, poolPolicies, metricsIntervalMs,
        maxRetries, defaultProvisioning, poolProvisioning);
    c.nodeTimeoutMs = nodeTimeoutMs;
    c.maxClockJumpMs = maxClockJumpMs;
    c.jobRetentionMs = jobRetentionMs;
    c.pools = new LinkedHashSet<>(pools);
    c.nodeSecret = nodeSecret;
    c.decisionSecret = decisionSecret;
    c.shadows = new HashMap<>(shadows);
    c.shadowTimeScale = shadowTimeScale;
    c.retryBackoff = retryBackoff;
    c.maxLocalityWait = maxLocalityWait;
    c.preemptionGrace = preemptionGrace;
    return c;
  }

  /**
   * How long a failed task's next attempt waits before it may be placed (file pools; split pools
   * re-queue at once): docs/policies.md, "Retries".
   */
  public SchedulerConfig withRetryBackoff(RetryBackoff backoff) {
    SchedulerConfig c = copy();
    c.retryBackoff = java.util.Objects.requireNonNull(backoff, "retry backoff");
    return c;
  }

  public RetryBackoff retryBackoff() {
    return retryBackoff;
  }

  /**
   * How long a queue head may wait for a node holding more of its data while a slot it could take
   * is free, at most (seconds ≥ 0; 0: never waits): docs/policies.md, "Sharing a pool". Every
   * file pool's scheduler gets it when the pool is opened, restored or given a file policy; it is
   * configuration, not state: a restarted job takes it from its options again.
   */
  public SchedulerConfig withMaxLocalityWait(double seconds) {
    if (!(seconds >= 0) || Double.isInfinite(seconds)) {
      throw new IllegalArgumentException("max locality wait must be a finite number of seconds"
          + " >= 0, not " + seconds);
    }
    SchedulerConfig c = copy();
    c.maxLocalityWait = seconds;
    return c;
  }

  public double maxLocalityWait() {
    return maxLocalityWait;
  }

  /**
   * The grace a preempted process gets to stop before it is killed (seconds ≥ 0), or NaN to turn
   * preemption off: queues below their guarantee then wait for running tasks to end. Handed to
   * every file pool's scheduler like {@link #withMaxLocalityWait}.
   */
  public SchedulerConfig withPreemptionGrace(double seconds) {
    if (!Double.isNaN(seconds) && (!(seconds >= 0) || Double.isInfinite(seconds))) {
      throw new IllegalArgumentException("preemption grace must be a finite number of seconds"
          + " >= 0 (NaN: no preemption), not " + seconds);
    }
    SchedulerConfig c = copy();
    c.preemptionGrace = seconds;
    return c;
  }

  /** The preemption grace in seconds; NaN when preemption is off. */
  public double preemptionGrace() {
    return preemptionGrace;
  }

  /** Gives a file pool's scheduler the queue settings above. */
  void applyQueueSettings(io.locus.core.Scheduler scheduler) {
    scheduler.setMaxLocalityWait(maxLocalityWait);
    scheduler.setPreemptionGrace(preemptionGrace);
  }

  /** The liveness timeout, in ms of record clock (at least 2 ms: resyncs use half of it). */
  public SchedulerConfig withNodeTimeoutMs(long ms) {
    if (ms < 2) {
      throw new IllegalArgumentException("node timeout must be ≥ 2 ms, not " + ms);
    }
    SchedulerConfig c = copy();
    c.nodeTimeoutMs = ms;
    return c;
  }

  public SchedulerConfig withMaxClockJumpMs(long ms) {
    if (ms <= 0) {
      throw new IllegalArgumentException("max clock jump must be > 0 ms, not " + ms);
    }
    SchedulerConfig c = copy();
    c.maxClockJumpMs = ms;
    return c;
  }

  public SchedulerConfig withJobRetentionMs(long ms) {
    if (ms <= 0) {
      throw new IllegalArgumentException("job retention must be > 0 ms, not " + ms);
    }
    SchedulerConfig c = copy();
    c.jobRetentionMs = ms;
    return c;
  }

  /**
   * Shadow policies: for each pool named, file policies run beside its active one against a model
   * of the cluster ({@link PoolShadows}); their would-be placements go to shadow-decisions and
   * their scores to the metrics. A split policy cannot be a shadow (its decisions are ranges, not
   * placements the model can run).
   */
  public SchedulerConfig withShadows(Map<String, List<PolicySpec>> perPool) {
    SchedulerConfig c = copy();
    c.shadows = new HashMap<>();
    for (Map.Entry<String, List<PolicySpec>> e : perPool.entrySet()) {
      for (PolicySpec p : e.getValue()) {
        if (p.split()) {
          throw new IllegalArgumentException("shadow policy " + p.name() + " of pool "
              + e.getKey() + " is a split policy; shadows are file policies");
        }
      }
      c.shadows.put(e.getKey(), new java.util.ArrayList<>(e.getValue()));
    }
    return c;
  }

  /**
   * Wall seconds per second of work on the agents, for the shadows' model (1: real agents;
   * simulated agents may compress time, as the demo's {@code --time-scale} does).
   */
  public SchedulerConfig withShadowTimeScale(double timeScale) {
    if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
      throw new IllegalArgumentException("shadow time scale must be finite and > 0: " + timeScale);
    }
    SchedulerConfig c = copy();
    c.shadowTimeScale = timeScale;
    return c;
  }

  public double shadowTimeScale() {
    return shadowTimeScale;
  }

  /** The pool's shadow policies (empty: none). */
  public List<PolicySpec> shadowsFor(String pool) {
    return List.copyOf(shadows.getOrDefault(pool, new java.util.ArrayList<>()));
  }

  /** The pools this scheduler runs; records for any other are refused. Empty: any pool. */
  public SchedulerConfig withPools(Set<String> declared) {
    SchedulerConfig c = copy();
    c.pools = new LinkedHashSet<>(declared);
    return c;
  }

  /**
   * The cluster node secret (null: none): every task event and node report must then carry the
   * signature of its node's key ({@code NodeKeys}), every placement carries the scheduler's proof
   * of placement and a task event about an attempt must echo it ({@code PlacementProof}).
   */
  public SchedulerConfig withNodeSecret(byte[] secret) {
    SchedulerConfig c = copy();
    c.nodeSecret = secret == null ? null : requireNonEmpty(secret, "node secret").clone();
    return c;
  }

  /** The decision secret (null: none): every decision is then signed ({@code RecordSigner}). */
  public SchedulerConfig withDecisionSecret(byte[] secret) {
    SchedulerConfig c = copy();
    c.decisionSecret = secret == null ? null
        : requireNonEmpty(secret, "decision secret").clone();
    return c;
  }

  private static byte[] requireNonEmpty(byte[] secret, String what) {
    if (secret.length == 0) {
      throw new IllegalArgumentException("the " + what + " is empty");
    }
    return secret;
  }

  public long nodeTimeoutMs() {
    return nodeTimeoutMs;
  }

  public long maxClockJumpMs() {
    return maxClockJumpMs;
  }

  public long jobRetentionMs() {
    return jobRetentionMs;
  }

  /** The declared pools; empty when any pool is accepted. */
  public Set<String> pools() {
    return Set.copyOf(pools);
  }

  /** True when records for {@code pool} are accepted. */
  public boolean declares(String pool) {
    return pools.isEmpty() || pools.contains(pool);
  }

  /** A copy of the cluster node secret, or null. */
  public byte[] nodeSecret() {
    return nodeSecret == null ? null : nodeSecret.clone();
  }

  /** A copy of the decision secret, or null. */
  public byte[] decisionSecret() {
    return decisionSecret == null ? null : decisionSecret.clone();
  }

  public ProvisioningConfig provisioningFor(String pool) {
    return poolProvisioning.getOrDefault(pool, defaultProvisioning);
  }

  public static SchedulerConfig defaults(String policy) {
    return new SchedulerConfig(new PolicySpec(policy, Map.of()), Map.of(), 1000, 3);
  }

  public PolicySpec policyFor(String pool) {
    return poolPolicies.getOrDefault(pool, defaultPolicy);
  }

  public long metricsIntervalMs() {
    return metricsIntervalMs;
  }

  public int maxRetries() {
    return maxRetries;
  }
}
