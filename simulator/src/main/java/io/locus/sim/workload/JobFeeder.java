package io.locus.sim.workload;

import io.locus.sim.engine.EventQueue;
import io.locus.workloads.TraceJob;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Feeds a lazily produced, arrival-sorted job stream into virtual time, holding at most the next
 * job: SW has 2,000,000 jobs and none needs to exist before it arrives. All jobs with the same
 * arrival time enter in one event, in stream order (that is their submission order).
 *
 * <p>Stages ({@link TraceJob#stage()}): a stage-k job (k ≥ 1) is released when every job of the
 * earlier stages that has arrived so far has completed (STAGES18). This assumes a stage's jobs have
 * all arrived before its completion is checked, which holds for staged workloads (all at t = 0).
 *
 * <p>Workflows ({@link TraceJob#parents()}): a job with parents is released when it has arrived
 * and every parent has completed (then its stage rule applies as above). A parent may arrive in the
 * same instant as its child, in any stream order, or later. A parent that failed for good or was
 * cancelled means its child never runs: the child is <em>dropped</em> ("parent X failed", "parent
 * X cancelled"), and so are the child's own descendants, as they arrive. That is {@link
 * OnFailure#FAIL_DESCENDANTS}, the streaming scheduler's default; under {@link
 * OnFailure#FAIL_WORKFLOW} every other job of the failed job's workflow ({@link WorkflowGroups})
 * not released yet is dropped too ("workflow failed: X failed"), and released ones run on. When
 * the stream is exhausted and nothing released is still running, jobs still waiting can never be
 * released (a parent that never arrived, or a cycle): they are dropped too, so the run ends.
 * Dropped jobs are counted by cause and never released.
 *
 * <p>Cancels ({@link TraceJob#cancelAfter()}): at arrival + cancelAfter the job is cancelled, as by
 * a user's cancel on the stream. Not released yet (waiting for parents or its stage): it never is,
 * and it counts as a failed parent. Released and not ended: the {@link Sink} takes it off the queue
 * or stops its attempt and reports it ended, {@link End#CANCELLED}. Ended already (or dropped):
 * nothing happens, a cancel too late.
 *
 * <p>To decide at a child's arrival whether a parent already completed, the feeder remembers the
 * id of every completed job (one set entry per job: about 100 bytes each, 200 MB for SW's
 * 2,000,000 jobs; the ids are the jobs' own strings).
 */
public final class JobFeeder {
  /** Receives released jobs, and cancels of released jobs. */
  public interface Sink {
    void released(TraceJob job, double now);

    /**
     * A released job that has not ended is cancelled: the sink takes it off the queue or stops its
     * attempt, and reports it through {@link JobFeeder#finished} with {@link End#CANCELLED}.
     */
    void cancelReleased(String jobId, double now);
  }

  /** How a released job ended. */
  public enum End {
    COMPLETED, FAILED, CANCELLED
  }

  /** What a failed-for-good or cancelled job does to its workflow (see the class comment). */
  public enum OnFailure {
    FAIL_DESCENDANTS, FAIL_WORKFLOW
  }

  private final Iterator<TraceJob> jobs;
  private final EventQueue events;
  private final Sink sink;
  /** Null under FAIL_DESCENDANTS: nothing is tracked. */
  private final WorkflowGroups workflows;
  private TraceJob lookahead;
  private final List<ArrayDeque<TraceJob>> held = new ArrayList<>();
  private final List<long[]> stageCounts = new ArrayList<>(); // [arrived, finished]
  private final Map<String, Integer> stageOf = new HashMap<>();
  /** Ids of jobs that completed, and of jobs that failed for good, were cancelled or dropped. */
  private final Set<String> completedIds = new HashSet<>();
  private final Set<String> failedIds = new HashSet<>();
  /** Of those, the cancelled ones (their children's reason says so); bounded by the cancels. */
  private final Set<String> cancelledIds = new HashSet<>();
  /** Jobs that arrived and wait for parents, by id; and who waits on whom (parent id → them). */
  private final Map<String, Waiting> waiting = new HashMap<>();
  private final Map<String, List<Waiting>> childrenOf = new HashMap<>();
  /** Why each dropped job was dropped ("parent X failed", …); bounded by the drops. */
  private final Map<String, String> reasons = new HashMap<>();
  private long droppedByParent;
  private long droppedByWorkflow;
  private long orphans;
  private long cancelsDue;
  private long cancelsRun;
  private long cancelsTooLate;
  private long cancelledUnreleased;
  private long arrived;
  private long released;
  private long finished;
  private int heldCount;
  private double firstArrival = Double.NaN;
  private double lastArrival = Double.NaN;

  public JobFeeder(Iterator<TraceJob> jobs, EventQueue events, Sink sink) {
    this(jobs, events, sink, OnFailure.FAIL_DESCENDANTS);
  }

  public JobFeeder(Iterator<TraceJob> jobs, EventQueue events, Sink sink, OnFailure onFailure) {
    this.jobs = jobs;
    this.events = events;
    this.sink = sink;
    this.workflows = onFailure == OnFailure.FAIL_WORKFLOW ? new WorkflowGroups() : null;
  }

  /** Schedules the first arrival. */
  public void start() {
    scheduleNext();
  }

  /** A released job ended for good: completed, failed past its retries, or cancelled. */
  public void finished(String jobId, End end, double now) {
    finished++;
    Integer stage = stageOf.remove(jobId);
    counts(stage == null ? 0 : stage)[1]++;
    if (end == End.COMPLETED) {
      completedIds.add(jobId);
      List<Waiting> children = childrenOf.remove(jobId);
      if (children != null) {
        for (Waiting w : children) {
          if (!w.dropped && --w.missing == 0) {
            waiting.remove(w.job.jobId());
            admitStage(w.job, now);
          }
        }
      }
    } else {
      failedIds.add(jobId);
      if (end == End.CANCELLED) {
        cancelledIds.add(jobId);
      }
      failed(jobId);
    }
    if (heldCount > 0) {
      releaseStages(now);
    }
    dropOrphans(now);
  }

  /** Every job has arrived and been released and finished, or dropped or cancelled unreleased. */
  public boolean done() {
    return lookahead == null && !jobs.hasNext() && heldCount == 0 && waiting.isEmpty()
        && finished + dropped() + cancelledUnreleased == arrived;
  }

  /**
   * Jobs never released because a parent failed for good, was cancelled or never arrived (or on a
   * cycle), or because their workflow failed: the sum of the three causes below.
   */
  public long dropped() {
    return droppedByParent + droppedByWorkflow + orphans;
  }

  /** Jobs dropped because a parent (or an ancestor) failed for good or was cancelled. */
  public long droppedByParent() {
    return droppedByParent;
  }

  /** Jobs dropped under FAIL_WORKFLOW because another job of their workflow failed. */
  public long droppedByWorkflow() {
    return droppedByWorkflow;
  }

  /** Jobs dropped because a parent never arrived (or on a cycle). */
  public long orphans() {
    return orphans;
  }

  /** Why a dropped job was dropped ("parent X failed", …); null if it was not dropped. */
  public String reason(String jobId) {
    return reasons.get(jobId);
  }

  /** Jobs cancelled before they were released (waiting for parents or their stage). */
  public long cancelledUnreleased() {
    return cancelledUnreleased;
  }

  /**
   * Cancels that found their job ended (completed, failed, dropped or cancelled), counting those
   * due after the last job ended: the run stops there, and each of them could only find its job
   * ended.
   */
  public long cancelsTooLate() {
    return cancelsTooLate + (done() ? cancelsDue - cancelsRun : 0);
  }

  /** Jobs that arrived and still wait for a parent. */
  public int waitingForParents() {
    return waiting.size();
  }

  public long arrived() {
    return arrived;
  }

  public long released() {
    return released;
  }

  public long finishedCount() {
    return finished;
  }

  public double firstArrival() {
    return firstArrival;
  }

  public double lastArrival() {
    return lastArrival;
  }

  private void scheduleNext() {
    if (lookahead == null && jobs.hasNext()) {
      lookahead = jobs.next();
    }
    if (lookahead != null) {
      double t = lookahead.arrival();
      events.schedule(t, () -> arrive(t));
    }
  }

  private void arrive(double now) {
    while (lookahead != null && lookahead.arrival() == now) {
      TraceJob job = lookahead;
      lookahead = jobs.hasNext() ? jobs.next() : null;
      arrived++;
      if (Double.isNaN(firstArrival)) {
        firstArrival = now;
      }
      lastArrival = now;
      counts(job.stage())[0]++;
      if (job.stage() > 0) {
        stageOf.put(job.jobId(), job.stage());
      }
      if (job.cancelAfter() != null) {
        scheduleCancel(job.jobId(), now + job.cancelAfter());
      }
      if (job.parents().isEmpty() || parentsDone(job)) {
        admitStage(job, now);
      }
    }
    if (heldCount > 0) {
      releaseStages(now);
    }
    scheduleNext();
    dropOrphans(now);
  }

  private void scheduleCancel(String jobId, double at) {
    cancelsDue++;
    events.schedule(at, () -> cancel(jobId, at));
  }

  /**
   * The user cancels {@code jobId} now. Not released yet: it never is, and the jobs that wait on it
   * fail (its workflow too, under FAIL_WORKFLOW). Released and not ended: the sink stops it. Ended
   * or dropped already: nothing happens.
   */
  private void cancel(String jobId, double now) {
    cancelsRun++;
    if (completedIds.contains(jobId) || failedIds.contains(jobId)) {
      cancelsTooLate++;
      return;
    }
    Waiting w = waiting.remove(jobId);
    if (w != null) {
      w.dropped = true; // its parents' child lists still hold it
    } else if (!removeHeld(jobId)) {
      sink.cancelReleased(jobId, now); // comes back through finished(…, CANCELLED, …)
      return;
    }
    cancelledUnreleased++;
    failedIds.add(jobId);
    cancelledIds.add(jobId);
    Integer stage = stageOf.remove(jobId);
    counts(stage == null ? 0 : stage)[1]++;
    failed(jobId);
    if (heldCount > 0) {
      releaseStages(now);
    }
    dropOrphans(now);
  }

  /** Takes {@code jobId} out of the jobs held for their stage; false if it is not held. */
  private boolean removeHeld(String jobId) {
    if (heldCount == 0) {
      return false;
    }
    for (ArrayDeque<TraceJob> q : held) {
      if (q.removeIf(j -> j.jobId().equals(jobId))) {
        heldCount--;
        return true;
      }
    }
    return false;
  }

  /** {@code jobId} failed for good or was cancelled: what waits on it fails, and maybe more. */
  private void failed(String jobId) {
    String why = jobId + (cancelledIds.contains(jobId) ? " cancelled" : " failed");
    dropWaitingOn(jobId, "parent " + why);
    if (workflows != null && workflows.fail(jobId, why)) {
      for (String id : workflows.sameWorkflow(jobId, List.copyOf(waiting.keySet()))) {
        Waiting w = waiting.get(id);
        if (w != null) { // a drop above may have taken it already
          dropInWorkflow(w.job, why);
        }
      }
      for (ArrayDeque<TraceJob> q : held) {
        for (TraceJob j : List.copyOf(q)) {
          String wf = workflows.failure(j.jobId());
          if (wf != null) {
            q.remove(j);
            heldCount--;
            dropInWorkflow(j, wf);
          }
        }
      }
    }
  }

  /**
   * True if every parent already completed. Otherwise the job is dropped (a parent failed for good
   * or was cancelled, or its workflow failed) or waits for its parents' completions; false.
   */
  private boolean parentsDone(TraceJob job) {
    Set<String> parents = new LinkedHashSet<>(job.parents());
    if (workflows != null) {
      for (String p : parents) {
        workflows.join(job.jobId(), p);
      }
    }
    for (String p : parents) {
      if (failedIds.contains(p)) {
        dropByParent(job, "parent " + p + (cancelledIds.contains(p) ? " cancelled" : " failed"));
        return false;
      }
    }
    String wf = workflows == null ? null : workflows.failure(job.jobId());
    if (wf != null) {
      dropInWorkflow(job, wf);
      return false;
    }
    Waiting w = new Waiting(job);
    for (String p : parents) {
      if (!completedIds.contains(p)) {
        w.missing++;
        childrenOf.computeIfAbsent(p, k -> new ArrayList<>(2)).add(w);
      }
    }
    if (w.missing == 0) {
      return true;
    }
    waiting.put(job.jobId(), w);
    return false;
  }

  /**
   * The job's parents are done: stage 0 is released now, later stages wait for earlier ones. A job
   * whose workflow failed before it arrived (a child that arrived first linked it) is dropped.
   */
  private void admitStage(TraceJob job, double now) {
    String wf = workflows == null ? null : workflows.failure(job.jobId());
    if (wf != null) {
      dropInWorkflow(job, wf);
    } else if (job.stage() == 0) {
      release(job, now);
    } else {
      while (held.size() <= job.stage()) {
        held.add(new ArrayDeque<>());
      }
      held.get(job.stage()).add(job);
      heldCount++;
    }
  }

  private void dropByParent(TraceJob job, String reason) {
    if (drop(job, reason)) {
      droppedByParent++;
      dropWaitingOn(job.jobId(), "parent " + job.jobId() + " failed");
    }
  }

  /** Its workflow failed ({@code why}: "X failed"); its own descendants fail by their parent. */
  private void dropInWorkflow(TraceJob job, String why) {
    if (drop(job, "workflow failed: " + why)) {
      droppedByWorkflow++;
      dropWaitingOn(job.jobId(), "parent " + job.jobId() + " failed");
    }
  }

  /**
   * Drops every job waiting on {@code id}, transitively (a worklist, as a chain can be as long as
   * the trace): its children for {@code why}, theirs for "parent C failed".
   */
  private void dropWaitingOn(String id, String why) {
    ArrayDeque<String[]> todo = new ArrayDeque<>();
    todo.add(new String[] {id, why});
    while (!todo.isEmpty()) {
      String[] next = todo.poll();
      List<Waiting> children = childrenOf.remove(next[0]);
      if (children == null) {
        continue;
      }
      for (Waiting c : children) {
        if (!c.dropped && drop(c.job, next[1])) {
          droppedByParent++;
          todo.add(new String[] {c.job.jobId(), "parent " + c.job.jobId() + " failed"});
        }
      }
    }
  }

  /**
   * Marks an unreleased job ended without running, for {@code reason}; false if it already was.
   * Its stage counts it finished, so later stages are not held for it.
   */
  private boolean drop(TraceJob job, String reason) {
    Waiting w = waiting.remove(job.jobId());
    if (w != null) {
      w.dropped = true;
    }
    if (!failedIds.add(job.jobId())) {
      return false; // already dropped
    }
    reasons.put(job.jobId(), reason);
    Integer stage = stageOf.remove(job.jobId());
    counts(stage == null ? 0 : stage)[1]++;
    return true;
  }

  /**
   * The stream is exhausted and nothing released is still running: jobs still waiting wait for a
   * parent that never arrived (or for each other, on a cycle). They are dropped so the run ends.
   */
  private void dropOrphans(double now) {
    if (waiting.isEmpty() || released != finished || lookahead != null || jobs.hasNext()) {
      return;
    }
    for (Waiting w : List.copyOf(waiting.values())) {
      if (!w.dropped && drop(w.job, "a parent never arrived (or the parents form a cycle)")) {
        orphans++;
        dropWaitingOn(w.job.jobId(), "parent " + w.job.jobId() + " failed");
      }
    }
    if (heldCount > 0) {
      releaseStages(now);
    }
  }

  /** A job waiting for {@code missing} parents to complete. */
  private static final class Waiting {
    final TraceJob job;
    int missing;
    boolean dropped;

    Waiting(TraceJob job) {
      this.job = job;
    }
  }

  private void releaseStages(double now) {
    for (int s = 1; s < held.size(); s++) {
      long[] prev = counts(s - 1);
      if (prev[0] != prev[1] || (s > 1 && !held.get(s - 1).isEmpty())) {
        return; // stage s − 1 still running (or not yet released): later stages wait too
      }
      ArrayDeque<TraceJob> q = held.get(s);
      while (!q.isEmpty()) {
        heldCount--;
        release(q.poll(), now);
      }
    }
  }

  private void release(TraceJob job, double now) {
    released++;
    sink.released(job, now);
  }

  private long[] counts(int stage) {
    while (stageCounts.size() <= stage) {
      stageCounts.add(new long[2]);
    }
    return stageCounts.get(stage);
  }
}
