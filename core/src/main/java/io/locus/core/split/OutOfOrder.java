package io.locus.core.split;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * {@code OUT_OF_ORDER} (spec §2.4), with the {@code replication} flag of §2.5. Jobs may overtake
 * each other: cached pieces go to private queues Q_v of their owners (and preempt uncached work
 * there), uncached pieces to the global queue Q_nc; idle nodes split Q_nc work over the idle nodes,
 * then steal tails from the most loaded node (STEAL, D14, D15). Starvation guard (D16): a Q_nc
 * piece of a job older than T_starve runs first, as a priority subjob that is never preempted;
 * checked at every node-available event and by a timer at arrival + T_starve.
 *
 * <p>Stolen tails of a priority subjob stay priority (the spec leaves this open; the guard's aim
 * is to finish starving work).
 */
final class OutOfOrder implements PolicyHooks {
  private static final Comparator<Subjob> BY_AGE = Comparator
      .comparingLong((Subjob x) -> x.job.seq).thenComparingLong(x -> x.start)
      .thenComparing(x -> x.id);

  /** Q_nc members by job arrival, then position (the starvation check). */
  private final TreeSet<Subjob> ncByAge = new TreeSet<>(BY_AGE);
  private final SubjobQueue qnc;
  /** Starvation timers, one per arrival, in time order. */
  private final TimeQueue starveTimers;
  private final Primitives ops;
  private final ProgressModel model;
  private final SplitParams params;

  OutOfOrder(Primitives ops) {
    this.ops = ops;
    this.model = ops.model;
    this.params = ops.params;
    this.qnc = new SubjobQueue("global", ops.state.changes, new SubjobQueue.Listener() {
      @Override
      public void added(Subjob x) {
        ncByAge.add(x);
      }

      @Override
      public void removed(Subjob x) {
        ncByAge.remove(x);
      }
    });
    this.starveTimers = new TimeQueue("starve", ops.state.changes);
  }

  @Override
  public void arrival(JobState j) {
    List<EventSpan> uncached = new ArrayList<>();
    for (Pieces.Piece p : model.splitByCache(j.events)) {
      if (p.cachedOn() == null) {
        uncached.add(p.range());
        continue;
      }
      SplitNode v = ops.node(p.cachedOn());
      Subjob x = ops.newPiece(j, p.range().start(), p.range().end());
      x.cachedOn = v.id;
      x.origin = v.id;
      x.preemptible = false;
      Subjob y = v.running;
      if (y == null) {
        ops.run(x, v);
      } else if (y.preemptible && !y.priority && !y.frozen()) {
        Subjob r = ops.suspendRunning(v);
        if (r != null) {
          originQueue(r).pushFront(r);
        }
        ops.run(x, v);
      } else {
        v.queue.pushBack(x);
      }
    }
    List<SplitNode> idle = ops.idleNodes();
    if (!idle.isEmpty()) {
      while (uncached.size() < idle.size()) {
        int largest = -1;
        for (int i = 0; i < uncached.size(); i++) {
          if (uncached.get(i).length() >= 2 * ops.min
              && (largest < 0 || uncached.get(i).length() > uncached.get(largest).length())) {
            largest = i;
          }
        }
        if (largest < 0) {
          break;
        }
        List<EventSpan> halves = Pieces.splitEqual(uncached.remove(largest), 2);
        uncached.add(largest, halves.get(1));
        uncached.add(largest, halves.get(0));
      }
      int k = Math.min(uncached.size(), idle.size());
      for (int i = 0; i < k; i++) {
        ops.run(uncachedPiece(j, uncached.get(i)), idle.get(i));
      }
      uncached = new ArrayList<>(uncached.subList(k, uncached.size()));
    }
    for (EventSpan r : uncached) {
      qnc.pushBack(uncachedPiece(j, r));
    }
    starveTimers.addLast(ops.now() + params.starveSeconds());
    ops.fillIdle();
  }

  private Subjob uncachedPiece(JobState j, EventSpan r) {
    Subjob x = ops.newPiece(j, r.start(), r.end());
    x.preemptible = true;
    return x;
  }

  private SubjobQueue originQueue(Subjob r) {
    SplitNode o = r.origin == null ? null : ops.node(r.origin);
    return o == null ? qnc : o.queue;
  }

