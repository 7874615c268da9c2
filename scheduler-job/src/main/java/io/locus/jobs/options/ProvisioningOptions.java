package io.locus.jobs.options;

import io.locus.core.provision.ProvisioningConfig;
import picocli.CommandLine.Option;

/** Dynamic provisioning flags (data-diffusion spec §2.4), for commands that scale real nodes. */
public final class ProvisioningOptions {
  @Option(names = "--provisioning", defaultValue = "static",
      description = "static (SRP: nodes come and go on their own) or dynamic (DRP: scale requests on the scale-requests topic); srp and drp as in locus simulate. Default: ${DEFAULT-VALUE}.")
  String provisioning;

  @Option(names = "--min-nodes", defaultValue = "0", description = "DRP: never release below this. Default: ${DEFAULT-VALUE}.")
  int minNodes;

  @Option(names = "--max-nodes", defaultValue = "64", description = "DRP: never ask beyond this. Default: ${DEFAULT-VALUE}.")
  int maxNodes;

  @Option(names = "--node-slots", defaultValue = "2", description = "DRP: slots of a node to be acquired. Default: ${DEFAULT-VALUE}.")
  int nodeSlots;

  @Option(names = "--acquisition", defaultValue = "all-at-once",
      description = "DRP: one-at-a-time, all-at-once, additive, exponential or optimal. Default: ${DEFAULT-VALUE}.")
  String acquisition;

  @Option(names = "--release", defaultValue = "distributed-idle",
      description = "DRP: distributed-idle, centralized-empty or centralized-threshold. Default: ${DEFAULT-VALUE}.")
  String release;

  @Option(names = "--idle-seconds", defaultValue = "30", description = "DRP: idle time before a node is released. Default: ${DEFAULT-VALUE}.")
  double idleSeconds;

  /** The provisioning settings; a bad value is an IllegalArgumentException saying which. */
  public ProvisioningConfig provisioningConfig() {
    switch (provisioning.toLowerCase(java.util.Locale.ROOT)) {
      case "static", "srp":
        return ProvisioningConfig.staticPool();
      case "dynamic", "drp":
        ProvisioningConfig.Acquisition a;
        ProvisioningConfig.Release r;
        try {
          a = ProvisioningConfig.Acquisition.parse(acquisition);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("--acquisition must be one-at-a-time, all-at-once, "
              + "additive, exponential or optimal, got '" + acquisition + "'");
        }
        try {
          r = ProvisioningConfig.Release.parse(release);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("--release must be distributed-idle, "
              + "centralized-empty or centralized-threshold, got '" + release + "'");
        }
        return new ProvisioningConfig(true, minNodes, maxNodes, nodeSlots, 1.0, a, r,
            idleSeconds, 0, 1.0);
      default:
        throw new IllegalArgumentException(
            "--provisioning must be static or dynamic, got '" + provisioning + "'");
    }
  }

}
