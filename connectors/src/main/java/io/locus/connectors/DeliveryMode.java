package io.locus.connectors;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.flink.connector.base.DeliveryGuarantee;

/**
 * How the scheduler's outputs reach Kafka (ARCHITECTURE rule 4).
 *
 * <p>{@link #EXACTLY_ONCE}: transactional sinks; output becomes visible to read_committed readers
 * only when a checkpoint completes, so latency is at least one checkpoint interval.
 * {@link #AT_LEAST_ONCE}: records are flushed on every checkpoint and may be duplicated after a
 * failure; readers (the agents) deduplicate by decision id.
 */
public enum DeliveryMode {
  EXACTLY_ONCE("exactly-once", DeliveryGuarantee.EXACTLY_ONCE),
  AT_LEAST_ONCE("at-least-once", DeliveryGuarantee.AT_LEAST_ONCE);

  private final String cliName;
  private final DeliveryGuarantee guarantee;

  DeliveryMode(String cliName, DeliveryGuarantee guarantee) {
    this.cliName = cliName;
    this.guarantee = guarantee;
  }

  /** The spelling used on the command line and in config files, e.g. {@code exactly-once}. */
  public String cliName() {
    return cliName;
  }

  /** The Flink connector guarantee this mode maps to. */
  public DeliveryGuarantee guarantee() {
    return guarantee;
  }

  /**
   * Parses {@code exactly-once} or {@code at-least-once} (case and surrounding blanks ignored;
   * the enum constant names are accepted too, so a value printed by {@link #name()} reads back).
   *
   * @throws IllegalArgumentException naming the valid values
   */
  public static DeliveryMode parse(String text) {
    if (text != null) {
      String t = text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
      for (DeliveryMode m : values()) {
        if (m.cliName.equals(t)) {
          return m;
        }
      }
    }
    throw new IllegalArgumentException("unknown delivery mode '" + text + "'; valid values: "
        + Arrays.stream(values()).map(DeliveryMode::cliName).collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return cliName;
  }
}
