package io.locus.core.split;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayDeque;

/**
 * {@code FARM} (spec §2.1), the reference baseline: one FIFO for the cluster; a job runs whole on
 * one node and holds it to the end; no cache (every event costs c_miss). An M/E_4/n queue.
 */
public final class Farm extends SplitPolicy {
  private final ArrayDeque<JobState> fifo = new ArrayDeque<>();
  /** Remainders of interrupted runs (node loss, failed agent): they go before new jobs. */
  private final SubjobQueue resume = new SubjobQueue();

  public Farm(SplitParams params) {
    super(params);
  }

  @Override
  protected void arrival(JobState j) {
    for (SplitNode v : nodes.values()) {
      if (v.idle()) {
        run(newPiece(j, j.events.start(), j.events.end()), v);
        return;
      }
    }
    fifo.addLast(j);
  }

  @Override
  protected void subjobEnded(SplitNode v, JobState k, boolean jobFinished) {
    nodeAvailable(v);
  }

  @Override
  protected void nodeAvailable(SplitNode v) {
    if (!resume.isEmpty()) {
      run(resume.first(), v);
    } else if (!fifo.isEmpty()) {
      JobState j = fifo.pollFirst();
      run(newPiece(j, j.events.start(), j.events.end()), v);
    }
  }

  @Override
  protected void requeue(Subjob x) {
    resume.pushBack(x);
  }

  @Override
  protected void writeState(DataOutput o) throws IOException {
    o.writeInt(fifo.size());
    for (JobState j : fifo) {
      o.writeUTF(j.id);
    }
    writeIds(o, resume);
  }

  @Override
  protected void readState(DataInput in) throws IOException {
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      fifo.addLast(job(in.readUTF()));
    }
    for (Subjob x : readIds(in)) {
      resume.pushBack(x);
    }
  }
}
