package io.locus.operators;

import io.locus.core.policy.Policies;
import io.locus.core.provision.ProvisioningConfig;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

/**
 * The scheduler operator's settings: the default policy, per-pool overrides (a pool's policy can
 * also be changed at run time with a Control record, which wins and is kept in state), how often
 * metrics are emitted, and the retry bound.
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
      if (SplitPoolDriver.isSplitPolicy(name)) {
        name = SplitPoolDriver.canonical(name);
        SplitPoolDriver.validate(name, params);
      } else {
        Policies.create(name, params);
      }
    }

    public boolean split() {
      return SplitPoolDriver.isSplitPolicy(name);
    }
  }

  private final PolicySpec defaultPolicy;
  private final HashMap<String, PolicySpec> poolPolicies;
  private final long metricsIntervalMs;
  private final int maxRetries;
  private final ProvisioningConfig defaultProvisioning;
  private final HashMap<String, ProvisioningConfig> poolProvisioning;

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
