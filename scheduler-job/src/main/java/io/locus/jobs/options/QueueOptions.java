package io.locus.jobs.options;

import io.locus.operators.SchedulerConfig;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The queue settings of every file pool ({@code locus run} and {@code demo}, through {@link
 * PolicyOptions}): the cap on a queue head's locality wait and the preemption grace
 * (docs/policies.md, "Sharing a pool"). Scheduler-wide: each pool's queue tree is data
 * ({@code locus queues apply}), these two are the scheduler's configuration, given again on
 * every start (a restored job takes them from its options, not from its state).
 *
 * <p>A bad value is refused while parsing (exit 2) with what was wrong: not a duration, negative,
 * or longer than {@link #MAX} — an hour, far past any useful wait (delay scheduling's waits are
 * seconds) or grace (Kubernetes' default is 30 s); a longer one is almost surely a typo (PT1H for
 * PT1S).
 */
public final class QueueOptions {
  /** The longest wait or grace accepted. */
  public static final Duration MAX = Duration.ofHours(1);

  @Option(names = "--max-locality-wait", paramLabel = "DURATION", defaultValue = "PT3S",
      converter = LocalityWaitConverter.class,
      description = "Pools with queues: the longest a queue's head waits for a node holding more"
          + " of its data while a slot it could take is free (less as its queue falls below its"
          + " share, none below its guarantee); PT0S places at once. At most PT1H. "
          + "Default: ${DEFAULT-VALUE}.")
  public double maxLocalityWaitSeconds = 3;

  @Option(names = "--preemption-grace", paramLabel = "DURATION|off", defaultValue = "PT30S",
      converter = GraceConverter.class,
      description = "Pools with queues: how long a task preempted for a queue below its guarantee"
          + " may take to stop before it is killed; off: no preemption (such a queue waits for"
          + " running tasks to end). At most PT1H. Default: ${DEFAULT-VALUE}.")
  public double preemptionGraceSeconds = 30;

  /** {@code config} with these settings. */
  public SchedulerConfig apply(SchedulerConfig config) {
    return config.withMaxLocalityWait(maxLocalityWaitSeconds)
        .withPreemptionGrace(preemptionGraceSeconds);
  }

  /** Seconds of a duration in [PT0S, {@link #MAX}]; {@code what} names it in the refusal. */
  static double seconds(String value, String what) {
    Duration d;
    try {
      d = Duration.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw new TypeConversionException("'" + value + "' is not a duration (ISO-8601, e.g. PT3S or"
          + " PT0.5S)" + ("grace".equals(what) ? " nor off" : ""));
    }
    if (d.isNegative()) {
      throw new TypeConversionException(value + " is negative: a " + what + " is ≥ PT0S");
    }
    if (d.compareTo(MAX) > 0) {
      throw new TypeConversionException(value + " is longer than " + MAX + ", the longest "
          + what + " accepted");
    }
    return d.toNanos() / 1e9;
  }

  /** A duration in [PT0S, PT1H]. */
  public static final class LocalityWaitConverter implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      return seconds(value, "wait");
    }
  }

  /** A duration in [PT0S, PT1H], or {@code off} (NaN: no preemption). */
  public static final class GraceConverter implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      if (value.trim().toLowerCase(Locale.ROOT).equals("off")) {
        return Double.NaN;
      }
      return seconds(value, "grace");
    }
  }
}
