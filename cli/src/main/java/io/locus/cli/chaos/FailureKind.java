package io.locus.cli.chaos;

import java.util.Arrays;
import java.util.Locale;

/** The failures {@code locus chaos} injects (docs/reliability.md, "locus chaos"). */
public enum FailureKind {
  /** {@code locus run} killed with SIGKILL and started again with the same command. */
  SCHEDULER_KILL,
  /** One agent process killed with SIGKILL and started again (same instance ids). */
  AGENT_KILL,
  /** The broker killed with SIGKILL and started again on its port. */
  BROKER_KILL,
  /** One agent process killed with SIGKILL for good: its nodes must be declared lost. */
  NODE_LOST,
  /** {@code locus savepoint --stop}, then {@code locus run} at another parallelism. */
  RESCALE,
  /** Heartbeats of a live node stamped an hour ahead: dead-lettered {@code clock}, nobody lost. */
  CLOCK_SKEW,
  /** A node, signed as itself, sends COMPLETED for another node's running attempt. */
  FORGE;

  /** The name on the command line: {@code scheduler-kill}, {@code clock-skew}, ... */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The kind named {@code label}; fails naming every kind. */
  public static FailureKind of(String label) {
    for (FailureKind k : values()) {
      if (k.label().equals(label.trim().toLowerCase(Locale.ROOT))) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown failure kind '" + label + "'; kinds: "
        + String.join(",", Arrays.stream(values()).map(FailureKind::label).toList()));
  }
}
