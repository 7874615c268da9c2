package io.locus.sim.metrics;

import io.locus.core.model.Task;
import io.locus.core.share.FairShare;
import io.locus.core.share.PoolCapacity;
import io.locus.core.share.QueueLedger;
import io.locus.core.share.QueueStanding;
import io.locus.core.share.QueueTree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures a run per queue of a queue tree (issue 24): how far each queue's slots are from the fair
 * share the core gives it, Jain's index, how long a queue owed its guarantee waits for it, and
 * per-queue response times and byte sources.
 *
 * <p>The recorder keeps its own {@link QueueLedger} over the tree, fed by the run's task events
 * (released, placed, ended, re-queued, cancelled), and asks the core's {@link FairShare} for the
 * shares of those loads. It does not read the scheduler's queue state, so a run whose scheduler
 * ignores the tree (the FIFO baseline) is measured against exactly the same fair shares as one
 * that dispatches by it. A task counts as running from its placement (the slot is taken then) to
 * its end, as the core counts slots.
 *
 * <p>Definitions, over virtual time, with S the pool's registered slots, r_q a queue's running
 * slots and f_q its fair share ({@link QueueStanding#fairShare()}), a queue <b>active</b> while it
 * has running or pending work:
 *
 * <ul>
 *   <li>the pool is <b>contended</b> while at least two queues are active. A queue alone owes no
 *       one: the slots it leaves idle (MCH waiting for a best holder) are its policy's choice, not
 *       unfairness, so shares are measured over contended time only;
 *   <li><b>share error</b> of q: |r_q − f_q| / S, averaged over the contended time while q is
 *       active; with it q's mean share r_q / S and mean fair share f_q / S over the same time;
 *   <li><b>Jain's index</b> (Jain, Chiu, Hawe 1984) of the ratios x_q = r_q / f_q over the active
 *       queues with a fair share above 0: (Σx)² / (n Σx²), 1 when every active queue holds the
 *       same fraction of its fair share; averaged over the contended time;
 *   <li><b>time to guarantee</b>: an episode begins when q has pending work and runs fewer slots
 *       than its effective guarantee ({@link QueueStanding#belowGuarantee()}), and ends when it
 *       no longer does (it reached its guarantee, or all its work runs). Only time with the state
 *       held counts: a queue served in the instant its work arrives was never starved.
 * </ul>
 */
public final class QueueRecorder {
  private final QueueTree tree;
  private final QueueLedger ledger;
  private final Map<String, Task> placed = new HashMap<>();
  private final Map<String, Acc> acc = new LinkedHashMap<>();
  private final GrowableDoubles jain = new GrowableDoubles();
  private final GrowableDoubles slots = new GrowableDoubles();
  private int nextSample;
  private double contended;
  private double jainIntegral;
  private double jainTime;
  private double jainMin = Double.NaN;

  /** Per leaf: integrals, episodes, responses, bytes, and its series. */
  private static final class Acc {
    double active;
    double contended;
    double shareInt;
    double fairInt;
    double errInt;
    int episodes;
    double firstStart = Double.NaN;
    double firstDuration = Double.NaN;
    double maxDuration;
    double starved;
    double openSince = Double.NaN;
    final GrowableDoubles responses = new GrowableDoubles();
    int completed;
    final long[] bytes = new long[3];
    long preempted;
    double lostSlotSeconds;
    final GrowableDoubles running = new GrowableDoubles();
    final GrowableDoubles fair = new GrowableDoubles();
  }

  public QueueRecorder(QueueTree tree) {
    this.tree = tree;
    this.ledger = new QueueLedger(tree);
  }

  public QueueTree tree() {
    return tree;
  }

  /** The leaf {@code task} runs in, or null when the tree has no such leaf (it is refused). */
  public String leafOf(Task task) {
    QueueTree.Resolution r = tree.resolve(task.queue());
    return r.ok() ? r.queue() : null;
  }

  /** Why the tree refuses {@code task}'s queue, or null when it has the leaf. */
  public String refusal(Task task) {
    return tree.resolve(task.queue()).refusal();
  }

  /** A task was released into the pool's queue. */
  public void queued(Task t) {
    ledger.queued(leaf(t), t.submitTime());
  }

  /** A queued task left the queue without being placed (cancelled). */
  public void unqueued(Task t) {
    ledger.unqueued(leaf(t), t.submitTime());
  }

  /** A task was placed: it holds a slot from now. */
  public void placed(Task t) {
    String leaf = leaf(t);
    if (placed.put(t.taskId(), t) != null) {
      throw new IllegalStateException("task " + t.taskId() + " placed twice");
    }
    ledger.started(leaf, t.submitTime(), null);
  }

  /**
   * A placed task's attempt ended for good (completed, failed, cancelled); nothing when the task
   * holds no slot here (the end was counted already).
   */
  public void ended(String taskId) {
    Task t = placed.remove(taskId);
    if (t != null) {
      ledger.ended(leaf(t), null);
    }
  }

  /** A placed task's attempt ended and the task waits to run again (a retry, a preemption). */
  public void requeued(String taskId) {
    Task t = placed.remove(taskId);
    if (t != null) {
      ledger.requeued(leaf(t), t.submitTime(), null);
    }
  }

  /**
   * A placed task's attempt was preempted: it goes back to pending (its response time runs on,
   * from its release), counted as preempted (not failed), its {@code lostSlotSeconds} of work
   * lost; nothing when the task holds no slot here.
   */
  public void preempted(String taskId, double lostSlotSeconds) {
    Task t = placed.get(taskId);
    if (t == null) {
      return;
    }
    requeued(taskId);
    Acc a = acc(leaf(t));
    a.preempted++;
    a.lostSlotSeconds += lostSlotSeconds;
  }

  /** The tasks holding a slot, by id (a copy: the caller may end them while iterating). */
  public List<String> placedIds() {
    return new ArrayList<>(placed.keySet());
  }

  /** A job completed {@code response} seconds after its release. */
  public void completed(Task t, double response) {
    Acc a = acc(leaf(t));
    a.responses.set(a.completed++, response);
  }

  /** One of {@code t}'s reads completed: {@code source} 0 local, 1 peer, 2 storage. */
  public void read(Task t, int source, long bytes) {
    acc(leaf(t)).bytes[source] += bytes;
  }

  /**
   * Time passes from {@code from} to {@code to} with the loads unchanged, on a pool of {@code
   * poolSlots} registered slots: integrates, samples the whole seconds in (from, to] (and 0 on the
   * first call), and opens or closes starvation episodes at {@code from}.
   */
  public void advance(double from, double to, int poolSlots) {
    FairShare share = null;
    if (nextSample <= to || to > from) {
      share = poolSlots > 0 ? ledger.share(PoolCapacity.slots(poolSlots), from) : null;
    }
    double j = share == null ? Double.NaN : jain(share);
    while (nextSample <= to) {
      sample(nextSample++, share, j, poolSlots);
    }
    if (to <= from || share == null) {
      return;
    }
    double dt = to - from;
    List<QueueStanding> active = new ArrayList<>();
    for (QueueStanding s : share.standings()) {
      if (!tree.isLeaf(s.queue())) {
        continue;
      }
      Acc a = acc.get(s.queue());
      if (a == null && s.running() + s.pending() == 0) {
        continue;
      }
      a = a == null ? acc(s.queue()) : a;
      episode(a, s.pending() > 0 && s.belowGuarantee(), from);
      if (s.running() + s.pending() > 0) {
        a.active += dt;
        active.add(s);
      }
    }
    if (active.size() < 2) {
      return; // one queue alone owes no one: what it leaves idle is its policy's choice
    }
    contended += dt;
    if (!Double.isNaN(j)) {
      jainIntegral += j * dt;
      jainMin = Double.isNaN(jainMin) ? j : Math.min(jainMin, j);
      jainTime += dt;
    }
    for (QueueStanding s : active) {
      Acc a = acc.get(s.queue());
      a.contended += dt;
      a.shareInt += s.running() / (double) poolSlots * dt;
      a.fairInt += s.fairShare() / poolSlots * dt;
      a.errInt += Math.abs(s.running() - s.fairShare()) / poolSlots * dt;
    }
  }

  private static void episode(Acc a, boolean starved, double at) {
    boolean open = !Double.isNaN(a.openSince);
    if (starved && !open) {
      a.openSince = at;
      a.episodes++;
      if (Double.isNaN(a.firstStart)) {
        a.firstStart = at;
      }
    } else if (!starved && open) {
      close(a, at);
    }
  }

  private static void close(Acc a, double at) {
    double d = at - a.openSince;
    if (Double.isNaN(a.firstDuration)) {
      a.firstDuration = d;
    }
    a.maxDuration = Math.max(a.maxDuration, d);
    a.starved += d;
    a.openSince = Double.NaN;
  }

  /** Jain's index over the active leaves with a positive fair share; NaN with fewer than two. */
  static double jain(FairShare share) {
    double sum = 0;
    double sumSq = 0;
    int n = 0;
    for (QueueStanding s : share.standings()) {
      if (!share.tree().isLeaf(s.queue()) || s.running() + s.pending() == 0
          || !(s.fairShare() > 0)) {
        continue;
      }
      double x = s.running() / s.fairShare();
      sum += x;
      sumSq += x * x;
      n++;
    }
    if (n < 2) {
      return Double.NaN;
    }
    return sumSq == 0 ? 0.0 : sum * sum / (n * sumSq);
  }

  private void sample(int k, FairShare share, double j, int poolSlots) {
    jain.set(k, j);
    slots.set(k, poolSlots);
    if (share == null) {
      return;
    }
    for (QueueStanding s : share.standings()) {
      if (!tree.isLeaf(s.queue())) {
        continue;
      }
      Acc a = acc.get(s.queue());
      if (a == null && s.running() + s.pending() == 0) {
        continue;
      }
      a = a == null ? acc(s.queue()) : a;
      a.running.set(k, s.running());
      a.fair.set(k, s.fairShare());
    }
  }

  /**
   * The measures, the run having ended at {@code end} (open episodes are closed there); {@code
   * refused} jobs named a queue the tree lacks, the first as {@code firstRefusal}.
   */
  public QueueMetrics result(double end, long refused, String firstRefusal) {
    List<QueueMetrics.Queue> out = new ArrayList<>();
    List<String> names = new ArrayList<>();
    int n = nextSample;
    List<double[]> running = new ArrayList<>();
    List<double[]> fair = new ArrayList<>();
    double errSum = 0;
    double errMax = 0;
    for (String leaf : tree.leaves()) {
      Acc a = acc.get(leaf);
      if (a == null) {
        continue;
      }
      boolean open = !Double.isNaN(a.openSince);
      if (open) {
        close(a, Math.max(end, a.openSince));
      }
      double[] resp = a.responses.toArray(a.completed);
      double mean = 0;
      for (double r : resp) {
        mean += r;
      }
      double err = a.contended > 0 ? a.errInt / a.contended : Double.NaN;
      if (!Double.isNaN(err)) {
        errSum += err;
        errMax = Math.max(errMax, err);
      }
      var spec = tree.spec(leaf);
      out.add(new QueueMetrics.Queue(leaf, spec.guaranteedSlots(), spec.weight(), a.active,
          a.contended, a.contended > 0 ? a.shareInt / a.contended : Double.NaN,
          a.contended > 0 ? a.fairInt / a.contended : Double.NaN, err, a.episodes, a.firstStart,
          a.firstDuration, a.episodes == 0 ? Double.NaN : a.maxDuration, a.starved, open,
          a.completed, a.completed == 0 ? Double.NaN : mean / a.completed,
          Percentiles.nearestRank(resp, 95), Percentiles.nearestRank(resp, 99),
          a.bytes.clone(), a.preempted, a.lostSlotSeconds));
      names.add(leaf);
      running.add(a.running.toArray(n));
      fair.add(a.fair.toArray(n));
    }
    int measured = (int) out.stream().filter(q -> !Double.isNaN(q.meanShareError())).count();
    QueueMetrics.QueueSeries series = new QueueMetrics.QueueSeries(names,
        running.toArray(new double[0][]), fair.toArray(new double[0][]), jain.toArray(n),
        slots.toArray(n));
    return new QueueMetrics(out, contended,
        jainTime > 0 ? jainIntegral / jainTime : Double.NaN, jainMin,
        measured > 0 ? errSum / measured : Double.NaN, measured > 0 ? errMax : Double.NaN,
        refused, firstRefusal, series);
  }

  private String leaf(Task t) {
    String leaf = leafOf(t);
    if (leaf == null) {
      throw new IllegalArgumentException(refusal(t));
    }
    return leaf;
  }

  private Acc acc(String leaf) {
    return acc.computeIfAbsent(leaf, k -> new Acc());
  }
}
