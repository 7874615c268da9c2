package io.locus.core.split;

import java.util.List;

/**
 * {@code FARM} (spec §2.1), the reference baseline: one FIFO for the cluster; a job runs whole on
 * one node and holds it to the end; no cache (every event costs c_miss). An M/E_4/n queue.
 */
final class Farm implements PolicyHooks {
  private final Primitives ops;
  private final JobFifo fifo;
  /** Remainders of interrupted runs (node loss, failed agent): they go before new jobs. */
  private final SubjobQueue resume;

  Farm(Primitives ops) {
    this.ops = ops;
    this.fifo = new JobFifo(ops.state.changes);
    this.resume = new SubjobQueue("resume", ops.state.changes);
  }

  @Override
  public void arrival(JobState j) {
    for (SplitNode v : ops.nodes()) {
      if (v.idle()) {
        ops.run(ops.newPiece(j, j.events.start(), j.events.end()), v);
        return;
      }
    }
    fifo.addLast(j);
  }

  @Override
  public void subjobEnded(SplitNode v, JobState k, boolean jobFinished) {
    nodeAvailable(v);
  }

  @Override
  public void nodeAvailable(SplitNode v) {
    if (!resume.isEmpty()) {
      ops.run(resume.first(), v);
    } else if (!fifo.isEmpty()) {
      JobState j = fifo.pollFirst();
      ops.run(ops.newPiece(j, j.events.start(), j.events.end()), v);
    }
  }

  @Override
  public void jobCancelled(JobState j) {
    fifo.remove(j);
  }

  @Override
  public void requeue(Subjob x) {
    resume.pushBack(x);
  }

  @Override
  public SubjobQueue queue(String tag) {
    return tag.equals(resume.tag) ? resume : null;
  }

  @Override
  public void restore(List<PolicyEntry> memory) {
    fifo.restore(ops.state.jobs.values());
  }

}
