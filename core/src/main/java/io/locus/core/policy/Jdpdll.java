package io.locus.core.policy;

import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.InputSource;
import io.locus.core.model.Ids;
import io.locus.core.model.InputFetch;
import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import io.locus.core.state.StagedCache;
import io.locus.core.state.StagingState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * JDPDLL (JobDataPresent + DataLeastLoaded, hypergraph spec §2.7, D15, D16): at arrival, map the
 * job for good to the node needing the least transfer (PRESENT files only), then the least loaded
 * (queued + running), then the lowest id. Each node runs its queue FIFO; a starting job's missing
 * files are issued in file-id order to the driver's FIFO {@code TransferEngine} (no Gantt chart),
 * with LRU eviction. Then DLL replication: a file whose per-node reference count reaches THRESH is
 * copied from its storage node to the least-loaded node without it, and the counter resets.
 */
public final class Jdpdll implements Policy, ExplainsPending {
  public static final int DEFAULT_THRESH = 2;

  private final CostModel cost;
  private final int thresh;

  public Jdpdll(CostModel cost, int thresh) {
    if (thresh < 1) {
      throw new IllegalArgumentException("parameter thresh (JDPDLL's replication threshold) must "
          + "be ≥ 1, got " + thresh);
    }
    this.cost = cost;
    this.thresh = thresh;
  }

  @Override
  public String name() {
    return "JDPDLL";
  }

  /** As MET's: a job mapped for good waits for its node (no planned completion: NaN). */
  @Override
  public Waits waits(PoolState s, double now) {
    return GanttStaging.khannaWaits(s, now, "JDPDLL mapped it to this node for good");
  }

  public CostModel cost() {
    return cost;
  }

  public int thresh() {
    return thresh;
  }

  @Override
  public void dispatch(Dispatch d) {
    PoolState s = d.state();
    StagingState st = s.staging();
    st.useEviction(StagingState.LRU);
    List<NodeView> nodes = StagingRules.nodes(s);
    if (!nodes.isEmpty()) {
      for (Task t : new ArrayList<>(st.unmapped())) {
        NodeView k = map(st, t, nodes);
        st.map(t, k.id());
        if (StagingRules.idle(k)) {
          startNext(d, st, k, nodes);
        }
      }
    }
    for (NodeView n : nodes) {
      if (StagingRules.idle(n) && !st.queue(n.id()).isEmpty()) {
        startNext(d, st, n, nodes);
      }
    }
  }

  private static int load(StagingState st, NodeView n) {
    return st.queue(n.id()).size() + n.busy();
  }

  /** JobDataPresent: least missing bytes (∝ transfer time, exact ties), then least loaded. */
  private static NodeView map(StagingState st, Task t, List<NodeView> nodes) {
    NodeView best = null;
    long bestMissing = 0;
    int bestLoad = 0;
    for (NodeView n : nodes) {
      long missing = StagingRules.missingBytes(t, StagingRules.local(st, n, false));
      int load = load(st, n);
      if (best == null || missing < bestMissing || (missing == bestMissing && load < bestLoad)) {
        best = n;
        bestMissing = missing;
        bestLoad = load;
      }
    }
    return best;
  }

  /**
   * START_NEXT(k): the head of k's FIFO queue starts; its missing files are issued by id. The
   * queue is in priority order, arrival within a level (docs/policies.md, "Priority"), so the head
   * is the earliest job of the highest priority mapped to k.
   */
  private void startNext(Dispatch d, StagingState st, NodeView n, List<NodeView> nodes) {
    Task j = st.queue(n.id()).iterator().next();
    String k = n.id();
    double now = d.now();
    StagedCache c = st.cache(k);
    List<InputFile> byId = new ArrayList<>(j.inputs());
    byId.sort(Comparator.comparing(InputFile::id, Ids.ORDER));
    Set<String> files = new HashSet<>();
    List<String> ids = new ArrayList<>();
    Set<String> fetch = new HashSet<>();
    List<InputFile> fetchFiles = new ArrayList<>();
    for (InputFile u : byId) {
      files.add(u.id());
      ids.add(u.id());
      if (!c.contains(u.id())) {
        fetch.add(u.id());
        fetchFiles.add(u);
      }
    }
    StagingState.Room room = st.makeRoom(k, j, fetchFiles, files::contains);
    if (!room.evicted().isEmpty()) {
      d.emit(new Command.Evict(k, room.evicted(), st.eviction()));
    }
    List<InputFetch> inputs = new ArrayList<>(byId.size());
    for (InputFile u : byId) {
      if (fetch.contains(u.id())) {
        // streamed: its queue is at its cache limit on k (docs/policies.md)
        boolean cache = !room.streamed().contains(u.id());
        if (cache) {
          st.addInFlight(k, u, now, room.queue());
        }
        inputs.add(new InputFetch(u, InputSource.STORAGE, null, cache));
      } else {
        // PRESENT, or IN_FLIGHT by an earlier replica: the job reads it once it is there
        inputs.add(new InputFetch(u, InputSource.LOCAL, null, true));
      }
    }
    st.touch(k, ids, now);
    for (String f : ids) {
      st.recordAccess(f);
    }
    d.state().counters().stagingTransfers += fetch.size();
    d.placeWith(j, n, name(), inputs, Double.NaN);
    st.recordStart(k, j.taskId(), Double.NaN);
    replicate(d, st, j, byId, k, nodes);
  }

  /** REPLICATE(j, k): references counted at job start (D15), after the job's own transfers. */
  private void replicate(Dispatch d, StagingState st, Task j, List<InputFile> byId, String k,
      List<NodeView> nodes) {
    for (InputFile u : byId) {
      if (st.addRef(k, u.id()) < thresh) {
        continue;
      }
      NodeView target = null;
      for (NodeView t : nodes) {
        if (!st.cache(t.id()).contains(u.id())
            && (target == null || load(st, t) < load(st, target))) {
          target = t;
        }
      }
      if (target == null) {
        continue; // every node holds it; the counter stays, to trigger again later
      }
      String t = target.id();
      // the replica is charged to the queue of the job whose start made the count reach thresh
      StagingState.Room room = st.makeRoom(t, j, List.of(u),
          runningFiles(d.state(), st, t)::contains);
      if (!room.evicted().isEmpty()) {
        d.emit(new Command.Evict(t, room.evicted(), st.eviction()));
      }
      if (!room.streamed().isEmpty()) {
        continue; // its queue is at its cache limit on t: a replica not cached is no replica
      }
      st.addInFlight(t, u, d.now(), room.queue());
      d.emit(new Command.Replicate(t, u, InputSource.STORAGE, null, "DLL"));
      d.state().counters().replicationTransfers++;
      st.resetRef(k, u.id());
    }
  }

  private static Set<String> runningFiles(PoolState s, StagingState st, String node) {
    Set<String> out = new HashSet<>();
    String taskId = st.runningTask(node);
    RunningTask r = taskId == null ? null : s.running(taskId);
    if (r != null) {
      for (InputFile u : r.task().inputs()) {
        out.add(u.id());
      }
    }
    return out;
  }
}
