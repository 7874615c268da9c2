package io.locus.operators;

import io.locus.schemas.codec.DeadLetterCodes;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;

/**
 * The scheduler operator's Flink counters: dead letters per code (group {@code deadLetters}, one
 * counter per {@link DeadLetterCodes} code), {@code lostNodes}, {@code instanceConflicts} (records
 * refused because another agent instance owns the node) and {@code resyncsSent}.
 */
final class GateMetrics {
  private final Map<String, Counter> deadLetters = new HashMap<>();
  private final Counter otherDeadLetters;
  final Counter lostNodes;
  final Counter instanceConflicts;
  final Counter resyncsSent;

  GateMetrics(MetricGroup group) {
    MetricGroup dl = group.addGroup("deadLetters");
    for (String code : DeadLetterCodes.ALL) {
      deadLetters.put(code, dl.counter(code, new SimpleCounter()));
    }
    otherDeadLetters = dl.counter("other", new SimpleCounter());
    lostNodes = group.counter("lostNodes", new SimpleCounter());
    instanceConflicts = group.counter("instanceConflicts", new SimpleCounter());
    resyncsSent = group.counter("resyncsSent", new SimpleCounter());
  }

  void deadLetter(String code) {
    deadLetters.getOrDefault(code, otherDeadLetters).inc();
  }

  /** Dead letters of {@code code} so far. */
  long deadLetters(String code) {
    return deadLetters.getOrDefault(code, otherDeadLetters).getCount();
  }
}
