package io.locus.cli;

import io.locus.schemas.ControlAck;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code locus status} knows about one pool, folded from its topics' records in any order
 * (each fold keeps the newest by record timestamp): the latest scheduler metrics, the latest
 * control ack, each node's last report and when it was last heard from (a node report or a task
 * event, as the scheduler's node registry hears them), and the latest failures.
 */
final class PoolStatus {
  /** One node as seen in the lookback window. */
  static final class NodeSeen {
    long heardMs = Long.MIN_VALUE;
    long reportMs = Long.MIN_VALUE;
    NodeReportType lastType;
    boolean draining;
  }

  /** A FAILED or REFUSED task event. */
  record Failure(long timeMs, String taskId, int attempt, String node, TaskEventType type,
      int exitCode, String message) {}

  /** How a node counts, given the scheduler's lost timeout and the time now. */
  enum NodeState { ALIVE, DRAINING, LOST, LEFT }

  final String pool;
  SchedulerMetrics metrics;
  long metricsMs = Long.MIN_VALUE;
  ControlAck ack;
  long ackMs = Long.MIN_VALUE;
  final Map<String, NodeSeen> nodes = new TreeMap<>();
  private final int keepFailures;
  private final Deque<Failure> failures = new ArrayDeque<>();
  long failuresSeen;

  PoolStatus(String pool, int keepFailures) {
    this.pool = pool;
    this.keepFailures = keepFailures;
  }

  /** The latest shadow record of each shadow policy (its running score), by policy. */
  final Map<String, io.locus.schemas.ShadowDecision> shadows = new TreeMap<>();

  void shadow(io.locus.schemas.ShadowDecision d, long tsMs) {
    io.locus.schemas.ShadowDecision old = shadows.get(d.getPolicy().toString());
    // a newer epoch's score replaces the older one (the shadows restarted with the scheduler)
    if (old == null || d.getEpoch() > old.getEpoch()
        || (d.getEpoch() == old.getEpoch() && d.getPlaced() >= old.getPlaced())) {
      shadows.put(d.getPolicy().toString(), d);
    }
  }

  void metrics(SchedulerMetrics m, long tsMs) {
    if (tsMs >= metricsMs) {
      metrics = m;
      metricsMs = tsMs;
    }
  }

  /**
   * Whether the scheduler knows this pool: anything but a refused control was heard of it. A
   * control for a pool that is not declared is refused and acked under that pool's name; it must
   * not make a pool of it.
   */
  boolean known() {
    return metrics != null || !nodes.isEmpty() || !shadows.isEmpty() || failuresSeen > 0
        || (ack != null && ack.getAccepted());
  }

  void ack(ControlAck a, long tsMs) {
    if (tsMs >= ackMs) {
      ack = a;
      ackMs = tsMs;
    }
  }

  void report(NodeReport r, long tsMs) {
    NodeSeen n = nodes.computeIfAbsent(r.getNode(), k -> new NodeSeen());
    n.heardMs = Math.max(n.heardMs, tsMs);
    // Cache reports say nothing about draining; REGISTER, HEARTBEAT and LEAVE do.
    if (tsMs >= n.reportMs && r.getType() != NodeReportType.CACHE_DELTA
        && r.getType() != NodeReportType.CACHE_SNAPSHOT) {
      n.reportMs = tsMs;
      n.lastType = r.getType();
      n.draining = r.getDraining();
    }
  }

  void taskEvent(TaskEvent e, long tsMs) {
    NodeSeen n = nodes.computeIfAbsent(e.getNode(), k -> new NodeSeen());
    n.heardMs = Math.max(n.heardMs, tsMs);
    if (e.getType() == TaskEventType.FAILED || e.getType() == TaskEventType.REFUSED) {
      failuresSeen++;
      failures.addLast(new Failure(tsMs, e.getTaskId(), e.getAttempt(), e.getNode(), e.getType(),
          e.getExitCode(), e.getMessage()));
      if (failures.size() > keepFailures) {
        // Records arrive per partition in order, and one pool is one partition: the oldest go.
        failures.removeFirst();
      }
    }
  }

  NodeState state(NodeSeen n, long nowMs, long lostAfterMs) {
    if (n.lastType == NodeReportType.LEAVE) {
      return NodeState.LEFT;
    }
    if (nowMs - n.heardMs > lostAfterMs) {
      return NodeState.LOST;
    }
    return n.draining ? NodeState.DRAINING : NodeState.ALIVE;
  }

  /** Nodes by state: alive (not draining), draining, lost, left. */
  Map<NodeState, List<String>> nodesByState(long nowMs, long lostAfterMs) {
    Map<NodeState, List<String>> out = new TreeMap<>();
    for (NodeState s : NodeState.values()) {
      out.put(s, new ArrayList<>());
    }
    nodes.forEach((id, n) -> out.get(state(n, nowMs, lostAfterMs)).add(id));
    return out;
  }

  /** The latest failures, newest first. */
  List<Failure> latestFailures() {
    List<Failure> out = new ArrayList<>(failures);
    out.sort((a, b) -> Long.compare(b.timeMs(), a.timeMs()));
    return out;
  }
}
