package io.locus.core.shadow;

import io.locus.core.Scheduler;
import io.locus.core.cache.EvictionPolicies;
import io.locus.core.cache.NodeCache;
import io.locus.core.model.Command;
import io.locus.core.model.InputFetch;
import io.locus.core.model.InputSource;
import io.locus.core.model.Task;
import io.locus.core.policy.Policy;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import io.locus.core.state.StateJournal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * One shadow policy over a model of the pool's cluster. It sees the real pool's arrivals and
 * nodes, but not the real completions: its own placements end when the model says
 * ({@link TransferRates}), its slots free then, and the inputs its tasks staged enter its model of
 * that node's cache (LRU at the node's real capacity, as an agent keeps it). So it answers "what
 * if this pool had run policy P", and {@link #score} keeps the answer.
 *
 * <p>It starts from the real pool as it is when the shadow is created: the registered nodes with
 * their cached files, and the queued (unplaced) tasks. Tasks running on the real nodes then are
 * not in the shadow (they end in reality), so its slots start free.
 *
 * <p>The Khanna policies (MET, MCT, SA, JDPDLL) plan their own transfers: a planned completion is
 * taken as the predicted end, and each staged input's transfer ends at its reservation's end (or,
 * unreserved, after the storage reads before it). Their caches are their own staging state, so no
 * cache model is kept for them.
 */
public final class ShadowRun {
  private final Scheduler scheduler;
  private final TransferRates rates;
  private final Map<String, NodeCache> caches = new TreeMap<>();
  private final Map<String, Long> cacheSeq = new HashMap<>();
  private final PriorityQueue<Due> due =
      new PriorityQueue<>(Comparator.comparingDouble(Due::at).thenComparingLong(Due::order));
  private long order;

  private long placed;
  private long completed;
  private double responseSum;
  private long bytesToMove;
  private long bytesLocal;
  private double busySlotSeconds;
  private double slotSeconds;
  private double lastTick = Double.NaN;

  /** Something the model makes happen at a time: a task's end, or a staged file's arrival. */
  private record Due(double at, long order, RunningTaskKey task, String file, String node,
      double submit, long local, long peer, long storage, List<InputFetch> staged) {}

  private record RunningTaskKey(String taskId, int attempt) {}

  public ShadowRun(Policy policy, TransferRates rates, int maxRetries) {
    this.scheduler = new Scheduler("shadow", new PoolState(StateJournal.NONE, maxRetries), policy);
    this.rates = rates;
  }

  /** A shadow that starts from the real pool's nodes, caches and queue (see the class comment). */
  public static ShadowRun startingFrom(PoolState real, Policy policy, TransferRates rates,
      int maxRetries, double now) {
    ShadowRun s = new ShadowRun(policy, rates, maxRetries);
    for (NodeView n : real.nodes()) {
      s.register(n.id(), n.slots(), n.cacheCapacity(), now);
      if (n.draining()) {
        s.scheduler.applyDrain(n.id(), true);
      }
      s.seedCache(n.id(), n.cached());
    }
    for (Task t : real.queue()) {
      s.scheduler.applyJobArrival(t);
    }
    s.tick(now);
    return s;
  }

  public String policy() {
    return scheduler.policy().name();
  }

  /** The nodes in the shadow's cluster. */
  public java.util.Set<String> nodes() {
    return java.util.Collections.unmodifiableSet(caches.keySet());
  }

  /** The shadow's own pool state (tests read it). */
  PoolState state() {
    return scheduler.state();
  }

  /**
   * A node joins with what it already caches (its registration's snapshot); from then on the
   * shadow's model, not the real agent's reports, says what it caches.
   */
  public List<ShadowPlacement> nodeRegistered(String node, int slots, long cacheCapacity,
      Map<String, Long> cached, double now) {
    List<ShadowPlacement> out = advance(now);
    if (scheduler.state().node(node) == null) {
      register(node, slots, cacheCapacity, now);
      seedCache(node, cached);
    }
    out.addAll(dispatch(now));
    return out;
  }

