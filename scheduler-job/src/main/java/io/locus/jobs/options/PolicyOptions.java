package io.locus.jobs.options;

import io.locus.core.policy.Policies;
import io.locus.core.split.SplitParams;
import io.locus.core.state.RetryBackoff;
import io.locus.operators.SchedulerConfig;
import io.locus.operators.SplitPoolParams;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Policy flags shared by the commands that run a scheduler. */
public final class PolicyOptions {
  @Mixin public PolicyParameters parameters = new PolicyParameters();

  @Option(names = "--split-param", paramLabel = "KEY=VALUE",
      description = "A parameter of the split policies (FARM, JOB_SPLITTING, CACHE_JOB_SPLITTING, "
          + "OUT_OF_ORDER, DELAYED, ADAPTIVE_DELAY) for event-range jobs, repeatable: tCpu, tDisk, "
          + "tTape (seconds per event), cacheGb or cacheEvents, eventBytes, tapePipelining, "
          + "diskPipelining, replication, min, starve, stripe, period, lmaxTable, margin, window, "
          + "hysteresis, evaluate; dataset (the pool's one dataset) and timeScale (wall seconds per "
          + "model second, as the agents'). POOL:KEY=VALUE sets it for one pool only (e.g. "
          + "cern:lmaxTable=0:1.0,1d:1.5). Spec defaults otherwise; see docs/operations.md.")
  public Map<String, String> splitParams = new LinkedHashMap<>();

  @Option(names = "--max-retries", description = "Re-dispatches of a failed task. Default: ${DEFAULT-VALUE}.")
  public int maxRetries = 3;

  @Option(names = "--retry-backoff", paramLabel = "DURATION",
      description = "How long a failed task's next attempt waits before it may be placed (file "
          + "pools, on the pool's record clock), doubling with each failure of the task up to "
          + "--retry-backoff-max; PT0S re-queues at once. A refusal, a lost or re-registered node "
          + "and a withdraw always re-queue at once; split pools always do. "
          + "Default: ${DEFAULT-VALUE}.")
  public Duration retryBackoff = Duration.ofSeconds(10);

  @Option(names = "--retry-backoff-max", paramLabel = "DURATION",
      description = "The longest a retry waits (the cap of the doubling --retry-backoff). "
          + "Default: ${DEFAULT-VALUE}.")
  public Duration retryBackoffMax = Duration.ofMinutes(6);

  /** --max-locality-wait and --preemption-grace. */
  @Mixin public QueueOptions queues = new QueueOptions();

  @Option(names = "--metrics-interval-ms", description = "Scheduler metrics period. Default: ${DEFAULT-VALUE}.")
  public long metricsIntervalMs = 1000;

  /** The retry backoff these flags give; a bad one is an IllegalArgumentException naming them. */
  public RetryBackoff retryBackoff() {
    if (retryBackoff == null || retryBackoff.isNegative()) {
      throw new IllegalArgumentException("--retry-backoff must be a duration ≥ 0 (PT0S: re-queue "
          + "at once), not " + retryBackoff);
    }
    if (retryBackoffMax == null || retryBackoffMax.compareTo(retryBackoff) < 0) {
      throw new IllegalArgumentException("--retry-backoff-max (" + retryBackoffMax + ") must be "
          + "at least --retry-backoff (" + retryBackoff + ")");
    }
    return new RetryBackoff(retryBackoff.toMillis() / 1000.0, retryBackoffMax.toMillis() / 1000.0);
  }

  public Map<String, String> params() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("window", Integer.toString(parameters.window));
    p.put("theta", Double.toString(parameters.theta));
    return p;
  }

  /**
   * Validates the policy name and parameters; a bad one is an IllegalArgumentException. A split
   * policy takes the {@code --split-param}s, a file policy {@code --window} and {@code --theta}.
   */
  public SchedulerConfig.PolicySpec spec(String policy) {
    return spec(null, policy);
  }

  /**
   * The {@code --split-param}s that apply to {@code pool}: the global ones, then the ones
   * prefixed {@code POOL:} (null pool: the global ones only). Not validated.
   */
  public Map<String, String> splitParams(String pool) {
    Map<String, String> p = new LinkedHashMap<>();
    splitParams.forEach((k, v) -> {
      if (k.indexOf(':') < 0) {
        p.put(k, v);
      }
    });
    if (pool != null) {
      splitParams.forEach((k, v) -> {
        if (k.startsWith(pool + ":")) {
          p.put(k.substring(pool.length() + 1), v);
        }
      });
    }
    return p;
  }

  /** The policy of {@code pool} (null: the default policy of every pool). */
  public SchedulerConfig.PolicySpec spec(String pool, String policy) {
    if (SplitPoolParams.isSplitPolicy(policy)) {
      Map<String, String> p = splitParams(pool);
      try {
        return new SchedulerConfig.PolicySpec(policy, p);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--split-param" + (pool == null ? "" : " (pool " + pool
            + ")") + ": " + e.getMessage(), e);
      }
    }
    try {
      // --window and --theta go to the policies that take them (MET, EFT, ... have no theta)
      Map<String, String> p = params();
      java.util.List<String> takes = Policies.parameters(policy);
      if (takes != null) {
        p.keySet().retainAll(takes);
      }
      return new SchedulerConfig.PolicySpec(policy.toUpperCase(java.util.Locale.ROOT), p);
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      if (m != null && m.startsWith("unknown policy")) {
        m += "; split policies (event-range jobs): " + String.join(", ", SplitParams.POLICIES);
      }
      throw new IllegalArgumentException(m, e);
    }
  }
}
