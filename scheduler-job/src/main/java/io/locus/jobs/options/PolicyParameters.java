package io.locus.jobs.options;

import io.locus.core.policy.Policies;
import picocli.CommandLine.Option;

/**
 * The file policies' two parameters, one spelling and one default (the core's) for every command
 * that runs them: {@code locus run} and {@code demo} (through {@link PolicyOptions}),
 * {@code bench} and {@code simulate}.
 */
public final class PolicyParameters {
  @Option(names = "--window", paramLabel = "W",
      description = "Tasks inspected from the queue head per decision (MCU/MCH/GCC). Default: ${DEFAULT-VALUE}.")
  public int window = Policies.DEFAULT_WINDOW;

  @Option(names = "--theta", paramLabel = "θ",
      description = "GCC utilisation threshold in [0, 1]. Default: ${DEFAULT-VALUE}.")
  public double theta = Policies.DEFAULT_THETA;
}
