package io.locus.core.split;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code DELAYED} (spec §2.6, D18–D20): jobs arriving in a period [i·d, (i+1)·d) are scheduled
 * together at its end. Cached pieces go to their owners' private queues; uncached pieces are
 * striped (stripes ≤ S, see {@link Striping}) into meta-subjobs, one per stripe, so each stripe is
 * read from tape once per period: a node takes a whole meta-subjob, the first piece loads the
 * stripe and the others read it from the cache. Queues persist across periods; an idle node with
 * nothing queued stays idle (D19). d = 0 schedules each arrival at once as a batch of one.
 */
public class Delayed extends SplitPolicy {
  /** A meta-subjob: the pieces of one stripe in one period. */
  static final class Meta {
    final double arrival;
    final long stripeStart;
    final List<Subjob> pieces;

    Meta(double arrival, long stripeStart, List<Subjob> pieces) {
      this.arrival = arrival;
      this.stripeStart = stripeStart;
      this.pieces = pieces;
    }
  }

  /** Q_meta, by meta arrival (tie: lowest stripe start). */
  final ArrayDeque<Meta> metas = new ArrayDeque<>();
  /** Jobs waiting for the end of their period, in arrival order. */
  final ArrayDeque<JobState> batch = new ArrayDeque<>();

  public Delayed(SplitParams params) {
    super(params);
  }

  /** The period length d in force (seconds; 0 = at arrival). */
  protected double period() {
    return params.periodSeconds();
  }

  @Override
  protected void arrival(JobState j) {
    double d = period();
    if (d <= 0) {
      j.released = now;
      schedule(List.of(j));
      return;
    }
    j.released = (Math.floor(now / d) + 1) * d;
    batch.addLast(j);
  }

  @Override
  protected double timerAt() {
    return batch.isEmpty() ? Double.POSITIVE_INFINITY : batch.peekFirst().released;
  }

  @Override
  protected void timer() {
    List<JobState> due = new ArrayList<>();
    while (!batch.isEmpty() && batch.peekFirst().released <= now) {
      due.add(batch.pollFirst());
    }
    if (!due.isEmpty()) {
      schedule(due);
    }
  }

  /** atPeriodEnd(B). */
  final void schedule(List<JobState> b) {
    List<EventSpan> uncached = new ArrayList<>();
    List<JobState> owner = new ArrayList<>();
    for (JobState j : b) {
      for (Pieces.Piece p : splitByCache(j.events)) {
        if (p.cachedOn() != null) {
          Subjob x = newPiece(j, p.range().start(), p.range().end());
          x.cachedOn = p.cachedOn();
          nodes.get(p.cachedOn()).queue.pushBack(x);
        } else {
          uncached.add(p.range());
          owner.add(j);
        }
      }
    }
    List<Meta> fresh = new ArrayList<>();
    for (Striping.Stripe s : Striping.stripe(uncached, params.stripe(), min)) {
      List<Striping.Cut> cuts = new ArrayList<>(s.pieces());
      cuts.sort(Comparator.comparingLong((Striping.Cut c) -> owner.get(c.source()).seq)
          .thenComparingLong(c -> c.range().start()));
      List<Subjob> pieces = new ArrayList<>();
      double arrival = Double.POSITIVE_INFINITY;
      for (Striping.Cut c : cuts) {
        JobState j = owner.get(c.source());
        pieces.add(newPiece(j, c.range().start(), c.range().end()));
        arrival = Math.min(arrival, j.arrival);
      }
      fresh.add(new Meta(arrival, s.range().start(), pieces));
    }
    fresh.sort(Comparator.comparingDouble((Meta m) -> m.arrival)
        .thenComparingLong(m -> m.stripeStart));
    metas.addAll(fresh); // every job of this period arrived after those of earlier periods
    fillIdle();
  }

  @Override
  protected void subjobEnded(SplitNode v, JobState k, boolean jobFinished) {
    if (v.idle()) {
      nodeAvailable(v);
    }
  }

  @Override
  protected void nodeAvailable(SplitNode v) {
    if (v.queue.isEmpty() && !metas.isEmpty()) {
      for (Subjob x : metas.pollFirst().pieces) {
        if (!x.dead) {
          v.queue.pushBack(x);
        }
      }
    }
    if (!v.queue.isEmpty()) {
      run(v.queue.first(), v);
    }
  }

  @Override
  protected double backlog(SplitNode u) {
    return (u.running == null ? 0 : remainingTime(u.running)) + queuedCost(u);
  }

  @Override
  protected boolean tracksQueueCosts() {
    return true;
  }

  /** Remainders nobody asked for (partial end, node loss) go first, as a meta-subjob of one. */
  @Override
  protected void requeue(Subjob x) {
    List<Subjob> one = new ArrayList<>();
    one.add(x);
    metas.addFirst(new Meta(x.job.arrival, x.start, one));
  }

  @Override
  protected void writeState(DataOutput o) throws IOException {
    o.writeInt(batch.size());
    for (JobState j : batch) {
      o.writeUTF(j.id);
    }
    o.writeInt(metas.size());
    for (Meta m : metas) {
      o.writeDouble(m.arrival);
      o.writeLong(m.stripeStart);
      writeIds(o, m.pieces);
    }
  }

  @Override
  protected void readState(DataInput in) throws IOException {
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      batch.addLast(job(in.readUTF()));
    }
    int nm = in.readInt();
    for (int i = 0; i < nm; i++) {
      double a = in.readDouble();
      long s = in.readLong();
      metas.addLast(new Meta(a, s, new ArrayList<>(readIds(in))));
    }
  }
}
