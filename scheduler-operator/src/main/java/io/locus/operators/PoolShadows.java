package io.locus.operators;

import io.locus.core.model.Task;
import io.locus.core.policy.Policies;
import io.locus.core.shadow.ShadowPlacement;
import io.locus.core.shadow.ShadowRun;
import io.locus.core.shadow.ShadowScore;
import io.locus.core.shadow.TransferRates;
import io.locus.core.state.PoolState;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.ShadowDecision;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.state.PoolMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pool's shadow policies ({@code locus run --shadow-policy POOL=P1,P2}): each runs as a
 * {@link ShadowRun} on the inputs the pool's real driver has just accepted, and every would-be
 * placement leaves as a {@link ShadowDecision} with the shadow's running score. The pool's active
 * policy runs as a shadow too ({@code active = true}), so every policy is scored by the same model
 * and the scores can be set side by side; the real run's own numbers are the measured ones.
 *
 * <p>Shadows live on the heap only: when the operator rebuilds the pool (a new epoch, after a
 * restart or a restore) they start afresh from the real pool's nodes, caches and queue, and the
 * records say from which epoch their score counts. That keeps them out of the checkpoint (they
 * are advice, and a shadow is as large as a pool), at the price of a score that restarts with
 * the scheduler.
 */
final class PoolShadows {
  private final String pool;
  private final long epoch;
  private final TransferRates rates;
  private final List<ShadowRun> runs = new ArrayList<>();
  /** Compute seconds of the tasks the shadows know, to learn rates from real completions. */
  private final Map<String, Double> compute = new HashMap<>();
  /** When the real pool placed each running task (pool clock, ms), to learn the overhead. */
  private final Map<String, Long> placedAtMs = new HashMap<>();
  private final ShadowMetrics metrics;
  private long seq;

  private PoolShadows(String pool, long epoch, double timeScale, ShadowMetrics metrics) {
    this.pool = pool;
    this.rates = new TransferRates(timeScale);
    this.epoch = epoch;
    this.metrics = metrics;
  }

  /**
   * The pool's shadows, started from its real state; null when it has none configured or runs a
   * split policy (no file placements to compare with).
   */
  static PoolShadows open(String pool, PoolMeta meta, PoolState real, String activePolicy,
      List<SchedulerConfig.PolicySpec> specs, int maxRetries, double timeScale,
      ShadowMetrics metrics) {
    if (specs.isEmpty() || SplitPoolParams.isSplitPolicy(activePolicy)) {
      return null;
    }
    PoolShadows s = new PoolShadows(pool, meta.getEpoch(), timeScale, metrics);
    double now = Conversions.seconds(meta.getClockMs());
    Set<String> names = new LinkedHashSet<>();
    names.add(activePolicy);
    Map<String, Map<String, String>> params = new HashMap<>();
    params.put(activePolicy, meta.getParams());
    for (SchedulerConfig.PolicySpec p : specs) {
      if (names.add(p.name())) {
        params.put(p.name(), p.params());
      }
    }
    for (String name : names) {
      s.runs.add(ShadowRun.startingFrom(real, Policies.create(name, params.get(name)), s.rates,
          maxRetries, now));
    }
    for (Task t : real.queue()) {
      s.compute.put(t.taskId(), t.totalComputeSeconds());
    }
    return s;
  }

  /** The policies shadowed, the active one first. */
  List<String> policies() {
    List<String> out = new ArrayList<>();
    runs.forEach(r -> out.add(r.policy()));
    return out;
  }

  List<ShadowScore> scores() {
    List<ShadowScore> out = new ArrayList<>();
    runs.forEach(r -> out.add(r.score()));
    return out;
  }

