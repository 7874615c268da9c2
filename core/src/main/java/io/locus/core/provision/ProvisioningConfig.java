package io.locus.core.provision;

import java.util.Locale;

/**
 * Dynamic resource provisioning settings (data-diffusion spec §2.4, decisions D12, D13). SRP is
 * {@link #staticPool()}: no acquisition, no release.
 */
public record ProvisioningConfig(
    boolean dynamic,
    int minNodes,
    int maxNodes,
    int slotsPerNode,
    double tasksPerSlot,
    Acquisition acquisition,
    Release release,
    double idleSeconds,
    int releaseQueueThreshold,
    double pollSeconds) implements java.io.Serializable {

  /** How a deficit of n nodes is requested from the resource manager. */
  public enum Acquisition {
    ONE_AT_A_TIME,
    ALL_AT_ONCE,
    ADDITIVE,
    EXPONENTIAL,
    OPTIMAL;

    public static Acquisition parse(String s) {
      return valueOf(s.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }
  }

  /** When nodes are given back. */
  public enum Release {
    DISTRIBUTED_IDLE,
    CENTRALIZED_EMPTY,
    CENTRALIZED_THRESHOLD;

    public static Release parse(String s) {
      return valueOf(s.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }
  }

  public ProvisioningConfig {
    if (minNodes < 0 || maxNodes < minNodes || slotsPerNode < 1 || !(tasksPerSlot > 0)
        || idleSeconds < 0 || !(pollSeconds > 0)) {
      throw new IllegalArgumentException("invalid provisioning config " + this);
    }
  }

  /** SRP: nodes are registered by the driver at t = 0 and never released. */
  public static ProvisioningConfig staticPool() {
    return new ProvisioningConfig(false, 0, Integer.MAX_VALUE, 1, 1, Acquisition.ALL_AT_ONCE,
        Release.DISTRIBUTED_IDLE, 0, 0, 1);
  }

  /** DRP with the spec's defaults: all-at-once, distributed idle release after 30 s, poll 1 s, k = 1. */
  public static ProvisioningConfig dynamic(int minNodes, int maxNodes, int slotsPerNode) {
    return new ProvisioningConfig(true, minNodes, maxNodes, slotsPerNode, 1.0,
        Acquisition.ALL_AT_ONCE, Release.DISTRIBUTED_IDLE, 30.0, 0, 1.0);
  }
}
