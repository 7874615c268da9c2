package io.locus.sim;

import io.locus.core.policy.Policies;
import io.locus.core.policy.PolicyRegistry;
import io.locus.core.provision.ProvisioningConfig;
import io.locus.core.share.LocalityWait;
import io.locus.core.share.Preemption;
import io.locus.core.share.QueueTree;
import io.locus.core.state.PoolState;
import io.locus.core.state.RetryBackoff;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.provision.LrmConfig;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything a simulation needs besides its workload. Defaults are the spec's (§1.2, §2.1, §2.4):
 * 2 slots, 1 Gb/s NICs, 1.1875 Gb/s local disks, W = 2500, θ = 0.9, LRU, τ_dispatch = D_i = 0,
 * DRP all-at-once with distributed idle release after 30 s, polled every second, LRM U[30, 60] s at
 * 0.5 requests/s, replay off. Build with {@link #builder()}.
 *
 * @param nodes SRP: the static pool; DRP: the maximum; LRM_PER_TASK: the ideal-time reference
 * @param minNodes DRP minimum pool, registered at t = 0 (D13: 1 for MI and SW, 0 for STAGES18)
 * @param idealTime the efficiency numerator; NaN derives it ({@link io.locus.sim.metrics.IdealTime})
 * @param stepSeconds arrival-step length for the slowdown metric (MI: 60 s)
 * @param horizonSeconds stop (truncated) if virtual time would pass this
 * @param stallSeconds stop (truncated) after this long with nothing in flight and no progress possible
 * @param cells scheduler cells the pool is split into (1: one scheduler; more: {@code CellPlacer},
 *     the design for a pool larger than one operator instance)
 * @param dispatchGate skip dispatches that provably decide nothing (see DispatchGate); on by
 *     default, off only to check that it changes nothing
 * @param lifecycle cancels drawn at random and the workflow failure policy (issue 23)
 * @param queues the pool's queue tree (issue 24), or null: one FIFO queue, no per-queue measures
 */
public record SimulationConfig(
    String label,
    String pool,
    String policy,
    int window,
    double theta,
    int nodes,
    int minNodes,
    int slots,
    long cacheBytes,
    Provisioning provisioning,
    ProvisioningConfig.Acquisition acquisition,
    ProvisioningConfig.Release release,
    double idleSeconds,
    double pollSeconds,
    LrmConfig lrm,
    ExecConfig exec,
    double tauDispatch,
    Replay replay,
    int maxRetries,
    long seed,
    double stepSeconds,
    double idealTime,
    double horizonSeconds,
    double stallSeconds,
    boolean measureSchedulerCpu,
    boolean dispatchGate,
    int cells,
    Lifecycle lifecycle,
    Queues queues) {

  /**
   * The policies this simulator models: the registry's file policies that run on agent caches
   * (executors cache what they read), this model's only kind. The Khanna family (MET, MCT, SA,
   * JDPDLL, ONLINE_HPS) stages files from storage nodes over Gantt charts, which this model has
   * not (the Khanna simulator runs it). COMPLEMENTARY_PLACE (hybrid §2.6) runs with its defaults
   * and the window; tasks get the profile their trace job carries ({@code cpu}, {@code mem},
   * {@code disk} attributes), else the cold start. EFT (Locus's own, issue 16) runs in its
   * agent-cache form.
   */
  public static final List<String> POLICIES =
      PolicyRegistry.fileNames(d -> d.cacheModel().agent());

  /**
   * Per-node eviction policies: spec §3.1's, VALUE (Khanna's, on statistics the cluster keeps) and
   * DEMAND (issue 16: reads the scheduler's queue; not with LRM_PER_TASK, which has no queue).
   */
  public static final List<String> EVICTIONS =
      List.of("LRU", "FIFO", "LFU", "RANDOM", "VALUE", "DEMAND");

  /** How nodes come and go. */
  public enum Provisioning {
    /** All nodes registered at t = 0 and kept. */
    SRP,
    /** The core {@code Provisioner} acquires from and releases to the LRM. */
    DRP,
    /** §2.5 baseline: every task is its own LRM job on its own node; no dispatcher, no caching. */
    LRM_PER_TASK;

    public static Provisioning parse(String s) {
      try {
        return valueOf(s.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("unknown provisioning '" + s
            + "'; valid: srp, drp, lrm-per-task");
      }
    }

    public String cliName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /**
   * Replay policy (spec §2.3): re-dispatch when no result comes within max(minTimeout, factor ×
   * estimated runtime) or on a failure; an executor with {@code suspendAfter} failures within
   * {@code suspendWindowSeconds} is suspended (released). Failures are injected with the given
   * probability per attempt (seeded). The estimated runtime is the task's compute plus its bytes at
   * the smaller of NIC and file-system bandwidth, i.e. uncontended. {@code backoff}: how long a
   * failed (or timed-out) attempt's retry waits before it may be placed, the streaming scheduler's
   * rule through the same core code ({@code PoolState}); {@link RetryBackoff#NONE} (the spec's
   * immediate re-dispatch) unless set.
   */
  public record Replay(boolean timeouts, double minTimeoutSeconds, double runtimeFactor,
      double failureProbability, int suspendAfter, double suspendWindowSeconds,
      RetryBackoff backoff) {
    public Replay(boolean timeouts, double minTimeoutSeconds, double runtimeFactor,
        double failureProbability, int suspendAfter, double suspendWindowSeconds) {
      this(timeouts, minTimeoutSeconds, runtimeFactor, failureProbability, suspendAfter,
          suspendWindowSeconds, RetryBackoff.NONE);
    }

    public Replay {
      if (backoff == null) {
        backoff = RetryBackoff.NONE;
      }
      if (!(minTimeoutSeconds > 0) || !(runtimeFactor > 0) || !(failureProbability >= 0)
          || failureProbability > 1 || suspendAfter < 1 || !(suspendWindowSeconds > 0)) {
        throw new IllegalArgumentException("invalid replay settings");
      }
    }

    /** Off, as the spec's simulator default. */
    public static Replay off() {
      return new Replay(false, 60.0, 10.0, 0.0, 5, 60.0);
    }

    public boolean failureInjection() {
      return failureProbability > 0;
    }

    /** These settings with retries waiting out {@code b}. */
    public Replay withBackoff(RetryBackoff b) {
      return new Replay(timeouts, minTimeoutSeconds, runtimeFactor, failureProbability,
          suspendAfter, suspendWindowSeconds, b);
    }
  }

  /**
   * What a job whose parent failed for good or was cancelled does to the rest of its workflow, as
   * the streaming scheduler's {@code WorkflowSubmitted.onFailure} (same names).
   */
  public enum OnFailure {
    /** Only the jobs that depend on it, transitively, fail ("parent X failed"). */
    FAIL_DESCENDANTS,
    /** Every job of its workflow not yet released fails; released jobs run on. */
    FAIL_WORKFLOW;

    public static OnFailure parse(String s) {
      try {
        return valueOf(s.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("unknown failure policy '" + s
            + "'; valid: fail-descendants, fail-workflow");
      }
    }

    public String cliName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /**
   * The job lifecycle beyond run-to-end (issue 23): a fraction of jobs cancelled by their user, and
   * the workflow failure policy. Jobs whose trace sets {@code cancelAfter} are cancelled whatever
   * the fraction.
   *
   * @param cancelFraction the share of jobs drawn (seeded, in stream order) to be cancelled
   * @param cancelWithinSeconds a drawn cancel comes uniformly within this many seconds of the job's
   *     arrival; NaN: within twice the job's uncontended run time (compute plus its bytes at the
   *     smaller of NIC and file-system bandwidth), so some cancels find it queued, some running and
   *     some finished
   * @param onFailure what a failed-for-good or cancelled job does to its workflow
   */
  public record Lifecycle(double cancelFraction, double cancelWithinSeconds, OnFailure onFailure) {
    public Lifecycle {
      if (!(cancelFraction >= 0) || cancelFraction > 1) {
        throw new IllegalArgumentException("cancel fraction must be in [0, 1], got "
            + cancelFraction);
      }
      if (!Double.isNaN(cancelWithinSeconds)
          && (!(cancelWithinSeconds >= 0) || Double.isInfinite(cancelWithinSeconds))) {
        throw new IllegalArgumentException("cancel window must be finite and >= 0 seconds, got "
            + cancelWithinSeconds);
      }
      if (onFailure == null) {
        throw new IllegalArgumentException("a workflow failure policy is required");
      }
    }

    /** No drawn cancels, descendants of a failed job fail (the streaming default). */
    public static Lifecycle defaults() {
      return new Lifecycle(0.0, Double.NaN, OnFailure.FAIL_DESCENDANTS);
    }
  }

  /**
   * The pool's queue tree (issue 24) and what the run does with it. A job naming a queue the tree
   * lacks is refused as the streaming scheduler refuses it (never run, counted), in both modes, so
   * every mode of an experiment runs the same jobs.
   *
   * @param tree the queues (a pool's configuration file, {@code locus queues apply}'s)
   * @param enforce true: the scheduler dispatches by it ({@code Scheduler#setQueues}: fair share
   *     decides whose task, the policy where); false: the pool stays one FIFO queue and the tree
   *     only measures it (the FIFO baseline of the fairness/locality experiment, measured against
   *     the same fair shares)
   * @param maxLocalityWait the cap on a queue head's wait for a better node, seconds ({@code
   *     Scheduler#setMaxLocalityWait}; {@link LocalityWait#DEFAULT_MAX_LOCALITY_WAIT} by default)
   * @param preemptionGrace with {@code enforce}: the grace period of the core's preemption round
   *     in seconds ({@code Scheduler#setPreemptionGrace}; {@link Preemption#DEFAULT_GRACE_SECONDS}
   *     by default), NaN: no preemption (a queue below its guarantee waits for slots to free)
   */
  public record Queues(QueueTree tree, boolean enforce, double maxLocalityWait,
      double preemptionGrace) {
    public Queues {
      if (tree == null) {
        throw new IllegalArgumentException("a queue tree is required");
      }
      if (!(maxLocalityWait >= 0) || Double.isInfinite(maxLocalityWait)) {
        throw new IllegalArgumentException("max locality wait must be finite and >= 0 seconds,"
            + " got " + maxLocalityWait);
      }
      if (!Double.isNaN(preemptionGrace)
          && (!(preemptionGrace >= 0) || Double.isInfinite(preemptionGrace))) {
        throw new IllegalArgumentException("preemption grace must be finite and >= 0 seconds"
            + " (NaN: off), got " + preemptionGrace);
      }
    }

    /** {@code tree} with the default preemption grace. */
    public Queues(QueueTree tree, boolean enforce, double maxLocalityWait) {
      this(tree, enforce, maxLocalityWait, Preemption.DEFAULT_GRACE_SECONDS);
    }

    /** {@code tree} with the default locality wait and preemption grace. */
    public Queues(QueueTree tree, boolean enforce) {
      this(tree, enforce, LocalityWait.DEFAULT_MAX_LOCALITY_WAIT);
    }

    /** Whether the scheduler preempts (fair-share dispatch with a grace period). */
    public boolean preempts() {
      return enforce && !Double.isNaN(preemptionGrace);
    }
  }

  public SimulationConfig {
    if (policy == null) {
      throw new IllegalArgumentException("a policy is required");
    }
    if (provisioning != Provisioning.LRM_PER_TASK) {
      if (!POLICIES.contains(policy.toUpperCase(Locale.ROOT))) {
        throw new IllegalArgumentException("unknown policy '" + policy + "' for the data-diffusion "
            + "simulator; valid: " + String.join(", ", POLICIES));
      }
      Policies.create(policy, policyParams(policy, window, theta)); // fails early on a bad value
    }
    if (nodes < 1) {
      throw new IllegalArgumentException("nodes must be >= 1, got " + nodes);
    }
    if (minNodes < 0 || minNodes > nodes) {
      throw new IllegalArgumentException("min nodes must be in [0, " + nodes + "], got "
          + minNodes);
    }
    if (slots < 1) {
      throw new IllegalArgumentException("slots must be >= 1, got " + slots);
    }
    if (cacheBytes < 0) {
      throw new IllegalArgumentException("cache size must be >= 0, got " + cacheBytes);
    }
    if (!(idleSeconds >= 0) || !(pollSeconds > 0)) {
      throw new IllegalArgumentException("idle release and poll interval must be >= 0 and > 0");
    }
    if (!(tauDispatch >= 0) || Double.isInfinite(tauDispatch)) {
      throw new IllegalArgumentException("tau-dispatch must be finite and >= 0, got "
          + tauDispatch);
    }
    if (cells < 1 || cells > nodes) {
      throw new IllegalArgumentException("cells must be between 1 and the node count (" + nodes
          + "), got " + cells);
    }
    if (maxRetries < 0) {
      throw new IllegalArgumentException("max retries must be >= 0");
    }
    if (!(stepSeconds > 0) || !(horizonSeconds > 0) || !(stallSeconds > 0)) {
      throw new IllegalArgumentException("step, horizon and stall times must be > 0");
    }
    if (queues != null && (cells > 1 || provisioning == Provisioning.LRM_PER_TASK)) {
      throw new IllegalArgumentException("a queue tree needs one scheduler: not with cells > 1"
          + " or LRM_PER_TASK");
    }
    if (lrm == null || exec == null || replay == null || lifecycle == null) {
      throw new IllegalArgumentException("lrm, exec, replay and lifecycle settings are required");
    }
    if (!EVICTIONS.contains(exec.eviction().toUpperCase(Locale.ROOT))) {
      throw new IllegalArgumentException("unknown eviction policy '" + exec.eviction()
          + "' for the data-diffusion simulator; valid: " + String.join(", ", EVICTIONS));
    }
    if (provisioning == Provisioning.LRM_PER_TASK
        && exec.eviction().equalsIgnoreCase("DEMAND")) {
      throw new IllegalArgumentException("eviction DEMAND reads the scheduler's queue; "
          + "LRM_PER_TASK has none (one LRM node per task)");
    }
    label = label == null ? policy : label;
    pool = pool == null ? "sim" : pool;
  }

  /** The policy parameters the core's {@code Policies.create} takes. */
  public Map<String, String> policyParams() {
    return policyParams(policy, window, theta);
  }

  /**
   * The simulator's window and theta, for the policies that take them: the core refuses a
   * parameter a policy does not know (COMPLEMENTARY_PLACE has a window but no theta).
   */
  private static Map<String, String> policyParams(String policy, int window, double theta) {
    List<String> known = Policies.parameters(policy);
    Map<String, String> out = new java.util.LinkedHashMap<>();
    if (known != null && known.contains("window")) {
      out.put("window", Integer.toString(window));
    }
    if (known != null && known.contains("theta")) {
      out.put("theta", Double.toString(theta));
    }
    return out;
  }

  /** The core Provisioner's settings for DRP. */
  public ProvisioningConfig drp() {
    return new ProvisioningConfig(true, minNodes, nodes, slots, 1.0, acquisition, release,
        idleSeconds, 0, pollSeconds);
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Fluent construction with the spec's defaults. */
  public static final class Builder {
    private String label;
    private String pool = "sim";
    private String policy = "GCC";
    private int window = Policies.DEFAULT_WINDOW;
    private double theta = Policies.DEFAULT_THETA;
    private int nodes = 64;
    private int minNodes = 1;
    private int slots = 2;
    private long cacheBytes = 4_000_000_000L;
    private Provisioning provisioning = Provisioning.SRP;
    private ProvisioningConfig.Acquisition acquisition = ProvisioningConfig.Acquisition.ALL_AT_ONCE;
    private ProvisioningConfig.Release release = ProvisioningConfig.Release.DISTRIBUTED_IDLE;
    private double idleSeconds = 30.0;
    private double pollSeconds = 1.0;
    private LrmConfig lrm = LrmConfig.defaults();
    private ExecConfig exec = ExecConfig.defaults(4.0);
    private double tauDispatch;
    private Replay replay = Replay.off();
    private int maxRetries = PoolState.DEFAULT_MAX_RETRIES;
    private long seed = 1;
    private double stepSeconds = 60.0;
    private double idealTime = Double.NaN;
    private double horizonSeconds = Double.POSITIVE_INFINITY;
    private double stallSeconds = 3600.0;
    private boolean measureSchedulerCpu;
    private boolean dispatchGate = true;
    private int cells = 1;
    private Lifecycle lifecycle = Lifecycle.defaults();
    private Queues queues;

    private Builder() {}

    private Builder(SimulationConfig c) {
      label = c.label;
      pool = c.pool;
      policy = c.policy;
      window = c.window;
      theta = c.theta;
      nodes = c.nodes;
      minNodes = c.minNodes;
      slots = c.slots;
      cacheBytes = c.cacheBytes;
      provisioning = c.provisioning;
      acquisition = c.acquisition;
      release = c.release;
      idleSeconds = c.idleSeconds;
      pollSeconds = c.pollSeconds;
      lrm = c.lrm;
      exec = c.exec;
      tauDispatch = c.tauDispatch;
      replay = c.replay;
      maxRetries = c.maxRetries;
      seed = c.seed;
      stepSeconds = c.stepSeconds;
      idealTime = c.idealTime;
      horizonSeconds = c.horizonSeconds;
      stallSeconds = c.stallSeconds;
      measureSchedulerCpu = c.measureSchedulerCpu;
      dispatchGate = c.dispatchGate;
      cells = c.cells;
      lifecycle = c.lifecycle;
      queues = c.queues;
    }

    public Builder label(String v) {
      label = v;
      return this;
    }

    public Builder pool(String v) {
      pool = v;
      return this;
    }

    public Builder policy(String v) {
      policy = v;
      return this;
    }

    public Builder window(int v) {
      window = v;
      return this;
    }

    public Builder theta(double v) {
      theta = v;
      return this;
    }

    public Builder nodes(int v) {
      nodes = v;
      return this;
    }

    public Builder minNodes(int v) {
      minNodes = v;
      return this;
    }

    public Builder slots(int v) {
      slots = v;
      return this;
    }

    public Builder cacheBytes(long v) {
      cacheBytes = v;
      return this;
    }

    public Builder cacheGb(double gb) {
      cacheBytes = Math.round(gb * 1e9);
      return this;
    }

    public Builder provisioning(Provisioning v) {
      provisioning = v;
      return this;
    }

    public Builder acquisition(ProvisioningConfig.Acquisition v) {
      acquisition = v;
      return this;
    }

    public Builder release(ProvisioningConfig.Release v) {
      release = v;
      return this;
    }

    public Builder idleSeconds(double v) {
      idleSeconds = v;
      return this;
    }

    public Builder pollSeconds(double v) {
      pollSeconds = v;
      return this;
    }

    public Builder lrm(LrmConfig v) {
      lrm = v;
      return this;
    }

    public Builder exec(ExecConfig v) {
      exec = v;
      return this;
    }

    public Builder tauDispatch(double v) {
      tauDispatch = v;
      return this;
    }

    public Builder replay(Replay v) {
      replay = v;
      return this;
    }

    public Builder maxRetries(int v) {
      maxRetries = v;
      return this;
    }

    public Builder seed(long v) {
      seed = v;
      return this;
    }

    public Builder stepSeconds(double v) {
      stepSeconds = v;
      return this;
    }

    public Builder idealTime(double v) {
      idealTime = v;
      return this;
    }

    public Builder horizonSeconds(double v) {
      horizonSeconds = v;
      return this;
    }

    public Builder stallSeconds(double v) {
      stallSeconds = v;
      return this;
    }

    public Builder measureSchedulerCpu(boolean v) {
      measureSchedulerCpu = v;
      return this;
    }

    public Builder cells(int v) {
      cells = v;
      return this;
    }

    public Builder lifecycle(Lifecycle v) {
      lifecycle = v;
      return this;
    }

    /** The pool's queue tree, or null for none. */
    public Builder queues(Queues v) {
      queues = v;
      return this;
    }

    public Builder dispatchGate(boolean v) {
      dispatchGate = v;
      return this;
    }

    public SimulationConfig build() {
      return new SimulationConfig(label, pool, policy, window, theta, nodes, minNodes, slots,
          cacheBytes, provisioning, acquisition, release, idleSeconds, pollSeconds, lrm, exec,
          tauDispatch, replay, maxRetries, seed, stepSeconds, idealTime, horizonSeconds,
          stallSeconds, measureSchedulerCpu, dispatchGate, cells, lifecycle, queues);
    }
  }
}
