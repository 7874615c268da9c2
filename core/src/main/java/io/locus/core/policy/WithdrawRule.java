package io.locus.core.policy;

import io.locus.core.model.Command;
import io.locus.core.model.Ids;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Comparator;

/**
 * Late binding's withdraw rule (issue 13 protocol), run after every dispatch round of a file
 * pool. A node may hold placed attempts beyond its slots in a local queue; when a round leaves a
 * slot free on node B while another node A holds an attempt that has not started, the attempt is
 * better off on B: it is withdrawn from A (a {@link Command.Withdraw}), and once A confirms
 * (WITHDRAWN) it goes back to the queue at its original position and the next round places it.
 *
 * <p>For each free slot of B (the free pool's first tier, in its order) not already covered by a
 * withdraw in flight: among the nodes A ≠ B with placements beyond their slots (not counting
 * those already being withdrawn), the one with the most (tie: lowest id) that holds an attempt
 * t, not started and not being withdrawn, with cached(t, B) ≥ cached(t, A) (B is at least as good
 * a holder, always so when nothing is cached); of A's such attempts, the most recently placed
 * (latest placement time, then latest queue position). Deterministic: it reads only the state.
 *
 * <p>With queueDepth 0 on every node no node is ever beyond its slots and the rule does nothing.
 */
public final class WithdrawRule {
  /** A node with placements beyond its slots, and how many of them can still be withdrawn. */
  private record Over(NodeView node, int excess) {}

  /** The most placements beyond the slots first; tie: lowest id. */
  private static final Comparator<Over> ORDER = (p, q) -> p.excess() != q.excess()
      ? Integer.compare(q.excess(), p.excess()) : Ids.compare(p.node().id(), q.node().id());

  private WithdrawRule() {}

  /**
   * Emits the withdraws the state calls for into the round's commands, marking them in flight.
   * The overfull nodes are ordered once per round (a heap), not once per free slot: with a
   * thousand overfull nodes and as many free slots (exactly-once delivery frees slots in bursts),
   * re-sorting per slot made a round cost O(n² log n) and stalled the pool.
   */
  public static void apply(Dispatch d) {
    PoolState s = d.state();
    if (s.overfull().isEmpty() || s.freeSlotPool().isEmpty()) {
      return;
    }
    PriorityQueue<Over> from = null;
    for (NodeView b : new ArrayList<>(s.freeSlotPool())) {
      int want = b.freeSlots() - s.withdrawsTo(b.id());
      if (want <= 0) {
        continue;
      }
      if (from == null) {
        from = sources(s);
      }
      while (want > 0 && !from.isEmpty()) {
        RunningTask t = candidate(s, b, from);
        if (t == null) {
          break;
        }
        s.markWithdrawing(t.task().taskId(), b.id());
        d.emit(new Command.Withdraw(t.node(), t.task().taskId(), t.task().attempt(), b.id(),
            "a slot is free on " + b.id()));
        want--;
      }
      if (from.isEmpty()) {
        return;
      }
    }
  }

  private static PriorityQueue<Over> sources(PoolState s) {
    PriorityQueue<Over> from = new PriorityQueue<>(ORDER);
    for (NodeView a : s.overfull()) {
      int x = a.beyondSlots() - s.withdrawsFrom(a.id());
      if (x > 0) {
        from.add(new Over(a, x));
      }
    }
    return from;
  }

  /**
   * The attempt to withdraw for a free slot of {@code b}, or null: from the first source in
   * {@link #ORDER} (other than b) holding an attempt not started, not being withdrawn, with
   * cached(t, b) ≥ cached(t, a); that source's excess drops by one.
   */
  static RunningTask candidate(PoolState s, NodeView b, PriorityQueue<Over> from) {
    List<Over> passed = new ArrayList<>();
    RunningTask found = null;
    while (!from.isEmpty()) {
      Over o = from.poll();
      NodeView a = o.node();
      RunningTask best = null;
      if (a != b) {
        for (RunningTask r : s.placedOn(a.id())) {
          if (r.started() || s.isWithdrawing(r.task().taskId())
              || s.cached(r.task(), b) < s.cached(r.task(), a)) {
            continue;
          }
          if (best == null || later(r, best)) {
            best = r;
          }
        }
      }
      if (best != null) {
        found = best;
        if (o.excess() > 1) {
          from.add(new Over(a, o.excess() - 1));
        }
        break;
      }
      passed.add(o); // nothing for b here; it may serve another free node
    }
    from.addAll(passed);
    return found;
  }

  /** The attempt to withdraw for a free slot of {@code b}, or null (one-off, for tests). */
  static RunningTask candidate(PoolState s, NodeView b) {
    return candidate(s, b, sources(s));
  }

  private static boolean later(RunningTask r, RunningTask than) {
    return r.startTime() != than.startTime() ? r.startTime() > than.startTime()
        : r.task().seq() > than.task().seq();
  }
}
