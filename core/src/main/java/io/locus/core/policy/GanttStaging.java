package io.locus.core.policy;

import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.InputSource;
import io.locus.core.model.InputFetch;
import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.staging.Ect;
import io.locus.core.staging.EctPlanner;
import io.locus.core.staging.PlannedTransfer;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.StagedCache;
import io.locus.core.state.StagingState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * MET, MCT and SA: map each arriving job to a node for good (the subclass's rule), then let every
 * idle node start the min-ECT job of its queue with its transfers reserved on the storage nodes'
 * Gantt charts, exactly as Online-HPS's stage 2 (§2.2 DISPATCH_IDLE_NODES and COMMIT, D11, D17).
 * VALUE eviction at commit, for all bytes to fetch (D14).
 *
 * <p>Priority (docs/policies.md, "Priority"): arrivals are mapped in queue order (priority, then
 * arrival); an idle node starts the min-ECT job among the highest-priority jobs of its queue, and
 * across idle nodes the job of higher priority commits (reserves its transfers) first. A job never
 * waits for a lower-priority one of its own node; mapping is for good, so a job of another node's
 * queue is not taken.
 */
abstract class GanttStaging implements Policy, ExplainsPending {
  /** Relative rounding allowance when comparing an ECT lower bound with an ECT. */
  private static final double SLACK = 1e-9;
  protected final CostModel cost;
  private final EctPlanner planner;

  GanttStaging(CostModel cost) {
    this.cost = cost;
    this.planner = new EctPlanner(cost);
  }

  public CostModel cost() {
    return cost;
  }

  /** A job mapped for good waits for its node while that node runs another job. */
  @Override
  public Waits waits(PoolState s, double now) {
    return khannaWaits(s, now, name() + " mapped it to this node for good");
  }

  static Waits khannaWaits(PoolState s, double now, String rule) {
    return new Waits() {
      @Override
      public DataWait dataWait(Task t, int position) {
        return DataWaits.mappedNode(s, t, now, rule);
      }
    };
  }

  /** The node an arriving job is mapped to (nodes: non-empty, lowest id first). */
  abstract NodeView map(Dispatch d, StagingState st, Task t, List<NodeView> nodes);

  /** After a job is mapped, before the dispatch it may trigger (SA re-evaluates its mode here). */
  void mapped(Dispatch d, StagingState st, List<NodeView> nodes) {}

  @Override
  public void dispatch(Dispatch d) {
    PoolState s = d.state();
    StagingState st = s.staging();
    st.useEviction(StagingState.VALUE);
    st.pruneCharts(d.now());
    List<NodeView> nodes = StagingRules.nodes(s);
    if (!nodes.isEmpty()) {
      // arrivals of one instant are mapped one at a time in arrival order, as if they came singly
      for (Task t : new ArrayList<>(st.unmapped())) {
        NodeView k = map(d, st, t, nodes);
        st.map(t, k.id());
        mapped(d, st, nodes);
        if (StagingRules.idle(k)) {
          dispatchIdleNodes(d, st, nodes);
        }
      }
    }
    dispatchIdleNodes(d, st, nodes);
  }

  /** Iterative global minimum ECT over the idle nodes with queued jobs (D11). */
  final void dispatchIdleNodes(Dispatch d, StagingState st, List<NodeView> nodes) {
    List<NodeView> idle = new ArrayList<>();
    for (NodeView n : nodes) {
      if (StagingRules.idle(n) && !st.queue(n.id()).isEmpty()) {
        idle.add(n);
      }
    }
    while (!idle.isEmpty()) {
      NodeView bestNode = null;
      Task bestJob = null;
      Ect best = null;
      for (NodeView n : idle) {
        StagedCache c = st.cache(n.id());
        // ECT(j) ≥ now + Exec_k(j) (the ingress takes one file at a time), so visiting jobs by that
        // bound and stopping once it exceeds the best ECT found gives the same argmin, cheaply.
        List<Task> queue = topPriority(st.queue(n.id()));
        double[] bound = new double[queue.size()];
        Integer[] order = new Integer[queue.size()];
        for (int i = 0; i < order.length; i++) {
          bound[i] = d.now() + StagingRules.exec(cost, queue.get(i), c::contains);
          order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(bound[a], bound[b]));
        Task jk = null;
        Ect ek = null;
        for (int i : order) {
          if (ek != null && bound[i] > ek.completion() + SLACK * Math.max(1, ek.completion())) {
            break; // strictly worse than ek even allowing for rounding: cannot win or tie
          }
          Task q = queue.get(i);
          Ect e = planner.ect(q, d.now(), c::contains, st::chart);
          if (ek == null || e.completion() < ek.completion()
              || (e.completion() == ek.completion() && StagingRules.ARRIVAL.compare(q, jk) < 0)) {
            jk = q;
            ek = e;
          }
        }
        if (best == null || jk.priority() > bestJob.priority()
            || (jk.priority() == bestJob.priority() && ek.completion() < best.completion())) {
          bestNode = n;
          bestJob = jk;
          best = ek;
        }
      }
      commit(d, st, bestNode, bestJob, best);
      idle.remove(bestNode);
    }
  }

  /**
   * The jobs of a node's queue (in queue order, priority first) that have the highest priority
   * among them: the only candidates its next start is chosen from.
   */
  static List<Task> topPriority(Collection<Task> queue) {
    List<Task> top = new ArrayList<>(queue.size());
    for (Task t : queue) {
      if (!top.isEmpty() && t.priority() < top.get(0).priority()) {
        break; // queue order is priority first: the rest are lower
      }
      top.add(t);
    }
    return top;
  }

  /** COMMIT (§2.2): evict, reserve and stage, count accesses, start the job. */
  private void commit(Dispatch d, StagingState st, NodeView n, Task j, Ect ect) {
    String k = n.id();
    double now = d.now();
    Set<String> files = new HashSet<>();
    List<String> ids = new ArrayList<>();
    for (InputFile u : j.inputs()) {
      files.add(u.id());
      ids.add(u.id());
    }
    List<InputFile> fetch = new ArrayList<>();
    Map<String, PlannedTransfer> planned = new HashMap<>();
    for (PlannedTransfer p : ect.plan()) {
      fetch.add(p.unit());
      planned.put(p.unit().id(), p);
    }
    // a streamed file (its queue at its cache limit) is still read from storage as planned
    StagingState.Room room = st.makeRoom(k, j, fetch, files::contains);
    if (!room.evicted().isEmpty()) {
      d.emit(new Command.Evict(k, room.evicted(), st.eviction()));
    }
    for (PlannedTransfer p : ect.plan()) {
      st.reserve(p.storageNode(), p.start(), p.end());
      if (!room.streamed().contains(p.unit().id())) {
        st.addInFlight(k, p.unit(), now, room.queue());
      }
    }
    for (String f : ids) {
      st.recordAccess(f);
    }
    st.touch(k, ids, now);
    d.state().counters().stagingTransfers += ect.plan().size();
    List<InputFetch> inputs = new ArrayList<>(j.inputs().size());
    for (InputFile u : j.inputs()) {
      PlannedTransfer p = planned.get(u.id());
      inputs.add(p == null
          ? new InputFetch(u, InputSource.LOCAL, null, true)
          : new InputFetch(u, InputSource.STORAGE, null, !room.streamed().contains(u.id()),
              new InputFetch.Reservation(p.storageNode(), p.start(), p.end())));
    }
    d.placeWith(j, n, name(), inputs, ect.completion());
    st.recordStart(k, j.taskId(), ect.completion());
  }
}
