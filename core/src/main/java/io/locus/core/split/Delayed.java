package io.locus.core.split;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
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
  private final Primitives ops;
  private final ProgressModel model;
  private final Changes changes;
  /** The period d in force (seconds; 0 = at arrival). */
  private final DoubleSupplier period;
  /**
   * Q_meta, by meta arrival (tie: lowest stripe start). A meta-subjob names its pieces: they are
   * live and in no queue until it is taken, or gone (an acknowledgement emptied them).
   */
  private final ArrayDeque<PolicyEntry.MetaSubjob> metas = new ArrayDeque<>();
  /** Jobs waiting for the end of their period, in arrival order. */
  private final JobFifo batch;

  Delayed(Primitives ops) {
    this(ops, () -> ops.params.periodSeconds());
  }

  /** With the period chosen elsewhere ({@link AdaptiveDelay}). */
  Delayed(Primitives ops, DoubleSupplier period) {
    this.ops = ops;
    this.model = ops.model;
    this.changes = ops.state.changes;
    this.period = period;
    this.batch = new JobFifo(changes);
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
    List<PolicyEntry.MetaSubjob> fresh = new ArrayList<>();
    for (Striping.Stripe s : Striping.stripe(uncached, ops.params.stripe(), ops.min)) {
      List<Striping.Cut> cuts = new ArrayList<>(s.pieces());
      cuts.sort(Comparator.comparingLong((Striping.Cut c) -> owner.get(c.source()).seq)
          .thenComparingLong(c -> c.range().start()));
      List<String> pieces = new ArrayList<>();
      double arrival = Double.POSITIVE_INFINITY;
      for (Striping.Cut c : cuts) {
        JobState j = owner.get(c.source());
        pieces.add(ops.newPiece(j, c.range().start(), c.range().end()).id);
        arrival = Math.min(arrival, j.arrival);
      }
      fresh.add(new PolicyEntry.MetaSubjob(0, arrival, s.range().start(), pieces));
    }
    fresh.sort(Comparator.comparingDouble(PolicyEntry.MetaSubjob::arrival)
        .thenComparingLong(PolicyEntry.MetaSubjob::stripeStart));
    for (PolicyEntry.MetaSubjob m : fresh) { // this period's jobs arrived after earlier ones
      long rank = metas.isEmpty() ? 0 : metas.peekLast().rank() + 1;
      add(new PolicyEntry.MetaSubjob(rank, m.arrival(), m.stripeStart(), m.pieces()), false);
    }
    ops.fillIdle();
  }

  private void add(PolicyEntry.MetaSubjob m, boolean first) {
    if (first) {
      metas.addFirst(m);
    } else {
      metas.addLast(m);
    }
    changes.memory(m);
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
      PolicyEntry.MetaSubjob m = metas.pollFirst();
      changes.forget(m.key());
      for (String id : m.pieces()) {
        Subjob x = ops.state.live.get(id);
        if (x != null) { // else emptied by an acknowledgement
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
    long rank = metas.isEmpty() ? 0 : metas.peekFirst().rank() - 1;
    add(new PolicyEntry.MetaSubjob(rank, x.job.arrival, x.start, List.of(x.id)), true);
  }

  /**
   * Its job leaves the period batch, and its pieces leave the meta-subjobs (a meta-subjob left
   * without pieces goes: a node taking it would get nothing). Each changed meta-subjob keeps its
   * rank, so Q_meta keeps its order.
   */
  @Override
  public void jobCancelled(JobState j) {
    batch.remove(j);
    ArrayDeque<PolicyEntry.MetaSubjob> kept = new ArrayDeque<>();
    for (PolicyEntry.MetaSubjob m : metas) {
      List<String> rest = new ArrayList<>();
      for (String id : m.pieces()) {
        if (!id.substring(0, id.lastIndexOf('/')).equals(j.id)) {
          rest.add(id);
        }
      }
      if (rest.size() == m.pieces().size()) {
        kept.add(m);
      } else if (rest.isEmpty()) {
        changes.forget(m.key());
      } else {
        PolicyEntry.MetaSubjob n = new PolicyEntry.MetaSubjob(m.rank(), m.arrival(),
            m.stripeStart(), rest);
        kept.add(n);
        changes.memory(n);
      }
    }
    metas.clear();
    metas.addAll(kept);
  }

  @Override
  public void exportMemory(Consumer<PolicyEntry> out) {
    metas.forEach(out);
  }

  @Override
  public void restore(List<PolicyEntry> memory) {
    batch.restore(ops.state.jobs.values());
    List<PolicyEntry.MetaSubjob> mine = new ArrayList<>();
    for (Iterator<PolicyEntry> it = memory.iterator(); it.hasNext(); ) {
      if (it.next() instanceof PolicyEntry.MetaSubjob m) {
        mine.add(m);
        it.remove();
      }
    }
    mine.sort(Comparator.comparingLong(PolicyEntry.MetaSubjob::rank));
    metas.addAll(mine);
  }

}
