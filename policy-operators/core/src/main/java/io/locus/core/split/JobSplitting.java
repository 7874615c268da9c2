package io.locus.core.split;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code JOB_SPLITTING} (spec §2.2): no cache, everything from tape. Jobs start in FCFS order; a
 * new job is split equally over the idle nodes, or takes a node from the job with the most active
 * nodes per remaining event (D9, D10); a started job always keeps a node; freed nodes resume
 * suspended work (D11) before halving the largest running subjob (D12), and start the FIFO head
 * before any split (D28).
 */
public class JobSplitting extends SplitPolicy {
  /** Jobs not started yet. */
  final ArrayDeque<JobState> fifo = new ArrayDeque<>();
  /** Jobs that have suspended subjobs, by arrival (entries with an empty list are stale). */
  final TreeMap<Long, JobState> withSuspended = new TreeMap<>();

  public JobSplitting(SplitParams params) {
    super(params);
  }

  @Override
  protected void arrival(JobState j) {
    List<SplitNode> idle = idleNodes();
    if (!idle.isEmpty()) {
      long n = j.events.length();
      int p = (int) Math.max(1, Math.min(idle.size(), n / min));
      List<EventSpan> pieces = Pieces.splitEqual(j.events, p);
      for (int i = 0; i < p; i++) {
        run(newPiece(j, pieces.get(i).start(), pieces.get(i).end()), idle.get(i));
      }
      return;
    }
    SplitNode victim = victimNode();
    if (victim != null) {
      suspendTo(victim);
      run(newPiece(j, j.events.start(), j.events.end()), victim);
    } else {
      fifo.addLast(j);
    }
  }

  /**
   * The §2.2 victim: among jobs with ≥ 2 active nodes, K = argmax activeNodes / remainingEvents
   * (remaining includes suspended subjobs; tie: earliest arrival); its running subjob with the
   * fewest remaining events (tie: lowest node id). Null when no job qualifies. Frozen subjobs
   * (stop or release awaiting an acknowledgement) are not candidates.
   */
  final SplitNode victimNode() {
    Map<JobState, long[]> perJob = new LinkedHashMap<>(); // {active, remaining, candidates}
    for (SplitNode v : nodes.values()) {
      Subjob x = v.running;
      if (x == null) {
        continue;
      }
      long[] a = perJob.computeIfAbsent(x.job, k -> new long[3]);
      a[0]++;
      a[1] += x.held() ? x.length() : remainingEvents(x);
      if (!x.frozen()) {
        a[2]++;
      }
    }
    JobState best = null;
    double bestRatio = -1;
    for (Map.Entry<JobState, long[]> e : perJob.entrySet()) {
      long[] a = e.getValue();
      if (a[0] < 2 || a[2] == 0) {
        continue;
      }
      long rem = a[1];
      for (Subjob s : e.getKey().suspended) {
        rem += s.length();
      }
      double ratio = rem == 0 ? Double.POSITIVE_INFINITY : (double) a[0] / rem;
      if (best == null || ratio > bestRatio
          || (ratio == bestRatio && e.getKey().seq < best.seq)) {
        best = e.getKey();
        bestRatio = ratio;
      }
    }
    if (best == null) {
      return null;
    }
    SplitNode pick = null;
    long fewest = Long.MAX_VALUE;
    for (SplitNode v : nodes.values()) {
      Subjob x = v.running;
      if (x != null && x.job == best && !x.frozen()) {
        long r = remainingEvents(x);
        if (r < fewest) {
          fewest = r;
          pick = v;
        }
      }
    }
    return pick;
  }

  /** SUSPEND the subjob on v; its remainder joins its job's suspended list. */
  final void suspendTo(SplitNode v) {
    Subjob r = suspendRunning(v);
    if (r != null) {
      pushSuspended(r);
    }
  }

  final void pushSuspended(Subjob r) {
    r.job.suspended.pushBack(r);
    withSuspended.put(r.job.seq, r.job);
  }

  /** The earliest-arrived job with suspended work, or null. */
  final JobState firstWithSuspended() {
    while (!withSuspended.isEmpty()) {
      JobState k = withSuspended.firstEntry().getValue();
      if (!k.suspended.isEmpty() && jobs.containsKey(k.id)) {
        return k;
      }
      withSuspended.pollFirstEntry();
    }
    return null;
  }

  @Override
  protected void subjobEnded(SplitNode v, JobState k, boolean jobFinished) {
    if (!v.idle()) {
      return;
    }
    if (!jobFinished && !k.suspended.isEmpty()) {
      run(k.suspended.first(), v);
    } else {
      nodeAvailable(v);
    }
  }

  /** onJobEnd(v): the FIFO head unsplit, else ALLOCATE_TO_RUNNING. */
  @Override
  protected void nodeAvailable(SplitNode v) {
    if (!fifo.isEmpty()) {
      JobState j = fifo.pollFirst();
      run(newPiece(j, j.events.start(), j.events.end()), v);
    } else {
      allocateToRunning(v);
    }
  }

  private void allocateToRunning(SplitNode v) {
    JobState k = firstWithSuspended();
    if (k != null) {
      run(k.suspended.first(), v);
      return;
    }
    SplitNode owner = null;
    long largest = -1;
    for (SplitNode u : nodes.values()) {
      Subjob x = u.running;
      if (x != null && !x.frozen()) {
        long r = remainingEvents(x);
        if (r > largest) {
          largest = r;
          owner = u;
        }
      }
    }
    if (owner == null || largest < 2 * min) {
      return; // v stays idle
    }
    long keep = (largest + 1) / 2;
    Subjob tail = shrinkRunning(owner, pos(owner.running) + keep);
    run(tail, v);
  }

  @Override
  protected void jobFinished(JobState j) {
    withSuspended.remove(j.seq);
  }

  @Override
  protected void requeue(Subjob x) {
    pushSuspended(x);
  }

  @Override
  protected void writeState(DataOutput o) throws IOException {
    o.writeInt(fifo.size());
    for (JobState j : fifo) {
      o.writeUTF(j.id);
    }
  }

  @Override
  protected void readState(DataInput in) throws IOException {
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      fifo.addLast(job(in.readUTF()));
    }
    for (JobState j : jobs.values()) {
      if (!j.suspended.isEmpty()) {
        withSuspended.put(j.seq, j);
      }
    }
  }
}
