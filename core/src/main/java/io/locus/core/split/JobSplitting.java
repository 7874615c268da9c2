package io.locus.core.split;

import java.util.List;

/**
 * {@code JOB_SPLITTING} (spec §2.2): no cache, everything from tape. Jobs start in FCFS order; a
 * new job is split equally over the idle nodes, or takes a node from the job with the most active
 * nodes per remaining event (D9, D10); a started job always keeps a node; freed nodes resume
 * suspended work (D11) before halving the largest running subjob (D12), and start the FIFO head
 * before any split (D28).
 */
final class JobSplitting extends FcfsWork {
  JobSplitting(Primitives ops) {
    super(ops);
  }

  @Override
  public void arrival(JobState j) {
    List<SplitNode> idle = ops.idleNodes();
    if (!idle.isEmpty()) {
      long n = j.events.length();
      int p = (int) Math.max(1, Math.min(idle.size(), n / ops.min));
      List<EventSpan> pieces = Pieces.splitEqual(j.events, p);
      for (int i = 0; i < p; i++) {
        ops.run(ops.newPiece(j, pieces.get(i).start(), pieces.get(i).end()), idle.get(i));
      }
      return;
    }
    SplitNode victim = victimNode();
    if (victim != null) {
      suspendTo(victim);
      ops.run(ops.newPiece(j, j.events.start(), j.events.end()), victim);
    } else {
      fifo.addLast(j);
    }
  }

  @Override
  public void subjobEnded(SplitNode v, JobState k, boolean jobFinished) {
    if (!v.idle()) {
      return;
    }
    if (!jobFinished && !k.suspended.isEmpty()) {
      ops.run(k.suspended.first(), v);
    } else {
      nodeAvailable(v);
    }
  }

  /** onJobEnd(v): the FIFO head unsplit, else ALLOCATE_TO_RUNNING. */
  @Override
  public void nodeAvailable(SplitNode v) {
    if (!fifo.isEmpty()) {
      JobState j = fifo.pollFirst();
      ops.run(ops.newPiece(j, j.events.start(), j.events.end()), v);
    } else {
      allocateToRunning(v);
    }
  }

  private void allocateToRunning(SplitNode v) {
    JobState k = firstWithSuspended();
    if (k != null) {
      ops.run(k.suspended.first(), v);
      return;
    }
    SplitNode owner = null;
    long largest = -1;
    for (SplitNode u : ops.nodes()) {
      Subjob x = u.running;
      if (x != null && !x.frozen()) {
        long r = model.remainingEvents(x);
        if (r > largest) {
          largest = r;
          owner = u;
        }
      }
    }
    if (owner == null || largest < 2 * ops.min) {
      return; // v stays idle
    }
    long keep = (largest + 1) / 2;
    Subjob tail = ops.shrinkRunning(owner, model.pos(owner.running) + keep);
    ops.run(tail, v);
  }
}