  @Override
  public void subjobEnded(SplitNode v, JobState k, boolean jobFinished) {
    if (v.idle()) {
      nodeAvailable(v);
    }
  }

  @Override
  public void nodeAvailable(SplitNode v) {
    if (!ncByAge.isEmpty()) {
      Subjob oldest = ncByAge.first();
      if (ops.now() - oldest.job.arrival >= params.starveSeconds()) {
        oldest.priority = true;
        ops.run(oldest, v);
        return;
      }
    }
    if (!v.queue.isEmpty()) {
      ops.run(v.queue.first(), v);
      return;
    }
    if (!qnc.isEmpty()) {
      Subjob x = qnc.popFront();
      int idleEmpty = 0;
      for (SplitNode u : ops.nodes()) {
        if (u.idle() && u.queue.isEmpty()) {
          idleEmpty++;
        }
      }
      if (idleEmpty > qnc.size() + 1) {
        long parts = Math.min(idleEmpty - qnc.size(), x.length() / ops.min);
        if (parts >= 2) {
          List<EventSpan> ps = Pieces.splitEqual(x.range(), (int) parts);
          for (int i = ps.size() - 1; i >= 1; i--) {
            Subjob p = ops.newPiece(x.job, ps.get(i).start(), ps.get(i).end());
            p.copyFlags(x);
            p.awaitsAck = x.awaitsAck;
            qnc.pushFront(p);
          }
          x.end = ps.get(0).end();
        }
      }
      ops.run(x, v);
      return;
    }
    steal(v);
  }

  @Override
  public boolean queueBacklog() {
    return true;
  }

  /** STEAL(v) (spec §2.4, D14, D15). */
  private void steal(SplitNode v) {
    SplitNode u = null;
    double most = 0;
    for (SplitNode w : ops.nodes()) {
      if (w == v) {
        continue;
      }
      double b = model.backlog(w);
      if (b > most) {
        most = b;
        u = w;
      }
    }
    if (u == null) {
      return; // every backlog is 0: v idles
    }
    boolean queued = !u.queue.isEmpty();
    Subjob x = queued ? u.queue.last() : u.running;
    if (x == null || (!queued && x.frozen())) {
      return;
    }
    long size;
    double w;
    double c;
    if (queued) {
      double cx = model.costOn(u, x.start, x.end); // W = backlog(u) - COST(u, x)
      size = x.length();
      w = most - cx;
      c = cx / size;
    } else {
      size = model.remainingEvents(x);
      if (size == 0) {
        return;
      }
      w = 0;
      c = model.remainingTime(x) / size;
    }
    double r = params.replication() ? ops.costs.cRemote() : ops.costs.cMiss();
    long k = (long) Math.floor((w + c * size) / (r + c) + ProgressModel.EPS);
    if (k >= size && queued) {
      u.queue.remove(x);
      x.preemptible = true;
      x.origin = u.id;
      ops.run(x, v);
    } else if (k < ops.min || size - k < ops.min) {
      return;
    } else if (queued) {
      Subjob tail = ops.newPiece(x.job, x.end - k, x.end);
      tail.copyFlags(x);
      tail.awaitsAck = x.awaitsAck;
      ops.setRange(x, x.start, x.end - k);
      tail.preemptible = true;
      tail.origin = u.id;
      ops.run(tail, v);
    } else {
      Subjob tail = ops.shrinkRunning(u, x.end - k);
      tail.preemptible = true;
      tail.origin = u.id;
      ops.run(tail, v);
    }
  }

  @Override
  public void requeue(Subjob x) {
    originQueue(x).pushFront(x);
  }

  @Override
  public double timerAt() {
    return starveTimers.isEmpty() ? Double.POSITIVE_INFINITY : starveTimers.peekFirst();
  }

  @Override
  public void timer() {
    while (!starveTimers.isEmpty() && starveTimers.peekFirst() <= ops.now()) {
      starveTimers.pollFirst();
    }
    ops.fillIdle();
  }

  @Override
  public SubjobQueue queue(String tag) {
    return tag.equals(qnc.tag) ? qnc : null;
  }

  @Override
  public void exportMemory(Consumer<PolicyEntry> out) {
    starveTimers.export(out);
  }

  @Override
  public void restore(List<PolicyEntry> memory) {
    starveTimers.restore(memory);
  }

}
