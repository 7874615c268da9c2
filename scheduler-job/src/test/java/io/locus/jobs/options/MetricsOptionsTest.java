package io.locus.jobs.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.jobs.SchedulerJob;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code --metrics-port}: the reporter's configuration keys, and bad values refused clearly. */
class MetricsOptionsTest {
  @Command(name = "probe")
  static final class Probe implements Runnable {
    @Mixin MetricsOptions metrics;

    @Override
    public void run() {}
  }

  private static MetricsOptions parse(String... args) {
    Probe p = new Probe();
    new CommandLine(p).parseArgs(args);
    return p.metrics;
  }

  private static Map<String, String> reporterKeys(Configuration conf) {
    Map<String, String> all = conf.toMap();
    all.keySet().removeIf(k -> !k.startsWith("metrics.reporter."));
    return all;
  }

  @Test
  void theDefaultServesOnThePrometheusPort() {
    Configuration conf = new Configuration();
    String line = parse().applyTo(conf);
    assertThat(reporterKeys(conf)).containsExactlyInAnyOrderEntriesOf(Map.of(
        "metrics.reporter.prom.factory.class", SchedulerJob.PROMETHEUS_FACTORY,
        "metrics.reporter.prom.port", "9249"));
    assertThat(line).isEqualTo("metrics: http://localhost:9249/metrics (Prometheus)");
  }

  @Test
  void aRangeAndOff() {
    Configuration conf = new Configuration();
    assertThat(parse("--metrics-port", "9250-9259").applyTo(conf)).contains("first free port");
    assertThat(conf.toMap()).containsEntry("metrics.reporter.prom.port", "9250-9259");
    Configuration none = new Configuration();
    assertThat(parse("--metrics-port", "off").applyTo(none)).isNull();
    assertThat(reporterKeys(none)).isEmpty();
  }

  @Test
  void badPortsAreRefusedNamingTheOption() {
    for (String bad : new String[] {"0", "70000", "9259-9250", "abc", "1-2-3", ""}) {
      assertThatThrownBy(() -> parse("--metrics-port", bad).applyTo(new Configuration()))
          .as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("--metrics-port: metrics port must be");
    }
  }
}
