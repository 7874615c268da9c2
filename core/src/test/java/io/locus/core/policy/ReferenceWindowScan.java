package io.locus.core.policy;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference for {@link DataAwareDispatch}: the literal window scan of spec §2.2, as it was
 * before the queue index (every decision walks the first W queued tasks, computing cached and
 * maxCached for each). Kept in test code so the indexed path can be checked against it decision by decision.
 */
final class ReferenceWindowScan implements Policy {
  private final String name;
  private final int window;
  private final double theta;

  /** {@code name} is MCU, MCH or GCC; θ is used by GCC only. */
  ReferenceWindowScan(String name, int window, double theta) {
    this.name = name;
    this.window = window;
    this.theta = theta;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void dispatch(Dispatch d) {
    PoolState s = d.state();
    while (s.queueLength() > 0 && s.firstFree() != null) {
      DataAwareDispatch.Mode mode = switch (name) {
        case "MCU" -> DataAwareDispatch.Mode.MCU;
        case "MCH" -> DataAwareDispatch.Mode.MCH;
        default -> s.utilization() < theta ? DataAwareDispatch.Mode.MCU
            : DataAwareDispatch.Mode.MCH;
      };
      NodeView e = notifyTarget(s, mode, window);
      if (e == null) {
        return;
      }
      List<Task> batch = selectTasks(s, e, mode, e.freeSlots(), window);
      if (batch.isEmpty()) {
        throw new IllegalStateException("no task selected for notified node " + e.id());
      }
      String label = name.equals(mode.name()) ? name : name + "/" + mode.name();
      for (Task t : batch) {
        d.place(t, e, label, true);
      }
    }
  }

  static NodeView notifyTarget(PoolState s, DataAwareDispatch.Mode mode, int window) {
    int seen = 0;
    for (Task t : s.queue()) {
      if (seen++ == window) {
        break;
      }
      if (mode == DataAwareDispatch.Mode.MCU) {
        NodeView best = bestFreeHolder(s, t, -1);
        return best != null ? best : s.firstFree();
      }
      long max = s.maxCached(t);
      if (max == 0) {
        return s.firstFree(); // nobody caches any of its data: every executor qualifies
      }
      NodeView best = bestFreeHolder(s, t, max);
      if (best != null) {
        return best;
      }
      // t's best holders are all busy: defer it, look at the next task (spec D6)
    }
    return null;
  }

  /**
   * Among free nodes caching some of t's data: the one with the most cached bytes (or, when
   * {@code required} ≥ 0, the first with exactly that many), ties to the free-pool order.
   * Visits only t's holders, not the whole pool.
   */
  private static NodeView bestFreeHolder(PoolState s, Task t, long required) {
    NodeView best = null;
    long bestBytes = 0;
    for (InputFile u : t.inputs()) {
      for (String id : s.holders(u.id())) {
        NodeView n = s.node(id);
        if (n == null || n.freeSlots() == 0 || n.draining()) {
          continue;
        }
        long c = s.cached(t, n);
        boolean eligible = required < 0 ? c > 0 : c == required;
        if (!eligible) {
          continue;
        }
        if (best == null || (required < 0 && c > bestBytes)
            || (c == bestBytes && n.freeSeq() < best.freeSeq())) {
          best = n;
          bestBytes = c;
        }
      }
    }
    return best;
  }

  /**
   * Part 2: the m window tasks with the highest local hit fraction on e, ties in queue order (a
   * stable sort by hit, descending). MCH considers only tasks for which e is a best holder.
   * Priority first: a stable sort by (priority, hit), both descending (docs/policies.md,
   * "Priority"); the queue itself is in priority order.
   */
  static List<Task> selectTasks(PoolState s, NodeView e, DataAwareDispatch.Mode mode, int m,
      int window) {
    List<Task> top = new ArrayList<>(m + 1);
    List<Double> topHit = new ArrayList<>(m + 1);
    int seen = 0;
    int fullHits = 0;
    for (Task t : s.queue()) {
      if (seen++ == window || fullHits == m) {
        break; // m tasks with 100 % hits in FIFO order cannot be beaten
      }
      long cached = s.cached(t, e);
      if (mode == DataAwareDispatch.Mode.MCH && cached != s.maxCached(t)) {
        continue;
      }
      long bytes = t.totalBytes();
      double hit = bytes == 0 ? 1.0 : (double) cached / bytes;
      // insert after every task of higher priority or of equal priority and a hit ≥ this one
      // (keeps queue order among equals)
      int pos = top.size();
      while (pos > 0 && (top.get(pos - 1).priority() < t.priority()
          || (top.get(pos - 1).priority() == t.priority() && topHit.get(pos - 1) < hit))) {
        pos--;
      }
      if (pos < m) {
        top.add(pos, t);
        topHit.add(pos, hit);
        if (top.size() > m) {
          top.remove(m);
          topHit.remove(m);
        }
        if (hit >= 1.0) {
          fullHits++;
        }
      }
    }
    return top;
  }
}
