package io.locus.agent;

import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code --stats-interval}: how often an agent process prints its counters. One mixin for
 * {@code locus agent real} and {@code locus agent sim} (they had 30 s and 10 s).
 */
public final class StatsOptions {
  @Option(names = "--stats-interval", defaultValue = "PT30S", paramLabel = "DURATION",
      description = "Print counters this often (30s, 5m or ISO-8601; PT0S: never). Default: ${DEFAULT-VALUE}.")
  Duration statsInterval;

  /** The period in milliseconds; 0 or less: never. */
  long everyMs() {
    return statsInterval.toMillis();
  }
}