  private void seedCache(String node, Map<String, Long> cached) {
    if (scheduler.state().hasStaging()) {
      return;
    }
    NodeCache c = caches.get(node);
    Map<String, Long> added = new LinkedHashMap<>();
    for (Map.Entry<String, Long> f : new TreeMap<>(cached).entrySet()) {
      if (c.insert(f.getKey(), f.getValue()).cached()) {
        added.put(f.getKey(), f.getValue());
      }
    }
    cacheChanged(node, added, List.of());
  }

  public List<ShadowPlacement> nodeLeft(String node, double now) {
    List<ShadowPlacement> out = advance(now);
    if (scheduler.state().node(node) != null) {
      scheduler.applyNodeReleased(node); // its shadow tasks go back to the shadow's queue
      caches.remove(node);
      cacheSeq.remove(node);
    }
    out.addAll(dispatch(now));
    return out;
  }

  public List<ShadowPlacement> drain(String node, boolean draining, double now) {
    List<ShadowPlacement> out = advance(now);
    if (scheduler.state().node(node) != null) {
      scheduler.applyDrain(node, draining);
    }
    out.addAll(dispatch(now));
    return out;
  }

  public List<ShadowPlacement> jobArrived(Task t, double now) {
    List<ShadowPlacement> out = advance(now);
    if (scheduler.applyJobArrival(t)) {
      out.addAll(dispatch(now));
    }
    return out;
  }

  /**
   * A user cancelled the job: a queued shadow task leaves the queue; a placed one ends at once
   * (the shadow has no agent whose answer to wait for), freeing its slot. Neither is completed.
   */
  public List<ShadowPlacement> jobCancelled(String taskId, double now) {
    List<ShadowPlacement> out = advance(now);
    PoolState st = scheduler.state();
    if (st.cancelQueued(taskId) == null) {
      RunningTask r = st.cancelPlaced(taskId);
      if (r == null) {
        return out;
      }
      st.fail(taskId, r.task().attempt(), r.node()); // ends the cancelled attempt
    }
    out.addAll(dispatch(now));
    return out;
  }

  /**
   * Moves the model to {@code now}: every task end and file arrival due by then happens, in time
   * order, each followed by the dispatch it allows at its own time.
   */
  public List<ShadowPlacement> advance(double now) {
    List<ShadowPlacement> out = new ArrayList<>();
    while (!due.isEmpty() && due.peek().at() <= now) {
      Due d = due.poll();
      tick(d.at());
      if (d.task() == null) {
        scheduler.applyTransferEnd(d.file(), d.node());
      } else if (!end(d)) {
        continue;
      }
      out.addAll(dispatch(d.at()));
    }
    tick(now);
    return out;
  }

  public ShadowScore score() {
    return new ShadowScore(policy(), placed, completed,
        completed == 0 ? Double.NaN : responseSum / completed, bytesToMove, bytesLocal,
        slotSeconds > 0 ? busySlotSeconds / slotSeconds : 0, scheduler.state().queueLength());
  }

  private void register(String node, int slots, long cacheCapacity, double now) {
    scheduler.applyNodeRegistered(node, slots, cacheCapacity, null, now);
    caches.put(node, new NodeCache(cacheCapacity, EvictionPolicies.create("LRU", 0)));
    cacheSeq.put(node, 0L);
  }

