package io.locus.core.state;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which attempts sit on which node, for late binding (issue 13): each node's placed attempts (task
 * ids), the nodes with placements beyond their slots (overfull: some wait in the agent's local
 * queue), the slots in use (a node counts min(busy, slots)), and the withdraws in flight. Part of
 * {@link PoolState}, which calls {@link #placed} on every placement and end.
 */
final class PlacementBook {
  /** Placed attempts per node (task ids), for the node's own lookups (re-queue, withdraw). */
  private final Map<String, Set<String>> placedOn = new HashMap<>();
  /** Nodes with placements beyond their slots (busy > slots). */
  private final Map<String, NodeView> overfull = new HashMap<>();
  /**
   * Attempts being withdrawn (task id → the node with a free slot the withdraw is for). Not
   * persisted: after a restore a withdraw may be sent again, which the agent answers as the first.
   */
  private final Map<String, String> withdrawing = new HashMap<>();
  private final Map<String, Integer> withdrawsTo = new HashMap<>();
  private int busySlots;

  /** Slots in use: min(busy, slots) summed over the nodes. */
  int busySlots() {
    return busySlots;
  }

  Collection<NodeView> overfull() {
    return Collections.unmodifiableCollection(overfull.values());
  }

  /** Task ids of the attempts placed on the node (empty if none). */
  Set<String> on(String node) {
    return placedOn.getOrDefault(node, Set.of());
  }

  /**
   * One more (+1) or one fewer (-1) placed attempt on the node: busy, the slots in use, the
   * overfull nodes and the node's placed attempts.
   */
  void placed(NodeView n, String taskId, int delta) {
    busySlots -= Math.min(n.busy, n.slots);
    n.busy += delta;
    busySlots += Math.min(n.busy, n.slots);
    if (n.busy > n.slots) {
      overfull.put(n.id(), n);
    } else {
      overfull.remove(n.id());
    }
    if (delta > 0) {
      placedOn.computeIfAbsent(n.id(), k -> new HashSet<>()).add(taskId);
    } else {
      Set<String> ids = placedOn.get(n.id());
      if (ids != null) {
        ids.remove(taskId);
        if (ids.isEmpty()) {
          placedOn.remove(n.id());
        }
      }
    }
  }

  boolean isWithdrawing(String taskId) {
    return withdrawing.containsKey(taskId);
  }

  int withdrawsTo(String node) {
    return withdrawsTo.getOrDefault(node, 0);
  }

  int withdrawsFrom(String node) {
    int n = 0;
    for (String id : on(node)) {
      if (withdrawing.containsKey(id)) {
        n++;
      }
    }
    return n;
  }

  void markWithdrawing(String taskId, String forNode) {
    if (withdrawing.putIfAbsent(taskId, forNode) == null) {
      withdrawsTo.merge(forNode, 1, Integer::sum);
    }
  }

  void clearWithdrawing(String taskId) {
    String to = withdrawing.remove(taskId);
    if (to != null) {
      withdrawsTo.computeIfPresent(to, (k, v) -> v > 1 ? v - 1 : null);
    }
  }
}
