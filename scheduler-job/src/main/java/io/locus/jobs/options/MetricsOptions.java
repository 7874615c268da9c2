package io.locus.jobs.options;

import io.locus.jobs.SchedulerJob;
import java.util.Locale;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Option;

/**
 * {@code --metrics-port}: Flink's Prometheus reporter for a command that starts the job's Flink
 * processes itself (a {@code locus run} on its local MiniCluster). A mixin, so the command adds one
 * field and one call: {@code @Mixin MetricsOptions metrics;} and {@code metrics.applyTo(conf)}.
 */
public final class MetricsOptions {
  /** The Prometheus exporter's customary port (Flink's documentation uses it too). */
  public static final String DEFAULT_PORT = "9249";

  @Option(names = "--metrics-port", defaultValue = DEFAULT_PORT, paramLabel = "PORT|FROM-TO|off",
      description = "Serve the job's Flink metrics (the scheduler's series: docs/operations.md) in "
          + "Prometheus format on http://HOST:PORT/metrics; a range FROM-TO lets each process of "
          + "the local cluster take the first free port; off: no reporter. A Flink cluster "
          + "started elsewhere uses its own configuration (metrics.reporter.prom.*). Default: "
          + "${DEFAULT-VALUE}.")
  String metricsPort = DEFAULT_PORT;

  /** Whether a reporter is asked for. */
  public boolean enabled() {
    return !"off".equals(metricsPort.trim().toLowerCase(Locale.ROOT));
  }

  /**
   * Adds the reporter to {@code conf} unless {@code off}; a bad value is an
   * IllegalArgumentException naming the option. Returns the one line to print, such as {@code
   * metrics: http://localhost:9249/metrics (Prometheus)}, or null when off.
   */
  public String applyTo(Configuration conf) {
    if (!enabled()) {
      return null;
    }
    try {
      SchedulerJob.prometheus(conf, metricsPort);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--metrics-port: " + e.getMessage() + " (or off)");
    }
    return "metrics: http://localhost:" + metricsPort.trim() + "/metrics (Prometheus"
        + (metricsPort.contains("-") ? ", the first free port of the range" : "") + ")";
  }
}
