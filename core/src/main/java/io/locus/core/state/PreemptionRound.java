package io.locus.core.state;

import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.ResourceVector;
import io.locus.core.model.Task;
import io.locus.core.share.FairShare;
import io.locus.core.share.PoolCapacity;
import io.locus.core.share.Preemption;
import io.locus.core.share.PreemptionPlan;
import io.locus.core.share.QueueLoad;
import io.locus.core.share.QueueStanding;
import io.locus.core.share.QueueTree;
import io.locus.core.share.RunningAttempt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One preemption round of a pool with queues (issue 24): {@link Preemption#plan} over the pool's
 * queues now, its victims marked preempting in the {@link PoolState} and returned as {@link
 * Command.Preempt} with the grace period. The scheduler runs it after each dispatch, so the
 * pool's inputs (arrivals, task ends, heartbeats) are its timer, and its time is the pool's record
 * clock: the same inputs give the same rounds after a restore.
 *
 * <p><b>Preemptions in flight.</b> An attempt being preempted still holds its slot until its node
 * answers PREEMPTED. The round counts its slot as freed already (its queue's running less one,
 * pending plus one, as it will be once the answer comes) and never takes it as a victim again,
 * so a claim is not paid twice while the grace period runs. The marks are in the pool state
 * (persisted through its journal), so a restored pool does not preempt again what it already
 * asked to stop.
 *
 * <p><b>Cheap when nothing is claimed.</b> The running attempts are looked at (their inputs'
 * holders, for the locality lost) only when some queue below its guarantee claims more than the
 * free slots: in the steady state a round costs one pass over the queues.
 *
 * <p>An agent that never answers: the attempt keeps its slot, as a cancelled one does, until its
 * node answers or is declared lost (missed heartbeats), when its work is re-queued as for any lost
 * node; it is not preempted again meanwhile.
 */
public final class PreemptionRound {
  private final Preemption preemption;

  /** @param graceSeconds how long a preempted process may take to stop before it is killed */
  public PreemptionRound(double graceSeconds) {
    this.preemption = new Preemption(graceSeconds);
  }

  public double graceSeconds() {
    return preemption.graceSeconds();
  }

  /**
   * One round over {@code state}'s queues, whose leaf loads (running attempts, preemptions in
   * flight included, and pending tasks) are {@code loads}: the preemptions to send, each attempt
   * already marked preempting in the state.
   */
  public List<Command.Preempt> run(PoolState state, QueueTree tree, PoolCapacity capacity,
      Map<String, QueueLoad> loads, double now) {
    FairShare share = FairShare.of(tree, capacity, afterInFlight(state, tree, loads), now);
    if (!claimsBeyondFree(share)) {
      return List.of();
    }
    PreemptionPlan plan = preemption.plan(share, candidates(state, tree));
    List<Command.Preempt> out = new ArrayList<>(plan.victims().size());
    for (PreemptionPlan.Victim v : plan.victims()) {
      RunningAttempt a = v.attempt();
      state.markPreempting(a.taskId());
      QueueStanding claimant = share.standing(v.forQueue());
      out.add(new Command.Preempt(a.node(), a.taskId(), a.attempt(), v.forQueue(),
          plan.graceSeconds(), "queue '" + v.forQueue() + "' is below its guarantee ("
          + claimant.running() + " running, guarantee " + fmt(claimant.guarantee()) + ", "
          + claimant.pending() + " pending); attempt of queue '" + a.queue() + "' preempted"));
    }
    return out;
  }

  /** The loads as they will be once every preemption in flight is answered. */
  private static Map<String, QueueLoad> afterInFlight(PoolState state, QueueTree tree,
      Map<String, QueueLoad> loads) {
    Set<String> inFlight = state.preempting();
    if (inFlight.isEmpty()) {
      return loads;
    }
    Map<String, QueueLoad> out = new LinkedHashMap<>(loads);
    for (String id : inFlight) { // id order: the same sums after a restore
      RunningTask r = state.running(id);
      String leaf = r == null ? null : leaf(tree, r.task());
      QueueLoad l = leaf == null ? null : out.get(leaf);
      if (l == null || l.running() == 0) {
        continue;
      }
      ResourceVector res = r.task().profile() == null ? l.resources()
          : l.resources().minus(r.task().profile());
      out.put(leaf, new QueueLoad(l.running() - 1, l.pending() + 1, res,
          Double.isNaN(l.oldestPendingSubmit()) ? r.task().submitTime()
              : Math.min(l.oldestPendingSubmit(), r.task().submitTime())));
    }
    return out;
  }

  /** Whether the leaves below their guarantee claim more slots than are free now. */
  private static boolean claimsBeyondFree(FairShare share) {
    int want = 0;
    for (String leaf : share.tree().leaves()) {
      QueueStanding s = share.standing(leaf);
      want += Math.max(0, Math.min(s.pending(),
          (int) Math.floor(s.guarantee() + 1e-9) - s.running()));
    }
    return want > Math.max(0, share.capacity().slots() - share.runningTotal());
  }

  /** The attempts that may be taken: placed, in a leaf, not being preempted or cancelled. */
  private static List<RunningAttempt> candidates(PoolState state, QueueTree tree) {
    List<RunningAttempt> out = new ArrayList<>();
    for (RunningTask r : state.running()) {
      String id = r.task().taskId();
      String leaf = leaf(tree, r.task());
      if (leaf == null || state.isPreempting(id) || state.isCancelling(id)) {
        continue;
      }
      out.add(new RunningAttempt(id, r.task().attempt(), leaf, r.task().priority(),
          r.startTime(), r.node(), bytesOnlyHere(state, r)));
    }
    return out; // the plan sorts them (a total order): the map's order does not matter
  }

  /** Bytes of the attempt's inputs cached on its node and on no other node. */
  private static long bytesOnlyHere(PoolState state, RunningTask r) {
    long bytes = 0;
    for (InputFile f : r.task().inputs()) {
      Set<String> holders = state.holders(f.id());
      if (holders.size() == 1 && holders.contains(r.node())) {
        bytes += f.bytes();
      }
    }
    return bytes;
  }

  /**
   * The task's leaf queue, as the pool's ledger counts it ({@link QueueBook#leafOf}: a queue the
   * tree no longer resolves counts in the default queue); null when even that is not a leaf.
   */
  private static String leaf(QueueTree tree, Task t) {
    QueueTree.Resolution r = tree.resolve(t.queue());
    if (r.ok()) {
      return r.queue();
    }
    return tree.contains(QueueTree.DEFAULT) && tree.isLeaf(QueueTree.DEFAULT) ? QueueTree.DEFAULT
        : null;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(java.util.Locale.ROOT, "%.2f", v);
  }
}
