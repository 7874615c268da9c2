package io.locus.core.policy;

import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.staging.Ect;
import io.locus.core.staging.EctPlanner;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.StagingState;
import java.util.List;
import java.util.Locale;

/**
 * EFT (earliest estimated finish): Locus's own policy (issue 16). A task goes where it is estimated
 * to finish first, counting the wait for the node, the bytes to move priced by where they come from,
 * and the compute; waiting for a node that holds the data is allowed, but never longer than the
 * transfer time the wait saves. It runs in both cache models the pools have:
 *
 * <ul>
 *   <li><b>Scheduler-staged caches</b> (the Khanna model: one slot per node, the scheduler stages
 *       files over the storage nodes' Gantt charts). An arriving job is mapped to the node with
 *       the least ready_k + ECT, where — unlike MCT's nominal transfer times (D19) — the ECT plans
 *       the missing files on the storage nodes' charts from ready_k on, so a transfer is priced
 *       with the queue it will meet at its storage node. Each idle node then runs the min-ECT job
 *       of its queue with Gantt staging and VALUE eviction, the stage 2 shared with MET, MCT, SA.
 *   <li><b>Agent caches</b> (data diffusion: executors cache what they read and report it). First,
 *       every task whose best holder (most bytes cached) can take it now goes there (MCH's rule,
 *       decided on the pool's dispatch index). When every window task's best holders are busy,
 *       the queue head waits for them at most D = the time its cached bytes save: the bytes its
 *       best holder has and the free node lacks, times (1 / peer rate − 1 / local rate). Once it
 *       has waited D since submission it goes to the free node holding most of its data (MCU's
 *       rule for the head), which reads them from a peer. The peer rate is the NIC shared by the
 *       mean number of busy slots per node, so D grows with utilisation: at low load the head
 *       hardly waits (MCU), near saturation it waits for its data (MCH), the delay-scheduling
 *       lesson with the delay set by what it saves instead of a tuned constant.
 * </ul>
 *
 * <p>Which model a pool has: parameter {@code caches} = {@code staged} | {@code agent} | {@code
 * auto} (default). Auto picks staged when the pool already keeps a staging state or every
 * registered node has one slot and no local queue (the Khanna model's one job per node), else
 * agent. Deterministic: only the event time and the pool state enter a decision.
 */
public final class EarliestFinish extends GanttStaging {
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
      case AUTO -> s.hasStaging() || oneJobPerNode(s);
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
    if (staged(d.state())) {
      super.dispatch(d);
    } else {
      dispatchAgentCaches(d);
    }
  }

  // ------------------------------------------------------------- scheduler-staged caches

  /**
   * min over nodes of ECT(j, k, ready_k): the nominal ready time of MCT (running job's planned
   * completion plus the queue's Exec_k), then the job's own transfers first-fit on the storage
   * charts from there. Ties to the lowest id (nodes come lowest id first; strict comparison).
   */
  @Override
  NodeView map(Dispatch d, StagingState st, Task t, List<NodeView> nodes) {
    NodeView best = null;
    double bestFinish = 0;
    for (NodeView n : nodes) {
      var local = StagingRules.local(st, n, true);
      double ready = StagingRules.ready(st, cost, n, local, d.now());
      Ect e = ectPlanner.ect(t, ready, local, st::chart);
      if (best == null || e.completion() < bestFinish) {
        best = n;
        bestFinish = e.completion();
      }
    }
    return best;
  }

  // ------------------------------------------------------------- agent caches

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
        for (Task t : batch) {
          d.place(t, holder, name(), true);
        }
        continue;
      }
      // every window task's best holders are busy: only the head may give up its locality
      Task head = s.queue().iterator().next();
      NodeView e = DataAwareDispatch.notifyTarget(s, DataAwareDispatch.Mode.MCU, window);
      if (d.now() - head.submitTime() < localityWait(s, head, e)) {
        return; // a holder's completion (or a later event) dispatches again
      }
      d.place(head, e, name() + "/FAR", true);
    }
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
