package io.locus.core.policy;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.staging.Ect;
import io.locus.core.staging.EctPlanner;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import io.locus.core.state.StagingState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * EFT (earliest estimated finish): Locus's own policy (issue 16). A task goes where it is estimated
 * to finish first, counting the wait for the node, the bytes to move priced by where they come from,
 * and the compute; waiting for a node that holds the data is allowed, but never longer than the
 * transfer time the wait saves. It runs in both cache models the pools have:
 *
 * <ul>
 *   <li><b>Scheduler-staged caches</b> (the Khanna model: one slot per node, the scheduler stages
 *       files over the storage nodes' Gantt charts). An arriving job is mapped to the node with
 *       the earliest estimated finish: ready_k counts each file the node's queue will fetch once
 *       (MCT counts it for every queued job that reads it), and, unlike MCT's nominal transfer
 *       times (D19), the job's own missing files are planned on the storage nodes' charts from
 *       ready_k on, so a transfer is priced with the queue it will meet; the storage time the
 *       choice adds is charged once per job waiting in the pool (the delay it can cause them).
 *       Each idle node then runs the min-ECT job of its queue with Gantt staging and VALUE
 *       eviction, the stage 2 shared with MET, MCT and SA.
 *   <li><b>Agent caches</b> (data diffusion: executors cache what they read and report it). First,
 *       every task whose best holder (most bytes cached) can take it now goes there (MCH's rule,
 *       decided on the pool's dispatch index). When every window task's best holders are busy,
 *       the queue head waits for them at most D = the time its cached bytes save: the bytes its
 *       best holder has and the free node lacks, times (1 / peer rate − 1 / local rate). Once it
 *       has waited D since submission it goes to the free node holding most of its data (MCU's
 *       rule for the head), which reads them from a peer; it goes at once when no best holder is
 *       forecast to have a slot before that deadline (waiting could not pay). The peer rate is
 *       the NIC shared by the mean number of busy slots per node, so D grows with utilisation:
 *       at low load the head
 *       hardly waits (MCU), near saturation it waits for its data (MCH), the delay-scheduling
 *       lesson with the delay set by what it saves instead of a tuned constant.
 * </ul>
 *
 * <p>Which model a pool has: parameter {@code caches} = {@code staged} | {@code agent} | {@code
 * auto} (default). Auto picks staged when every registered node has one slot and no local queue
 * (the Khanna model's one job per node), else agent, at every dispatch from the registered nodes
 * only: a staging state left from an earlier picture of the pool does not decide it, so a pool
 * rebuilt from its journal (which may not have one) decides the same. Deterministic: only the
 * event time and the pool state enter a decision.
 *
 * <p>Priority (docs/policies.md, "Priority"): the queue is in priority order, so the head is the
 * highest-priority task. Agent caches: the MCH step places the highest-priority task that has a
 * free best holder, and on each holder higher priority before more hits; a lower-priority task may
 * take a free node while a higher-priority head waits for its holders, but once the head's wait is
 * over (deadline passed, or no holder forecast in time) the head takes the free node first. Staged
 * caches: arrivals are mapped in queue order, and an idle node starts the min-ECT job among the
 * highest-priority jobs of its queue (the commit order across idle nodes is priority first, then
 * ECT), as MET, MCT and SA do.
 */
public final class EarliestFinish extends GanttStaging implements ChoosesPerTask {
  /** Data-diffusion spec §1 table: 1 Gb/s NIC per node. */
  public static final double DEFAULT_NIC_GBPS = 1.0;
  /** Data-diffusion spec §1 table: local disk read 1.1875 Gb/s per node. */
  public static final double DEFAULT_DISK_GBPS = 1.1875;

  /** The cache model of the pool. */
  public enum Caches {
    AUTO,
    STAGED,
    AGENT
  }

  private final int window;
  private final double nicBytesPerSecond;
  private final double diskBytesPerSecond;
  private final Caches caches;
  private final EctPlanner ectPlanner;

  public EarliestFinish(CostModel cost, int window, double nicGbps, double diskGbps,
      Caches caches) {
    super(cost);
    if (window < 1) {
      throw new IllegalArgumentException("window must be ≥ 1, got " + window);
    }
    if (!(nicGbps > 0) || !Double.isFinite(nicGbps)) {
      throw new IllegalArgumentException("parameter nicGbps must be a finite number > 0, got "
          + nicGbps);
    }
    if (!(diskGbps > 0) || !Double.isFinite(diskGbps)) {
      throw new IllegalArgumentException("parameter diskGbps must be a finite number > 0, got "
          + diskGbps);
    }
    if (caches == null) {
      throw new IllegalArgumentException("caches must be given");
    }
    this.window = window;
    this.nicBytesPerSecond = nicGbps * 1e9 / 8;
    this.diskBytesPerSecond = diskGbps * 1e9 / 8;
    this.caches = caches;
    this.ectPlanner = new EctPlanner(cost);
  }

  /** {@code caches} parameter: auto, staged or agent (any case). */
  public static Caches caches(String v) {
    if (v == null) {
      return Caches.AUTO;
    }
    try {
      return Caches.valueOf(v.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("parameter caches must be auto, staged or agent, got '"
          + v + "'");
    }
  }

  @Override
  public String name() {
    return "EFT";
  }

  /** Whether this dispatch uses the scheduler-staged model (see the class comment). */
  boolean staged(PoolState s) {
    return switch (caches) {
      case STAGED -> true;
      case AGENT -> false;
      case AUTO -> oneJobPerNode(s);
    };
  }

  private static boolean oneJobPerNode(PoolState s) {
    if (s.nodes().isEmpty()) {
      return false;
    }
    for (NodeView n : s.nodes()) {
      if (n.slots() != 1 || n.queueDepth() != 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void dispatch(Dispatch d) {
    PoolState s = d.state();
    if (staged(s)) {
      if (caches == Caches.AUTO && !s.hasStaging() && s.queueLength() == 0) {
        // nothing to place: do not create the staging state on a passing picture of the pool
        // (the first of several nodes registering); a restored pool would not have it
        return;
      }
      super.dispatch(d);
    } else {
      dispatchAgentCaches(d);
    }
  }

  // ------------------------------------------------------------- scheduler-staged caches

  /**
   * The node with the least price = ECT(j, k, ready_k) + moved_k × others.
   *
   * <p>ready_k is when k can start j: its running job's planned completion (at least now), plus
   * its queued jobs' read and compute, plus the transfers of the files they miss, each file
   * counted once: a file two queued jobs read is fetched by the first and local for the second.
   * (MCT's ready_k, §2.5, prices every queued job's missing files anew, which overstates the
   * backlog of exactly the node whose queue shares data, and so sends the next job of a cluster
   * away from its data.) ECT then plans j's own missing files on the storage nodes' Gantt charts
   * from ready_k on, counting the files the queue brings as local, so a transfer is priced with
   * the queue its storage node has.
   *
   * <p>moved_k × others is what the choice costs the other jobs: moved_k is the nominal storage
   * time of j's transfers on k (Σ size / RBW), and others the jobs waiting in the pool besides j.
   * Storage nodes serve one transfer at a time and ingress takes one file at a time, so every
   * second of transfer j adds can delay each waiting job by up to that second; we charge it at
   * that bound. With nobody waiting the rule is the job's own earliest finish (MCT-like, good at
   * low load); with a backlog, moving data is priced high and jobs stay where their data is
   * (MET-like, what wins in overload and with many nodes). No constant is tuned: the weight is
   * a count the pool has. Ties to the lowest id (nodes come lowest id first; strict comparison).
   */
  @Override
  NodeView map(Dispatch d, StagingState st, Task t, List<NodeView> nodes) {
    NodeView best = null;
    double bestFinish = 0;
    int others = Math.max(0, d.state().queueLength() - 1); // queued and mapped, not running
    for (NodeView n : nodes) {
      Predicate<String> local = StagingRules.local(st, n, true);
      Set<String> coming = new HashSet<>();
      double ready = d.now();
      if (n.busy() > 0) {
        double planned = st.plannedCompletion(n.id());
        if (!Double.isNaN(planned)) {
          ready = Math.max(ready, planned);
        }
      }
      long fetch = 0;
      for (Task q : st.queue(n.id())) {
        ready += cost.readComputeSeconds(q.totalBytes());
        for (InputFile u : q.inputs()) {
          if (!local.test(u.id()) && coming.add(u.id())) {
            fetch += u.bytes();
          }
        }
      }
      ready += cost.transferSeconds(fetch);
      Ect e = ectPlanner.ect(t, ready, f -> local.test(f) || coming.contains(f), st::chart);
      double moved = 0;
      for (var p : e.plan()) {
        moved += cost.transferSeconds(p.unit().bytes());
      }
      double price = e.completion() + moved * others;
      if (best == null || price < bestFinish) {
        best = n;
        bestFinish = price;
      }
    }
    return best;
  }

  /**
   * Staged caches: MET's wait for the mapped node. Agent caches: a window task waits for a best
   * holder as under MCH; the head only until its deadline (submission + D), and only while a best
   * holder is forecast to have a slot before it ({@link #headWaits}'s rule).
   */
  @Override
  public Waits waits(PoolState s, double now) {
    if (staged(s)) {
      return khannaWaits(s, now, "EFT (staged caches) mapped it to this node for good");
    }
    String rule = "EFT runs a task on a best holder while one is forecast in time";
    return new Waits() {
      @Override
      public DataWait dataWait(Task t, int position) {
        if (position >= window) {
          return null;
        }
        DataWait w = DataWaits.bestHolder(s, t, now, rule);
        if (w == null || position > 0) {
          return w;
        }
        NodeView e = DataAwareDispatch.notifyTarget(s, DataAwareDispatch.Mode.MCU, window);
        double deadline = t.submitTime() + localityWait(s, t, e);
        if (now >= deadline || holderFreeAt(s, t, now) >= deadline) {
          return null; // the head goes to a free node at the next dispatch
        }
        return new DataWait(w.node(), deadline, Math.max(0, s.maxCached(t) - s.cached(t, e)),
            "EFT waits for a best holder at most the transfer time the wait saves");
      }
    };
  }

  // ------------------------------------------------------------- agent caches

  /**
   * Agent caches only (staged caches map jobs on arrival: null, the pool keeps EFT's own order):
   * a best holder that can take the task now; else MCU's node for it when no best holder is
   * forecast to have a slot within D(t, e) (waiting could not pay); else a wait of D for the
   * holder, which the pool's queues bound further ({@link io.locus.core.share.LocalityWait}).
   */
  @Override
  public TaskChooser chooser(PoolState s, double now) {
    if (staged(s)) {
      return null;
    }
    TaskChooser mch = PerTaskChoices.mch(s, now, name(), "EFT runs a task on a best holder while"
        + " one is forecast in time");
    return new TaskChooser() {
      @Override
      public Choice choose(Task t) {
        Choice c = mch.choose(t);
        if (c.dataWait() == null) {
          return c;
        }
        NodeView e = mch.now(t);
        double d = localityWait(s, t, e);
        if (d <= 0 || holderFreeAt(s, t, now) >= now + d) {
          return Choice.go(e);
        }
        return Choice.hold(c.dataWait(), d);
      }

      @Override
      public NodeView now(Task t) {
        return mch.now(t);
      }

      @Override
      public String label() {
        return name();
      }

      @Override
      public boolean caching() {
        return true;
      }
    };
  }

  private void dispatchAgentCaches(Dispatch d) {
    PoolState s = d.state();
    while (s.queueLength() > 0 && s.firstFree() != null) {
      NodeView holder = DataAwareDispatch.notifyTarget(s, DataAwareDispatch.Mode.MCH, window);
      if (holder != null) {
        List<Task> batch = DataAwareDispatch.selectTasks(s, holder, DataAwareDispatch.Mode.MCH,
            holder.placeable(), window);
        if (batch.isEmpty()) {
          throw new IllegalStateException("no task selected for notified node " + holder.id());
        }
        Task head = s.queue().iterator().next();
        if (batch.get(0).priority() < head.priority()) {
          // a lower-priority task would take a slot while the head waits for its holders: once
          // the head's wait is over it goes first (at one priority this never applies)
          NodeView e = DataAwareDispatch.notifyTarget(s, DataAwareDispatch.Mode.MCU, window);
          if (!headWaits(d, s, head, e)) {
            d.place(head, e, name() + "/FAR", true);
            continue;
          }
        }
        for (Task t : batch) {
          d.place(t, holder, name(), true);
        }
        continue;
      }
      // every window task's best holders are busy: only the head may give up its locality
      Task head = s.queue().iterator().next();
      NodeView e = DataAwareDispatch.notifyTarget(s, DataAwareDispatch.Mode.MCU, window);
      if (headWaits(d, s, head, e)) {
        return; // a holder's completion (or a later event) dispatches again
      }
      d.place(head, e, name() + "/FAR", true);
    }
  }

  /**
   * Whether the queue head keeps waiting for a best holder rather than go to {@code e} now: its
   * deadline (submission + D) is ahead and a best holder is forecast to have a slot before it.
   */
  private boolean headWaits(Dispatch d, PoolState s, Task head, NodeView e) {
    double deadline = head.submitTime() + localityWait(s, head, e);
    return d.now() < deadline && holderFreeAt(s, head, d.now()) < deadline;
  }

  /**
   * When a best holder of t (a node holding maxCached(t) of its bytes, not draining) is expected
   * to have a slot for it: for each, the completion of its (attempts − slots + 1)-th attempt to
   * end, each attempt estimated as its placement time plus its input bytes at the local disk rate
   * plus its compute. That is a lower bound (reads from a peer or storage are slower, and an
   * attempt in the node's local queue starts later), so the head gives up waiting only when even
   * the holder's most optimistic forecast misses its deadline: waiting could not pay, and going
   * now is better than going at the deadline (a BLAST-shaped run showed the difference: every
   * task that waited out D left together, and all of them read the database from its one
   * holder). An attempt past its estimate counts as ending now. Infinity when no node holds any
   * of t's bytes.
   */
  double holderFreeAt(PoolState s, Task t, double now) {
    long most = s.maxCached(t);
    if (most == 0) {
      return Double.POSITIVE_INFINITY;
    }
    double earliest = Double.POSITIVE_INFINITY;
    // a best holder holds some of t's bytes: for a one-input task, walk its file's holders, not
    // the pool (issue 25; the minimum does not depend on the order)
    Iterable<NodeView> candidates = s.nodes();
    if (t.inputs().size() == 1) {
      List<NodeView> hs = new ArrayList<>();
      for (String id : s.holders(t.inputs().get(0).id())) {
        NodeView n = s.node(id);
        if (n != null) {
          hs.add(n);
        }
      }
      candidates = hs;
    }
    for (NodeView n : candidates) {
      if (n.draining() || s.cached(t, n) != most) {
        continue;
      }
      List<RunningTask> placed = s.placedOn(n.id());
      if (placed.size() < n.slots()) {
        return now;
      }
      double[] ends = new double[placed.size()];
      for (int i = 0; i < ends.length; i++) {
        RunningTask r = placed.get(i);
        ends[i] = Math.max(now, r.startTime() + r.task().totalBytes() / diskBytesPerSecond
            + r.task().totalComputeSeconds());
      }
      Arrays.sort(ends);
      earliest = Math.min(earliest, ends[placed.size() - n.slots()]);
    }
    return earliest;
  }

  /**
   * D(t, e): how long t may wait for a best holder rather than run on e. The bytes a best holder
   * has and e lacks would be read from a peer instead of the local disk; D is that difference in
   * time. The peer rate is the NIC's share among the mean busy slots per node (each a reader
   * that may share the holder's NIC), so D rises with utilisation. Never negative, never more
   * than those bytes at the shared NIC rate: a bounded wait.
   */
  double localityWait(PoolState s, Task t, NodeView e) {
    long saved = Math.max(0, s.maxCached(t) - s.cached(t, e));
    if (saved == 0) {
      return 0;
    }
    int nodes = Math.max(1, s.nodes().size());
    double sharers = Math.max(1.0, (double) s.busySlots() / nodes);
    double peerRate = nicBytesPerSecond / sharers;
    return Math.max(0, saved / peerRate - saved / diskBytesPerSecond);
  }
}
