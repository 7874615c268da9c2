package io.locus.core.split;

import io.locus.core.model.Ids;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * CANCEL of an unfinished job ({@link SplitPolicy#cancelJob}). Every subjob of it that no agent
 * runs leaves the pool at once: queued ones (global, private, resume or suspended queues),
 * meta-subjob pieces, pieces derived from an unacknowledged stop, and held RUNs (their nodes,
 * which the model had taken, take other work). Each running subjob gets a {@link
 * SplitCommand.Cancel} and keeps its node until the agent reports its end; suspended subjobs
 * keep waiting for their acknowledgement. Neither is ever split, stopped or re-queued again
 * ({@link Subjob#frozen}), and the job never completes: it stays in {@link SplitState#cancelled}
 * only until the last of those answers ({@link SplitState#forgetIfDrained}).
 */
final class JobCancel {
  private JobCancel() {}

  static void cancel(JobState j, SplitState state, Primitives ops, CommandBuffer out) {
    PolicyHooks hooks = ops.hooks();
    hooks.jobCancelled(j); // its FIFO place, indexes and meta-subjobs
    j.cancelled = true;
    j.waiting = false;
    state.jobs.remove(j.id);
    state.cancelled.put(j.id, j);
    state.changes.job(j);
    List<Subjob> mine = new ArrayList<>();
    for (Subjob x : state.live.values()) {
      if (x.job == j) {
        mine.add(x);
      }
    }
    mine.sort(Comparator.comparingLong(x -> Entries.piece(x.id))); // creation order, as restored
    TreeMap<String, SplitNode> freed = new TreeMap<>(Ids.ORDER);
    for (Subjob x : mine) {
      if (x.node != null && !x.held()) {
        out.add(new SplitCommand.Cancel(x.node.id, x.id)); // runs until the agent answers
        continue;
      }
      if (x.node != null) { // a held RUN never reached the agent: the node is free at once
        freed.put(x.node.id, x.node);
        ops.unassign(x);
      } else if (x.queue != null) {
        x.queue.remove(x);
      }
      x.dead = true;
      state.live.remove(x.id);
      state.changes.subjob(x);
    }
    state.forgetIfDrained(j);
    for (SplitNode v : freed.values()) {
      if (v.idle()) {
        hooks.nodeAvailable(v);
      }
    }
  }

  /**
   * A subjob of a cancelled job ended on its node (the agent's answer to the CANCEL, or an end
   * that crossed it) having processed [start, processedUpTo): the data it read stays in the cache
   * model, nothing is credited or re-queued, and the node takes other work.
   */
  static void ended(Subjob x, long processedUpTo, SplitState state, ProgressModel model,
      Primitives ops) {
    SplitNode v = x.node;
    model.materialiseUpTo(x, processedUpTo);
    ops.unassign(x);
    x.dead = true;
    state.live.remove(x.id);
    state.changes.subjob(x);
    state.forgetIfDrained(x.job);
    if (v.idle()) {
      ops.hooks().nodeAvailable(v);
    }
  }

  /** The running subjob of a cancelled job was on a node that left: it is over. */
  static void lost(Subjob x, SplitState state, Primitives ops) {
    ops.unassign(x);
    x.dead = true;
    state.live.remove(x.id);
    state.changes.subjob(x);
    state.forgetIfDrained(x.job);
  }
}
