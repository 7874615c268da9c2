package io.locus.operators;

import io.locus.schemas.codec.DeadLetterCodes;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler operator's Flink metrics that are not a pool's, on its {@code locus} group: dead
 * letters by reason ({@code locus.deadLetters.reason=<code>.count}, one counter per {@link
 * DeadLetterCodes} code, registered up front so each shows as 0 before it first happens; an
 * unlisted code counts as {@code other}), {@code instanceConflicts} (records refused because
 * another agent instance owns the node) and {@code resyncsSent}. It also hands out each pool's
 * {@link PoolMetrics}.
 */
final class GateMetrics {
  private static final Logger LOG = LoggerFactory.getLogger(GateMetrics.class);
  /**
   * Pools with their own series at most. Only reached when no pools are declared (any pool name is
   * accepted then): a stream of made-up pool names must not grow the metrics without bound.
   */
  static final int MAX_POOLS = 256;

  private final MetricGroup operatorGroup;
  private final Map<String, Counter> deadLetters = new HashMap<>();
  private final Counter otherDeadLetters;
  private final Map<String, PoolMetrics> pools = new HashMap<>();
  final Counter instanceConflicts;
  final Counter resyncsSent;

  GateMetrics(MetricGroup operatorGroup) {
    this.operatorGroup = operatorGroup;
    MetricGroup locus = operatorGroup.addGroup("locus");
    MetricGroup dl = locus.addGroup("deadLetters");
    for (String code : DeadLetterCodes.ALL) {
      deadLetters.put(code, reasonCounter(dl, code));
    }
    otherDeadLetters = reasonCounter(dl, "other");
    instanceConflicts = locus.counter("instanceConflicts", new ThreadSafeSimpleCounter());
    resyncsSent = locus.counter("resyncsSent", new ThreadSafeSimpleCounter());
  }

  /** {@code deadLetters.reason=<reason>.count}: the dead-letter counter of one reason. */
  static Counter reasonCounter(MetricGroup deadLetters, String reason) {
    return deadLetters.addGroup("reason", reason).counter("count", new ThreadSafeSimpleCounter());
  }

  void deadLetter(String code) {
    deadLetters.getOrDefault(code, otherDeadLetters).inc();
  }

  /** Dead letters of {@code code} so far. */
  long deadLetters(String code) {
    return deadLetters.getOrDefault(code, otherDeadLetters).getCount();
  }

  /** The pool's metrics, registered on first use (one set per pool for the operator's life). */
  PoolMetrics pool(String name) {
    PoolMetrics m = pools.get(name);
    if (m == null) {
      MetricGroup g = operatorGroup;
      if (pools.size() >= MAX_POOLS) {
        if (pools.size() == MAX_POOLS) {
          LOG.warn("{} pools have metrics: pool {} and any later one get none (declare the "
              + "pools to refuse unknown ones)", MAX_POOLS, InputGate.shown(name));
        }
        g = new UnregisteredMetricsGroup();
      }
      m = new PoolMetrics(g, name);
      pools.put(name, m);
    }
    return m;
  }

  /** The pool's metrics, or null when it has none yet (tests). */
  PoolMetrics poolOrNull(String name) {
    return pools.get(name);
  }
}