  /** A shadow task's predicted end; false when the attempt is no longer running there. */
  private boolean end(Due d) {
    RunningTask r = scheduler.state().running(d.task().taskId());
    if (r == null || r.task().attempt() != d.task().attempt() || !r.node().equals(d.node())) {
      return false; // its node left and the task went back to the queue
    }
    scheduler.applyTaskCompleted(d.task().taskId(), d.task().attempt(), d.node(), d.local(),
        d.peer(), d.storage());
    completed++;
    responseSum += d.at() - d.submit();
    NodeCache cache = caches.get(d.node());
    if (cache != null && !scheduler.state().hasStaging()) {
      Map<String, Long> added = new LinkedHashMap<>();
      List<String> removed = new ArrayList<>();
      for (InputFetch f : d.staged()) {
        NodeCache.Insert ins = cache.insert(f.unit().id(), f.unit().bytes());
        if (ins.cached()) {
          added.put(f.unit().id(), f.unit().bytes());
        }
        removed.addAll(ins.evicted());
        ins.evicted().forEach(added::remove);
      }
      cacheChanged(d.node(), added, removed);
    }
    return true;
  }

  private void cacheChanged(String node, Map<String, Long> added, List<String> removed) {
    if (added.isEmpty() && removed.isEmpty()) {
      return;
    }
    long seq = cacheSeq.merge(node, 1L, Long::sum);
    scheduler.applyCacheDelta(node, seq, added, removed);
  }

  private List<ShadowPlacement> dispatch(double now) {
    List<ShadowPlacement> out = new ArrayList<>();
    for (Command c : scheduler.dispatch(now)) {
      if (c instanceof Command.Run run) {
        out.add(started(run, now));
      } else if (c instanceof Command.Evict ev && !scheduler.state().hasStaging()) {
        NodeCache cache = caches.get(ev.node());
        List<String> gone = new ArrayList<>();
        for (String f : ev.files()) {
          if (cache != null && cache.remove(f)) {
            gone.add(f);
          }
        }
        cacheChanged(ev.node(), Map.of(), gone);
      } else if (c instanceof Command.Replicate rep && scheduler.state().hasStaging()) {
        schedule(new Due(now + rep.unit().bytes() / rates.storage(), order++, null,
            rep.unit().id(), rep.node(), 0, 0, 0, 0, List.of()));
      }
      // Cancel: shadows register nodes without local queues, so no withdraw is ever asked.
    }
    return out;
  }

  private ShadowPlacement started(Command.Run run, double now) {
    long local = 0;
    long peer = 0;
    long storage = 0;
    List<InputFetch> staged = new ArrayList<>();
    double transfersEnd = now;
    for (InputFetch f : run.inputs()) {
      long b = f.unit().bytes();
      if (f.source() == InputSource.LOCAL) {
        local += b;
        continue;
      }
      if (f.source() == InputSource.PEER) {
        peer += b;
      } else {
        storage += b;
      }
      if (f.cache()) {
        staged.add(f);
      }
      if (scheduler.state().hasStaging() && f.source() == InputSource.STORAGE) {
        transfersEnd = f.reservation() != null ? f.reservation().end()
            : transfersEnd + b / rates.storage();
        schedule(new Due(transfersEnd, order++, null, f.unit().id(), run.node(), 0, 0, 0, 0,
            List.of()));
      }
    }
    Task t = run.task();
    double end = run.hasPlannedCompletion() ? Math.max(now, run.plannedCompletion())
        : now + rates.seconds(t.totalComputeSeconds(), local, peer, storage);
    schedule(new Due(end, order++, new RunningTaskKey(t.taskId(), t.attempt()), null, run.node(),
        t.submitTime(), local, peer, storage, staged));
    placed++;
    bytesToMove += peer + storage;
    bytesLocal += local;
    return new ShadowPlacement(policy(), t.taskId(), t.jobId(), run.node(), now, end, local, peer,
        storage);
  }

  private void schedule(Due d) {
    due.add(d);
  }

  private void tick(double t) {
    if (!Double.isNaN(lastTick) && t > lastTick) {
      double dt = t - lastTick;
      busySlotSeconds += scheduler.state().busySlots() * dt;
      slotSeconds += scheduler.state().registeredSlots() * dt;
    }
    if (Double.isNaN(lastTick) || t > lastTick) {
      lastTick = t;
    }
  }
}
