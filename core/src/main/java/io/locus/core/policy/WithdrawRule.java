package io.locus.core.policy;

import io.locus.core.model.Command;
import io.locus.core.model.Ids;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import io.locus.core.model.InputFile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

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
    Set<String> relevant = null;
    // Cache signatures for which the sources hold no candidate, valid until a withdraw changes
    // the sources: free nodes that hold the same of the attempts' files are the same to the rule.
    Set<List<String>> fruitless = new HashSet<>();
    for (NodeView b : new ArrayList<>(s.freeSlotPool())) {
      int want = b.freeSlots() - s.withdrawsTo(b.id());
      if (want <= 0) {
        continue;
      }
      if (from == null) {
        from = sources(s);
        relevant = relevantFiles(s);
      }
      while (want > 0 && !from.isEmpty()) {
        List<String> sig = signature(b, relevant);
        if (fruitless.contains(sig)) {
          break;
        }
        RunningTask t = candidate(s, b, from);
        if (t == null) {
          fruitless.add(sig);
          break;
        }
        fruitless.clear();
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

  /**
   * The input files of every attempt the rule could withdraw (placed beyond some node's slots,
   * not started, not being withdrawn): {@code cached(t, b)} for those attempts depends only on
   * which of these files b holds. A superset is harmless (it only splits classes further).
   */
  private static Set<String> relevantFiles(PoolState s) {
    Set<String> files = new HashSet<>();
    for (NodeView a : s.overfull()) {
      for (RunningTask r : s.placedOn(a.id())) {
        if (!r.started() && !s.isWithdrawing(r.task().taskId())
            && !s.isCancelling(r.task().taskId())) {
          for (InputFile u : r.task().inputs()) {
            files.add(u.id());
          }
        }
      }
    }
    return files;
  }

  /**
   * What the rule can see of free node {@code b}: the relevant files it holds (sorted), and its
   * id when it is itself a source (a source is never its own target). Two free nodes with equal
   * signatures get the same {@link #candidate} answer from the same sources.
   *
   * <p>Issue 22: without this, a round in which many free nodes (holding none of the queued
   * attempts' data, so no attempt qualifies) met a thousand overfull nodes re-scanned every
   * source's attempts once per free node: about 800,000 cache lookups per task event, which cut
   * the demo at 1,000 nodes to ~20 events/s and stalled it.
   */
  private static List<String> signature(NodeView b, Set<String> relevant) {
    List<String> held = new ArrayList<>();
    Map<String, Long> cache = b.cached();
    if (cache.size() < relevant.size()) {
      for (String f : cache.keySet()) {
        if (relevant.contains(f)) {
          held.add(f);
        }
      }
    } else {
      for (String f : relevant) {
        if (cache.containsKey(f)) {
          held.add(f);
        }
      }
    }
    Collections.sort(held);
    if (b.beyondSlots() > 0) {
      held.add(0, "\u0000source:" + b.id());
    }
    return held;
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
              || s.isCancelling(r.task().taskId())
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

  /** {@link #sources} for the equivalence test of the skip (LateBindingTest). */
  static PriorityQueue<?> sourcesForTest(PoolState s) {
    return sources(s);
  }

  /** {@link #candidate} for the equivalence test of the skip (LateBindingTest). */
  @SuppressWarnings("unchecked")
  static RunningTask candidateForTest(PoolState s, NodeView b, PriorityQueue<?> from) {
    return candidate(s, b, (PriorityQueue<Over>) from);
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
