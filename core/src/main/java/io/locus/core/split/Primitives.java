package io.locus.core.split;

import java.util.Collection;
import java.util.List;

/**
 * What the policies decide with: the pool's state, the progress model, and the primitives that
 * change the state and emit commands (RUN, and through {@link StopProtocol} SUSPEND and SHRINK),
 * keeping the bookkeeping (job counters, pins, slots) consistent. A policy ({@link PolicyHooks})
 * only chooses; everything it changes goes through here.
 */
final class Primitives {
  final SplitState state;
  final ProgressModel model;
  final SplitParams params;
  final EventCosts costs;
  /** MIN, the minimal subjob size (D8). */
  final long min;
  private final CommandBuffer out;
  private StopProtocol stops;
  private PolicyHooks hooks;

  Primitives(SplitState state, ProgressModel model, CommandBuffer out) {
    this.state = state;
    this.model = model;
    this.out = out;
    this.params = state.params;
    this.costs = params.costs();
    this.min = params.min();
  }

  /** Completes the wiring (the protocol and the policy need this object to be built). */
  void wire(StopProtocol stops, PolicyHooks hooks) {
    this.stops = stops;
    this.hooks = hooks;
  }

  PolicyHooks hooks() {
    return hooks;
  }

  double now() {
    return state.now;
  }

  Collection<SplitNode> nodes() {
    return state.nodes.values();
  }

  SplitNode node(String id) {
    return state.nodes.get(id);
  }

  /** Whether j is still in the pool (not finished). */
  boolean unfinished(JobState j) {
    return state.jobs.containsKey(j.id);
  }

  /** A node joining: idle, with an empty cache that the coverage index follows. */
  SplitNode newNode(String id) {
    SplitNode v = new SplitNode(id, params.caching() ? params.cacheEvents() : 0,
        model.queueBacklog() ? model : null, state.changes);
    v.cache.listener(state.index.listenerFor(id));
    state.nodes.put(id, v);
    state.changes.node(v);
    return v;
  }

  Subjob newPiece(JobState j, long start, long end) {
    return state.newPiece(j, start, end);
  }

  List<SplitNode> idleNodes() {
    return state.idleNodes();
  }

  /** FILL_IDLE: idle nodes by ascending id take work, until nothing changes. */
  void fillIdle() {
    boolean changed = true;
    while (changed) {
      changed = false;
      for (SplitNode v : state.nodes.values()) {
        if (v.idle()) {
          hooks.nodeAvailable(v);
          changed |= !v.idle();
        }
      }
    }
  }

  /** RUN x on v: fixes its per-event costs from the current caches and pins its range. */
  void run(Subjob x, SplitNode v) {
    if (v.running != null) {
      throw new IllegalStateException(v.id + " is busy with " + v.running.id);
    }
    if (x.queue != null) {
      x.queue.remove(x);
    }
    if (x.node != null || x.dead) {
      throw new IllegalStateException(x.id + " cannot be run");
    }
    boolean held = x.awaitsAck != null && stops.pending(x.awaitsAck);
    if (!held) {
      x.awaitsAck = null;
    }
    x.node = v;
    v.running = x;
    pin(x);
    x.segments = model.segmentsFor(v, x.start, x.end, true, x.job);
    x.materialised = x.start;
    x.dispatch = held ? Double.NaN : state.now;
    x.job.active++;
    if (!held && Double.isNaN(x.job.firstStart)) {
      x.job.firstStart = state.now;
    }
    if (x.priority) {
      x.job.priority = true;
    }
    state.changes.subjob(x);
    state.changes.job(x.job);
    out.run(x, held ? x.awaitsAck : null);
  }

  /** SUSPEND the subjob running on v; see {@link StopProtocol#suspendRunning}. */
  Subjob suspendRunning(SplitNode v) {
    return stops.suspendRunning(v);
  }

  /** SHRINK the subjob running on u to end at newEnd; see {@link StopProtocol#shrinkRunning}. */
  Subjob shrinkRunning(SplitNode u, long newEnd) {
    return stops.shrinkRunning(u, newEnd);
  }

  /** Changes a subjob's range, keeping the index of the queue it is in consistent. */
  void setRange(Subjob x, long start, long end) {
    SubjobQueue q = x.queue;
    if (q != null) {
      q.unindex(x);
    }
    x.start = start;
    x.end = end;
    state.changes.subjob(x);
    if (q != null) {
      q.reindex(x);
    }
  }

  /** Protects x's range on its node from eviction (the running subjob's pin, §3.1). */
  void pin(Subjob x) {
    if (params.caching()) {
      x.node.cache.pin(x.start, x.end);
    }
  }

  /** Takes x off its node (the node becomes idle). */
  void unassign(Subjob x) {
    SplitNode v = x.node;
    if (v != null) {
      v.running = null;
      v.cache.unpin();
      x.node = null;
      x.job.active--;
      state.changes.subjob(x);
    }
  }

  /** Counts [x.start, upTo) as processed by x. */
  void credit(Subjob x, long upTo) {
    if (upTo <= x.start) {
      return;
    }
    JobState j = x.job;
    for (CostSegment s : x.segments) {
      long a = Math.max(x.start, s.range().start());
      long b = Math.min(upTo, s.range().end());
      if (a < b) {
        switch (s.source()) {
          case LOCAL -> j.local += b - a;
          case REMOTE -> j.remote += b - a;
          case TAPE -> j.tape += b - a;
          default -> throw new IllegalStateException();
        }
      }
    }
    j.done += upTo - x.start;
    j.subjobsRun++;
    j.lastEnd = state.now;
    state.changes.job(j);
    if (j.done > j.events.length()) {
      throw new IllegalStateException("job " + j.id + " processed more events than it has");
    }
  }

  /** k is done: it leaves the pool and the policy's structures. */
  void complete(JobState k) {
    state.complete(k);
    hooks.jobFinished(k);
  }
}
