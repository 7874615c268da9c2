package io.locus.sim.provision;

import io.locus.sim.engine.EventQueue;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The LRM of spec §2.4: submissions are processed FIFO at most one per submit interval; a processed
 * request becomes grantable after a latency drawn from U[min, max] (seeded), and is granted then or,
 * if too few nodes are free, as soon as enough are. Grantable requests are scanned in FIFO order at
 * every capacity change, so a later, smaller request may start earlier (backfilling). A request
 * larger than the whole LRM can never be granted and is refused at once.
 */
public final class Lrm {
  /** The outcome of a request, told to its submitter. */
  public interface Callback {
    void granted(int nodes, double now);

    void refused(int nodes, double now);
  }

  private record Request(long id, int nodes, Callback callback) {}

  private final LrmConfig cfg;
  private final EventQueue events;
  private final SplittableRandom rng;
  private final List<Request> grantable = new ArrayList<>();
  private double nextProcessing;
  private long nextId;
  private int allocated;
  private int pendingRequests;
  private int pendingNodes;
  private long grants;
  private long grantedNodes;

  public Lrm(LrmConfig cfg, EventQueue events, SplittableRandom rng) {
    this.cfg = cfg;
    this.events = events;
    this.rng = rng;
    for (LrmConfig.Busy b : cfg.externallyBusy()) {
      events.scheduleDaemon(b.untilSeconds(), () -> tryGrant(b.untilSeconds()));
    }
  }

  public LrmConfig config() {
    return cfg;
  }

  /** Submits a request for {@code nodes} nodes at {@code now}. */
  public void submit(int nodes, double now, Callback callback) {
    if (nodes <= 0) {
      throw new IllegalArgumentException("a request needs at least one node: " + nodes);
    }
    if (cfg.bounded() && nodes > cfg.capacity()) {
      callback.refused(nodes, now);
      return;
    }
    Request req = new Request(nextId++, nodes, callback);
    double processAt = Math.max(now, nextProcessing);
    nextProcessing = processAt + cfg.submitIntervalSeconds();
    pendingRequests++;
    pendingNodes += nodes;
    events.schedule(processAt, () -> process(req, processAt));
  }

  /** Nodes freed by the pool (a release, or a per-task job ending). */
  public void release(int nodes, double now) {
    allocated -= nodes;
    if (allocated < 0) {
      throw new IllegalStateException("released more LRM nodes than were granted");
    }
    tryGrant(now);
  }

  /** Free nodes now (the OPTIMAL acquisition strategy's query); Integer.MAX_VALUE if unbounded. */
  public int freeCapacity(double now) {
    if (!cfg.bounded()) {
      return Integer.MAX_VALUE;
    }
    return Math.max(0, cfg.capacity() - allocated - externallyBusy(now));
  }

  public int pendingRequests() {
    return pendingRequests;
  }

  /** Nodes requested but not yet granted. */
  public int pendingNodes() {
    return pendingNodes;
  }

  /** Requests granted so far (the number of allocations). */
  public long grants() {
    return grants;
  }

  public long grantedNodes() {
    return grantedNodes;
  }

  public int allocated() {
    return allocated;
  }

  private void process(Request req, double now) {
    double latency = cfg.minLatencySeconds()
        + rng.nextDouble() * (cfg.maxLatencySeconds() - cfg.minLatencySeconds());
    double ready = now + latency;
    events.schedule(ready, () -> {
      grantable.add(req);
      tryGrant(ready);
    });
  }

  private void tryGrant(double now) {
    List<Request> granted = new ArrayList<>();
    for (Iterator<Request> it = grantable.iterator(); it.hasNext(); ) {
      Request req = it.next();
      if (req.nodes() <= freeCapacity(now)) {
        it.remove();
        allocated += req.nodes();
        pendingRequests--;
        pendingNodes -= req.nodes();
        grants++;
        grantedNodes += req.nodes();
        granted.add(req);
      }
    }
    // Callbacks after the scan: a callback may release or submit, which re-enters this class.
    for (Request req : granted) {
      req.callback().granted(req.nodes(), now);
    }
  }

  private int externallyBusy(double now) {
    int busy = 0;
    for (LrmConfig.Busy b : cfg.externallyBusy()) {
      if (now < b.untilSeconds()) {
        busy += b.nodes();
      }
    }
    return busy;
  }
}
