package io.locus.cli;

import io.locus.schemas.ControlAck;
import io.locus.schemas.NodeStatus;
import io.locus.schemas.NodeStatusType;
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
 * control ack, each node's latest verdict by the scheduler (node-status: registered, draining,
 * left, lost; never a raw node report, which an impostor may have sent), the registrations the
 * scheduler refused, and the latest failures.
 */
final class PoolStatus {
  /** A node's latest verdict and its record's timestamp. */
  record NodeSeen(NodeStatus verdict, long tsMs) {}

  /** A FAILED or REFUSED task event. */
  record Failure(long timeMs, String taskId, int attempt, String node, TaskEventType type,
      int exitCode, String message) {}

  /** How a node counts, from the scheduler's verdict. */
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
  /** The latest REFUSED verdicts (a registration the scheduler refused), oldest first. */
  final Deque<NodeStatus> refusals = new ArrayDeque<>();
  long refusalsSeen;

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

  /**
   * A verdict, in the topic's order (one partition, so the order the scheduler made them): a
   * REFUSED one is kept among the refusals and changes no node (it is about the refused instance,
   * and the scheduler follows it with the node's own verdict).
   */
  void verdict(NodeStatus v, long tsMs) {
    if (v.getState() == NodeStatusType.REFUSED) {
      refusalsSeen++;
      refusals.addLast(v);
      if (refusals.size() > Math.max(1, keepFailures)) {
        refusals.removeFirst();
      }
    } else if (v.getState() != NodeStatusType.UNKNOWN) {
      nodes.put(v.getNode().toString(), new NodeSeen(v, tsMs));
    }
  }

  void taskEvent(TaskEvent e, long tsMs) {
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

  static NodeState state(NodeSeen n) {
    return switch (n.verdict().getState()) {
      case LEFT -> NodeState.LEFT;
      case LOST -> NodeState.LOST;
      case DRAINING -> NodeState.DRAINING;
      default -> NodeState.ALIVE;
    };
  }

  /**
   * Nodes by state: alive (not draining), draining, lost, left; a node lost or gone whose verdict
   * is older than {@code goneSinceMs} is not listed (the compacted topic keeps it for ever).
   */
  Map<NodeState, List<String>> nodesByState(long goneSinceMs) {
    Map<NodeState, List<String>> out = new TreeMap<>();
    for (NodeState s : NodeState.values()) {
      out.put(s, new ArrayList<>());
    }
    nodes.forEach((id, n) -> {
      NodeState s = state(n);
      if (s == NodeState.ALIVE || s == NodeState.DRAINING || n.tsMs() >= goneSinceMs) {
        out.get(s).add(id);
      }
    });
    return out;
  }

  /** The latest failures, newest first. */
  List<Failure> latestFailures() {
    List<Failure> out = new ArrayList<>(failures);
    out.sort((a, b) -> Long.compare(b.timeMs(), a.timeMs()));
    return out;
  }
}
