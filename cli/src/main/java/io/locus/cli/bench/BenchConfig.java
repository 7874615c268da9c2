package io.locus.cli.bench;

import io.locus.connectors.DeliveryMode;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One configuration of {@code locus bench}: what runs (policy, delivery, state backend, workload,
 * pools) and how the load rises (rates, step length, backlog cap).
 *
 * @param nodes simulated nodes in all, split evenly over the pools
 * @param queueDepth passed to the agents ({@code --queue-depth}) only when > 0
 * @param rates offered arrival rates, tasks/s in all (split evenly over the pools), one per step
 * @param backlogCap stop raising the rate once published − placed exceeds this at a step's end
 * @param drain how long to wait after the last step for its tasks' decisions
 * @param files distinct input files of the zipf workload; preloaded files of the no-idle one
 * @param fileBytes the no-idle workload's file size (each preloaded on every node)
 * @param warmup how long the first rate is offered before the first measured step (JIT, RocksDB
 *     and Kafka warm up; not reported); zero for none
 * @param overload factors of the sustained rate offered after the rising steps, one step each
 *     ({@code --overload 2,4}); empty for none
 */
public record BenchConfig(String policy, DeliveryMode delivery, String stateBackend,
    Workload workload, int pools, int parallelism, int nodes, int slots, int queueDepth,
    double timeScale, Duration checkpointInterval, List<Double> rates, Duration step,
    long backlogCap, Duration drain, int files, long fileBytes, long seed, int window,
    double theta, Duration warmup, List<Double> overload) {

  /** Without overload steps. */
  public BenchConfig(String policy, DeliveryMode delivery, String stateBackend,
      Workload workload, int pools, int parallelism, int nodes, int slots, int queueDepth,
      double timeScale, Duration checkpointInterval, List<Double> rates, Duration step,
      long backlogCap, Duration drain, int files, long fileBytes, long seed, int window,
      double theta, Duration warmup) {
    this(policy, delivery, stateBackend, workload, pools, parallelism, nodes, slots, queueDepth,
        timeScale, checkpointInterval, rates, step, backlogCap, drain, files, fileBytes, seed,
        window, theta, warmup, List.of());
  }

  /** Without a warm-up. */
  public BenchConfig(String policy, DeliveryMode delivery, String stateBackend,
      Workload workload, int pools, int parallelism, int nodes, int slots, int queueDepth,
      double timeScale, Duration checkpointInterval, List<Double> rates, Duration step,
      long backlogCap, Duration drain, int files, long fileBytes, long seed, int window,
      double theta) {
    this(policy, delivery, stateBackend, workload, pools, parallelism, nodes, slots, queueDepth,
        timeScale, checkpointInterval, rates, step, backlogCap, drain, files, fileBytes, seed,
        window, theta, Duration.ZERO);
  }

  /** The two workloads: the demo's Zipf sharing, and one where every node holds every file. */
  public enum Workload {
    ZIPF("zipf"), NO_IDLE("no-idle");

    private final String cliName;

    Workload(String cliName) {
      this.cliName = cliName;
    }

    public String cliName() {
      return cliName;
    }

    public static Workload parse(String s) {
      for (Workload w : values()) {
        if (w.cliName.equalsIgnoreCase(s.trim())) {
          return w;
        }
      }
      throw new IllegalArgumentException("unknown workload '" + s + "': zipf or no-idle");
    }
  }

  public BenchConfig {
    rates = List.copyOf(rates);
    overload = List.copyOf(overload);
    if (overload.stream().anyMatch(f -> !(f > 0) || !Double.isFinite(f))
        || pools < 1 || parallelism < 1 || nodes < pools || slots < 1 || queueDepth < 0
        || !(timeScale > 0) || rates.isEmpty() || step.isNegative() || step.isZero()
        || backlogCap < 1 || files < 1 || fileBytes < 1) {
      throw new IllegalArgumentException("invalid bench configuration " + this);
    }
  }

  /** A short name for tables, CSV rows and plot legends. */
  public String label() {
    return String.format(Locale.ROOT, "%s %s %s %s K=%d", policy, delivery.cliName(),
        stateBackend, workload.cliName(), pools);
  }

  /** Nodes of pool {@code i} (0-based): the nodes split as evenly as they go. */
  public int nodesOfPool(int i) {
    return nodes / pools + (i < nodes % pools ? 1 : 0);
  }
}
