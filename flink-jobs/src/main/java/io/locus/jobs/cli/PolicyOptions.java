package io.locus.jobs.cli;

import io.locus.core.policy.Policies;
import io.locus.operators.SchedulerConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** Policy flags shared by the commands that run a scheduler. */
public final class PolicyOptions {
  @Option(names = "--window", paramLabel = "W",
      description = "Tasks inspected from the queue head per decision (MCU/MCH/GCC). Default: ${DEFAULT-VALUE}.")
  int window = Policies.DEFAULT_WINDOW;

  @Option(names = "--theta", paramLabel = "θ",
      description = "GCC utilisation threshold in [0, 1]. Default: ${DEFAULT-VALUE}.")
  double theta = Policies.DEFAULT_THETA;

  @Option(names = "--max-retries", description = "Re-dispatches of a failed task. Default: ${DEFAULT-VALUE}.")
  int maxRetries = 3;

  @Option(names = "--metrics-interval-ms", description = "Scheduler metrics period. Default: ${DEFAULT-VALUE}.")
  long metricsIntervalMs = 1000;

  Map<String, String> params() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("window", Integer.toString(window));
    p.put("theta", Double.toString(theta));
    return p;
  }

  /** Validates the policy name and parameters; a bad one is an IllegalArgumentException. */
  SchedulerConfig.PolicySpec spec(String policy) {
    return new SchedulerConfig.PolicySpec(policy.toUpperCase(java.util.Locale.ROOT), params());
  }
}
