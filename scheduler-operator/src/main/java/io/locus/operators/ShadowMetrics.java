package io.locus.operators;

import io.locus.core.shadow.ShadowScore;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * A pool's shadow scores as Flink gauges, on {@code locus.pool=<POOL>.shadow=<POLICY>}: with
 * Prometheus, {@code flink_taskmanager_job_task_operator_locus_pool_shadow_NAME{pool=...,
 * shadow=...}} for NAME in predictedResponseMs, bytesToMove, utilisation, placed, completed. The
 * task thread publishes; the reporter's thread reads the volatile snapshot.
 */
final class ShadowMetrics {
  private final MetricGroup poolGroup;
  private final Map<String, Holder> byPolicy = new HashMap<>();

  private static final class Holder {
    volatile ShadowScore score;
  }

  ShadowMetrics(MetricGroup operatorGroup, String pool) {
    this.poolGroup = operatorGroup.addGroup("locus").addGroup("pool", pool);
  }

  void publish(ShadowScore s) {
    Holder h = byPolicy.get(s.policy());
    if (h == null) {
      Holder fresh = new Holder();
      MetricGroup g = poolGroup.addGroup("shadow", s.policy());
      g.gauge("predictedResponseMs", (Gauge<Double>) () -> {
        double r = fresh.score.meanResponseSeconds();
        return Double.isNaN(r) ? 0 : r * 1000;
      });
      g.gauge("bytesToMove", (Gauge<Long>) () -> fresh.score.bytesToMove());
      g.gauge("utilisation", (Gauge<Double>) () -> fresh.score.utilisation());
      g.gauge("placed", (Gauge<Long>) () -> fresh.score.placed());
      g.gauge("completed", (Gauge<Long>) () -> fresh.score.completed());
      byPolicy.put(s.policy(), fresh);
      h = fresh;
    }
    h.score = s;
  }

  /** The latest published score of a shadow (tests read it), or null. */
  ShadowScore latest(String policy) {
    Holder h = byPolicy.get(policy);
    return h == null ? null : h.score;
  }
}