  /**
   * An input the real driver accepted; {@code active} is the pool's policy after it. Nodes that
   * left the real pool by other means than a LEAVE (declared lost by the input gate) leave the
   * shadows' clusters at the same input.
   */
  List<ShadowDecision> onInput(Object event, PoolMeta meta, PoolState real, String active,
      List<io.locus.schemas.Decision> realDecisions) {
    double now = Conversions.seconds(meta.getClockMs());
    for (io.locus.schemas.Decision d : realDecisions) {
      if (d.getAction() instanceof io.locus.schemas.PlaceTask p) {
        placedAtMs.put(p.getTaskId(), meta.getClockMs());
      }
    }
    List<ShadowPlacement> placed = new ArrayList<>();
    for (ShadowRun r : runs) {
      for (String node : List.copyOf(r.nodes())) {
        if (real.node(node) == null) {
          placed.addAll(r.nodeLeft(node, now));
        }
      }
    }
    if (event instanceof JobSubmitted job && job.getEvents() == null) {
      Task t = Conversions.toTask(job, ++seq);
      compute.put(t.taskId(), t.totalComputeSeconds());
      runs.forEach(r -> placed.addAll(r.jobArrived(t, now)));
    } else if (event instanceof TaskEvent te) {
      learn(te, meta.getClockMs());
      runs.forEach(r -> placed.addAll(r.advance(now)));
    } else if (event instanceof NodeReport nr && nr.getType() == NodeReportType.REGISTER) {
      Map<String, Long> cached = new HashMap<>();
      nr.getAdded().forEach(f -> cached.put(f.getFileId(), f.getBytes()));
      runs.forEach(r -> placed.addAll(r.nodeRegistered(nr.getNode(), nr.getSlots(),
          nr.getCacheCapacityBytes(), cached, now)));
    } else if (event instanceof NodeReport nr && nr.getType() == NodeReportType.LEAVE) {
      runs.forEach(r -> placed.addAll(r.nodeLeft(nr.getNode(), now)));
    } else if (event instanceof io.locus.schemas.JobCommand c
        && c.getType() == io.locus.schemas.JobCommandType.CANCEL) {
      runs.forEach(r -> placed.addAll(r.jobCancelled(c.getJobId(), now)));
    } else if (event instanceof Control c && c.getNode() != null
        && (c.getType() == ControlType.DRAIN_NODE || c.getType() == ControlType.RESUME_NODE)) {
      boolean draining = c.getType() == ControlType.DRAIN_NODE;
      runs.forEach(r -> placed.addAll(r.drain(c.getNode(), draining, now)));
    } else {
      runs.forEach(r -> placed.addAll(r.advance(now)));
    }
    return emit(placed, meta, active);
  }

  private void learn(TaskEvent te, long clockMs) {
    if (te.getType() != TaskEventType.COMPLETED && te.getType() != TaskEventType.FAILED) {
      return;
    }
    Double c = compute.remove(te.getTaskId());
    Long placed = placedAtMs.remove(te.getTaskId());
    if (te.getType() == TaskEventType.COMPLETED && placed != null
        && te.getEndTimeMs() >= te.getStartTimeMs() && te.getStartTimeMs() > 0) {
      rates.observeOverhead((clockMs - placed) / 1000.0,
          (te.getEndTimeMs() - te.getStartTimeMs()) / 1000.0);
    }
    if (te.getType() == TaskEventType.COMPLETED && c != null
        && te.getEndTimeMs() > te.getStartTimeMs() && te.getStartTimeMs() > 0) {
      rates.observe((te.getEndTimeMs() - te.getStartTimeMs()) / 1000.0, c, te.getBytesLocal(),
          te.getBytesPeer(), te.getBytesStorage());
    }
  }

  private List<ShadowDecision> emit(List<ShadowPlacement> placed, PoolMeta meta, String active) {
    Map<String, ShadowScore> scores = new HashMap<>();
    for (ShadowRun r : runs) {
      ShadowScore s = r.score();
      scores.put(r.policy(), s);
      if (metrics != null) {
        metrics.publish(s);
      }
    }
    List<ShadowDecision> out = new ArrayList<>(placed.size());
    for (ShadowPlacement p : placed) {
      ShadowScore s = scores.get(p.policy());
      out.add(ShadowDecision.newBuilder()
          .setPool(pool)
          .setPolicy(p.policy())
          .setActive(p.policy().equals(active))
          .setEpoch(epoch)
          .setTimeMs(meta.getClockMs())
          .setTaskId(p.taskId())
          .setJobId(p.jobId())
          .setNode(p.node())
          .setPredictedStartMs(Conversions.millis(p.start()))
          .setPredictedEndMs(Conversions.millis(p.predictedEnd()))
          .setLocalBytes(p.localBytes())
          .setPeerBytes(p.peerBytes())
          .setStorageBytes(p.storageBytes())
          .setPlaced(s.placed())
          .setCompleted(s.completed())
          .setMeanResponseMs(s.meanResponseSeconds() * 1000)
          .setBytesToMove(s.bytesToMove())
          .setUtilisation(s.utilisation())
          .setQueueLength(s.queueLength())
          .build());
    }
    return out;
  }
}
