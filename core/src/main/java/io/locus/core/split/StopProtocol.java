package io.locus.core.split;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The acknowledgement protocol of spec §9 (see {@link SplitPolicy}'s class comment): SUSPEND and
 * SHRINK take effect at once at the model position, the remainder derives from the stopped subjob
 * and its RUNs are held; the agent's acknowledgement then moves the boundary to where it really
 * stopped, releases the held RUNs, and frees nodes whose derived piece vanished.
 */
final class StopProtocol {
  private final SplitState state;
  private final ProgressModel model;
  private final CommandBuffer out;
  private final Primitives ops;
  /** Nodes freed by acknowledgement corrections, to take work at the end of the input. */
  private final List<SplitNode> freed = new ArrayList<>();

  StopProtocol(SplitState state, ProgressModel model, CommandBuffer out, Primitives ops) {
    this.state = state;
    this.model = model;
    this.out = out;
    this.ops = ops;
  }

  /**
   * SUSPEND the subjob running on v at its model position (D26: the event in progress is lost).
   * Returns the remainder piece (live, not placed; it keeps the flags), or null when nothing
   * remains. A subjob whose RUN is in the output being built is simply taken back.
   */
  Subjob suspendRunning(SplitNode v) {
    Subjob y = v.running;
    if (y == null || y.frozen()) {
      throw new IllegalStateException("cannot suspend on " + v.id);
    }
    state.changes.subjob(y);
    if (y.outIndex >= 0) { // never reached the agent: the whole range is the remainder
      out.takeBack(y);
      ops.unassign(y);
      y.dispatch = Double.NaN;
      y.segments = List.of();
      return y;
    }
    long p = model.pos(y);
    model.materialiseUpTo(y, p);
    out.add(new SplitCommand.Suspend(v.id, y.id, p));
    ops.unassign(y);
    y.stop = new SubjobEntry.Stop(true, p, y.end);
    y.stoppedOn = v;
    state.live.remove(y.id);
    state.stopped.put(y.id, y);
    if (p >= y.end) {
      return null;
    }
    Subjob r = state.newPiece(y.job, p, y.end);
    r.copyFlags(y);
    r.awaitsAck = y.id;
    return r;
  }

  /**
   * SHRINK the subjob running on u to end at {@code newEnd} (lossless); returns the tail piece
   * [newEnd, old end) (live, not placed).
   */
  Subjob shrinkRunning(SplitNode u, long newEnd) {
    Subjob y = u.running;
    if (y == null || y.stop != null || (y.awaitsAck != null && y.outIndex < 0)) {
      throw new IllegalStateException("cannot shrink on " + u.id);
    }
    long p = model.pos(y);
    if (newEnd < p || newEnd >= y.end) {
      throw new IllegalStateException("cannot shrink " + y + " at " + p + " to " + newEnd);
    }
    long oldEnd = y.end;
    state.changes.subjob(y);
    Subjob tail = state.newPiece(y.job, newEnd, oldEnd);
    tail.copyFlags(y);
    if (y.outIndex >= 0) { // not seen by the agent yet: rewrite its RUN
      y.end = newEnd;
      ops.pin(y);
      out.run(y, y.held() ? y.awaitsAck : null);
      tail.awaitsAck = y.awaitsAck;
      return tail;
    }
    out.add(new SplitCommand.Shrink(u.id, y.id, newEnd));
    y.stop = new SubjobEntry.Stop(false, newEnd, oldEnd);
    y.end = newEnd;
    ops.pin(y);
    tail.awaitsAck = y.id;
    return tail;
  }

  /** Whether the stop of that subjob still waits for its acknowledgement. */
  boolean pending(String stoppedId) {
    if (state.stopped.containsKey(stoppedId)) {
      return true;
    }
    Subjob s = state.live.get(stoppedId);
    return s != null && s.stop != null;
  }

  /**
   * The agent stopped subjob {@code id} at {@code a}: corrects the stopped subjob and the pieces
   * derived from its stop, releases their held RUNs. Duplicate and unknown acknowledgements are
   * ignored.
   */
  void ack(String id, long a) {
    Subjob y = state.stopped.get(id);
    if (y == null) {
      y = state.live.get(id);
      if (y == null || y.stop == null) {
        return; // duplicate or unknown
      }
    }
    SubjobEntry.Stop s = y.stop;
    long lo = s.suspend() ? y.start : s.modelPos();
    if (a < lo || a > s.originalEnd()) {
      throw new IllegalArgumentException("acknowledgement of " + (s.suspend() ? "SUSPEND" : "SHRINK")
          + " of " + id + " at " + a + " is outside [" + lo + ", " + s.originalEnd() + "]"
          + (s.suspend() ? "" : " (a shrink cannot go back before the requested end)"));
    }
    long m = s.modelPos();
    state.changes.subjob(y);
    List<Subjob> ds = new ArrayList<>();
    for (Subjob d : state.live.values()) {
      if (id.equals(d.awaitsAck)) {
        ds.add(d);
        state.changes.subjob(d);
      }
    }
    ds.sort(Comparator.comparingLong(d -> d.start));
    if (s.suspend()) {
      correctCache(y, a, m);
    } else {
      y.end = a;
      if (y.node != null) {
        ops.pin(y);
      }
    }
    boolean refill = false;
    if (a > m) {
      for (Subjob d : ds) {
        if (d.start < a) {
          if (Math.min(a, d.end) >= d.end) {
            drop(d);
          } else {
            ops.setRange(d, a, d.end);
          }
        }
      }
    } else if (a < m) {
      Subjob head = null;
      for (Subjob d : ds) {
        if (d.start == m) {
          head = d;
        }
      }
      if (head != null) {
        ops.setRange(head, a, head.end);
      } else if (!y.job.cancelled) { // a cancelled job's events are not wanted any more
        Subjob r = state.newPiece(y.job, a, m);
        r.copyFlags(y);
        ops.hooks().requeue(r);
        refill = true;
      }
    }
    y.stop = null;
    if (s.suspend()) {
      y.stoppedOn = null;
      state.stopped.remove(id);
      ops.credit(y, a);
    }
    for (Subjob d : ds) {
      if (d.dead) {
        continue;
      }
      d.awaitsAck = null;
      if (d.node != null) {
        ops.pin(d);
        if (d.held()) {
          release(d);
        }
      }
    }
    if (s.suspend() && y.job.finished() && ops.unfinished(y.job)) {
      ops.complete(y.job);
    }
    state.forgetIfDrained(y.job);
    if (refill) {
      ops.fillIdle();
    }
  }

  /** A SUSPEND acknowledged at a, not at the model position m: the stopped node's cache follows. */
  private void correctCache(Subjob y, long a, long m) {
    if (a > m) {
      if (y.stoppedOn != null) {
        model.cacheOf(y.stoppedOn);
        model.materialiseOn(y, y.stoppedOn, y.materialised, a);
      }
      y.materialised = Math.max(y.materialised, a);
    } else if (a < m) {
      if (y.stoppedOn != null) {
        model.cacheOf(y.stoppedOn);
        model.uncache(y, y.stoppedOn, a, Math.min(m, y.materialised));
      }
      y.materialised = Math.min(y.materialised, a);
    }
  }

  /** A held RUN whose acknowledgement came: emitted with its corrected range. */
  private void release(Subjob d) {
    EventSpan was = d.segments.isEmpty() ? null
        : new EventSpan(d.segments.get(0).range().start(),
            d.segments.get(d.segments.size() - 1).range().end());
    if (was == null || was.start() != d.start || was.end() != d.end) {
      d.segments = model.segmentsFor(d.node, d.start, d.end, false, d.job);
    }
    d.dispatch = state.now;
    d.materialised = d.start;
    if (Double.isNaN(d.job.firstStart)) {
      d.job.firstStart = state.now;
    }
    state.changes.job(d.job);
    out.run(d, null);
  }

  /** A derived piece that became empty: it disappears; its node, if any, is freed. */
  private void drop(Subjob d) {
    d.dead = true;
    state.live.remove(d.id);
    state.changes.subjob(d);
    if (d.queue != null) {
      d.queue.remove(d);
    }
    if (d.node != null) {
      SplitNode v = d.node;
      if (d.outIndex >= 0) {
        out.takeBack(d);
      }
      ops.unassign(d);
      freed.add(v);
    }
  }

  /** Nodes freed by acknowledgement corrections take work. */
  void releaseFreed() {
    while (!freed.isEmpty()) {
      SplitNode v = freed.remove(0);
      if (state.nodes.get(v.id) == v && v.idle()) {
        ops.hooks().nodeAvailable(v);
      }
    }
  }

  /** Forgets the freed nodes of an input that threw. */
  void abort() {
    freed.clear();
  }
}
