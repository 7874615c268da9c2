package io.locus.core.split;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * {@code DELAYED} (spec §2.6, D18–D20): jobs arriving in a period [i·d, (i+1)·d) are scheduled
 * together at its end. Cached pieces go to their owners' private queues; uncached pieces are
 * striped (stripes ≤ S, see {@link Striping}) into meta-subjobs, one per stripe, so each stripe is
 * read from tape once per period: a node takes a whole meta-subjob, the first piece loads the
 * stripe and the others read it from the cache. Queues persist across periods; an idle node with
 * nothing queued stays idle (D19). d = 0 schedules each arrival at once as a batch of one.
 */
final class Delayed implements PolicyHooks {
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

  private final Primitives ops;
  private final ProgressModel model;
  /** The period d in force (seconds; 0 = at arrival). */
  private final DoubleSupplier period;
  /** Q_meta, by meta arrival (tie: lowest stripe start). */
  private final ArrayDeque<Meta> metas = new ArrayDeque<>();
  /** Jobs waiting for the end of their period, in arrival order. */
  private final JobFifo batch = new JobFifo();

  Delayed(Primitives ops) {
    this(ops, () -> ops.params.periodSeconds());
  }

  /** With the period chosen elsewhere ({@link AdaptiveDelay}). */
  Delayed(Primitives ops, DoubleSupplier period) {
    this.ops = ops;
    this.model = ops.model;
    this.period = period;
  }

  @Override
  public void arrival(JobState j) {
    double d = period.getAsDouble();
    if (d <= 0) {
      j.released = ops.now();
      schedule(List.of(j));
      return;
    }
    j.released = (Math.floor(ops.now() / d) + 1) * d;
    batch.addLast(j);
  }

  @Override
  public double timerAt() {
    return batch.isEmpty() ? Double.POSITIVE_INFINITY : batch.peekFirst().released;
  }

  @Override
  public void timer() {
    List<JobState> due = new ArrayList<>();
    while (!batch.isEmpty() && batch.peekFirst().released <= ops.now()) {
      due.add(batch.pollFirst());
    }
    if (!due.isEmpty()) {
      schedule(due);
    }
  }

  /** atPeriodEnd(B). */
  private void schedule(List<JobState> b) {
    List<EventSpan> uncached = new ArrayList<>();
    List<JobState> owner = new ArrayList<>();
    for (JobState j : b) {
      for (Pieces.Piece p : model.splitByCache(j.events)) {
        if (p.cachedOn() != null) {
          Subjob x = ops.newPiece(j, p.range().start(), p.range().end());
          x.cachedOn = p.cachedOn();
          ops.node(p.cachedOn()).queue.pushBack(x);
        } else {
          uncached.add(p.range());
          owner.add(j);
        }
      }
    }
    List<Meta> fresh = new ArrayList<>();
    for (Striping.Stripe s : Striping.stripe(uncached, ops.params.stripe(), ops.min)) {
      List<Striping.Cut> cuts = new ArrayList<>(s.pieces());
      cuts.sort(Comparator.comparingLong((Striping.Cut c) -> owner.get(c.source()).seq)
          .thenComparingLong(c -> c.range().start()));
      List<Subjob> pieces = new ArrayList<>();
      double arrival = Double.POSITIVE_INFINITY;
      for (Striping.Cut c : cuts) {
        JobState j = owner.get(c.source());
        pieces.add(ops.newPiece(j, c.range().start(), c.range().end()));
        arrival = Math.min(arrival, j.arrival);
      }
      fresh.add(new Meta(arrival, s.range().start(), pieces));
    }
    fresh.sort(Comparator.comparingDouble((Meta m) -> m.arrival)
        .thenComparingLong(m -> m.stripeStart));
    metas.addAll(fresh); // every job of this period arrived after those of earlier periods
    ops.fillIdle();
  }

  @Override
  public void subjobEnded(SplitNode v, JobState k, boolean jobFinished) {
    if (v.idle()) {
      nodeAvailable(v);
    }
  }

  @Override
  public void nodeAvailable(SplitNode v) {
    if (v.queue.isEmpty() && !metas.isEmpty()) {
      for (Subjob x : metas.pollFirst().pieces) {
        if (!x.dead) {
          v.queue.pushBack(x);
        }
      }
    }
    if (!v.queue.isEmpty()) {
      ops.run(v.queue.first(), v);
    }
  }

  @Override
  public boolean queueBacklog() {
    return true;
  }

  /** Remainders nobody asked for (partial end, node loss) go first, as a meta-subjob of one. */
  @Override
  public void requeue(Subjob x) {
    List<Subjob> one = new ArrayList<>();
    one.add(x);
    metas.addFirst(new Meta(x.job.arrival, x.start, one));
  }

  @Override
  public void writeState(DataOutput o) throws IOException {
    BinarySnapshot.writeJobIds(o, batch.members());
    o.writeInt(metas.size());
    for (Meta m : metas) {
      o.writeDouble(m.arrival);
      o.writeLong(m.stripeStart);
      BinarySnapshot.writeIds(o, m.pieces);
    }
  }

  @Override
  public void readState(DataInput in, BinarySnapshot.Reader r) throws IOException {
    for (JobState j : r.readJobs(in)) {
      batch.addLast(j);
    }
    int nm = in.readInt();
    for (int i = 0; i < nm; i++) {
      double a = in.readDouble();
      long s = in.readLong();
      metas.addLast(new Meta(a, s, new ArrayList<>(r.readIds(in))));
    }
  }
}
