package io.locus.core.staging;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The non-Gantt transfer engine of hypergraph spec §2.7 (D34), used for JDPDLL staging and DLL
 * replication. Requests are served FIFO by issue order; each storage node serves one transfer at a
 * time and each compute node receives one file at a time; a transfer lasts size / RBW and is never
 * preempted. A later request may start before an earlier one that is still blocked.
 *
 * <p>Driving it (the simulator's part; the scheduler never touches the engine):
 * <ol>
 *   <li>for each {@code Command.Run} without reservations, {@link #submit} its STORAGE inputs in
 *       list order (the policy lists them by file id); for each {@code Command.Replicate},
 *       {@link #submit} the replica — in the order the commands came;</li>
 *   <li>when a transfer's end time comes, {@link #finish} it (and tell the scheduler:
 *       {@code Scheduler.applyTransferEnd/onTransferEnd(file, node, end)});</li>
 *   <li>after all submissions and finishes of one timestamp, call {@link #start} once with that
 *       time and schedule each returned transfer's end. Finishing several transfers before one
 *       scan matters: equal-time events are applied first, then the engine scans (D1).</li>
 * </ol>
 */
public final class TransferEngine {
  /** A started transfer; {@code seq} is its issue order. */
  public record Transfer(long seq, String file, long bytes, int storageNode, String node,
      double start, double end) {}

  /** A submitted request not yet started. */
  public record Request(long seq, String file, long bytes, int storageNode, String node) {}

  private final CostModel cost;
  private final TreeMap<Long, Request> pending = new TreeMap<>();
  private final Map<Integer, Transfer> storageBusy = new HashMap<>();
  private final Map<String, Transfer> ingressBusy = new HashMap<>();
  private long nextSeq;

  public TransferEngine(CostModel cost) {
    this.cost = cost;
  }

  /** Queues a request; it starts at the next {@link #start}. Returns its issue sequence number. */
  public long submit(String file, long bytes, int storageNode, String node) {
    long seq = nextSeq++;
    pending.put(seq, new Request(seq, file, bytes, storageNode, node));
    return seq;
  }

  /**
   * Starts, in issue order, every pending request whose storage node and destination are both
   * idle. Returns the transfers started, with their end times.
   */
  public List<Transfer> start(double now) {
    List<Transfer> started = new ArrayList<>();
    for (var it = pending.values().iterator(); it.hasNext(); ) {
      Request r = it.next();
      if (storageBusy.containsKey(r.storageNode()) || ingressBusy.containsKey(r.node())) {
        continue;
      }
      Transfer t = new Transfer(r.seq(), r.file(), r.bytes(), r.storageNode(), r.node(), now,
          now + cost.transferSeconds(r.bytes()));
      storageBusy.put(r.storageNode(), t);
      ingressBusy.put(r.node(), t);
      started.add(t);
      it.remove();
    }
    return started;
  }

  /** Ends a running transfer, freeing its storage node and its destination's ingress. */
  public void finish(Transfer t) {
    Transfer s = storageBusy.get(t.storageNode());
    if (s == null || s.seq() != t.seq()) {
      throw new IllegalStateException("transfer " + t.seq() + " of " + t.file() + " is not running");
    }
    storageBusy.remove(t.storageNode());
    ingressBusy.remove(t.node());
  }

  public Collection<Request> pending() {
    return Collections.unmodifiableCollection(pending.values());
  }

  public List<Transfer> active() {
    List<Transfer> a = new ArrayList<>(storageBusy.values());
    a.sort((x, y) -> Long.compare(x.seq(), y.seq()));
    return a;
  }

  public boolean isIdle() {
    return pending.isEmpty() && storageBusy.isEmpty();
  }

  /** An independent copy (a simulator snapshot). */
  public TransferEngine copy() {
    TransferEngine c = new TransferEngine(cost);
    c.pending.putAll(pending);
    c.storageBusy.putAll(storageBusy);
    c.ingressBusy.putAll(ingressBusy);
    c.nextSeq = nextSeq;
    return c;
  }
}
