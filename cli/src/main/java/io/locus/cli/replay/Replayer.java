package io.locus.cli.replay;

import io.locus.schemas.JobSubmitted;
import io.locus.schemas.TaskEvent;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;

/**
 * The workflow engine of {@code locus replay}. It walks the workload in arrival order and
 * publishes each job when it is due ({@code arrival / speedup} after the start, or after its
 * stage's release) and, for a job with parents, once all of them completed ({@link DagGate});
 * staged traces (STAGES18) release a stage when every earlier job completed. Completions come
 * from a {@link TaskEventFeed} made before the first publish. With {@code waitForCompletion} it
 * ends only when every published job completed; it gives up when it could only go on through
 * completions and none came for {@code timeout}, or when jobs wait for parents that nothing can
 * complete any more.
 */
public final class Replayer {
  /**
   * @param speedup trace seconds per real second; 0 = as fast as possible
   * @param limit publish at most this many jobs; negative = all
   * @param waitForCompletion wait until every published job completed
   * @param timeout the longest the replay waits for a completion when nothing else can move it
   */
  public record Settings(double speedup, long limit, boolean waitForCompletion,
      Duration timeout) {}

  /**
   * How it ended.
   *
   * @param problem null when every job was published (and, when waiting, completed); else what
   *     went wrong, in one sentence
   */
  public record Outcome(Summary summary, String problem) {
    public boolean ok() {
      return problem == null;
    }
  }

  private final Workload workload;
  private final Function<TraceJob, String> poolOf;
  private final Settings settings;
  private final AckedPublisher publisher;
  private final TaskEventFeed feed;
  private final Progress progress;
  private final PrintWriter out;
  private final long total;

  private final DagGate gate = new DagGate();
  private final RunStats stats = new RunStats();
  private final java.util.Set<String> pools = new java.util.LinkedHashSet<>();

  /**
   * @param feed the task events of the pools (made before this); null when not waiting and the
   *     workload has neither parents nor stages
   * @param total jobs to publish (from the {@link WorkloadScan}), for the progress bar
   */
  public Replayer(Workload workload, Function<TraceJob, String> poolOf, Settings settings,
      AckedPublisher publisher, TaskEventFeed feed, Progress progress, PrintWriter out,
      long total) {
    this.workload = workload;
    this.poolOf = poolOf;
    this.settings = settings;
    this.publisher = publisher;
    this.feed = feed;
    this.progress = progress;
    this.out = out;
    this.total = total;
  }

  public Outcome run() throws InterruptedException {
    Iterator<TraceJob> it = workload.iterator();
    TraceJob next = it.hasNext() ? it.next() : null;
    long published = 0;
    int stage = 0;
    long clockStart = System.nanoTime();
    long lastMove = clockStart;
    String problem = null;
    while (true) {
      long now = System.nanoTime();
      if (drainEvents(now)) {
        lastMove = now;
      }
      collectFailures();
      // Publish what is due and allowed.
      while (next != null) {
        if (settings.limit() >= 0 && published >= settings.limit()) {
          next = null;
          break;
        }
        if (next.stage() > stage) {
          if (inFlight() > 0 || gate.waiting() > 0) {
            break; // stage barrier: the previous stages are still running
          }
          if (stage > 0 || stats.submittedCount() > 0) {
            out.printf("stage %d released: the %d jobs before it completed%n", next.stage(),
                stats.completedCount());
            out.flush();
          }
          stage = next.stage();
          clockStart = now;
        }
        if (settings.speedup() > 0
            && now < clockStart + (long) (next.arrival() / settings.speedup() * 1e9)) {
          break;
        }
        String pool = poolOf.apply(next);
        if (gate.admit(next, pool)) {
          publish(next, pool);
        }
        published++;
        lastMove = now;
        next = it.hasNext() ? it.next() : null;
        if ((published & 1023) == 0) {
          // as fast as possible, a big trace stays in this loop for a while: keep the bar alive
          progress.update(System.nanoTime(), stats.submittedCount(),
              feed == null ? -1 : stats.completedCount(), total);
        }
      }
      boolean allOut = next == null && gate.waiting() == 0;
      if (allOut && (feed == null || !settings.waitForCompletion() || inFlight() == 0)) {
        break;
      }
      // Only completions can move the replay from here on?
      boolean blocked = next == null || next.stage() > stage;
      if (blocked && inFlight() == 0 && gate.waiting() > 0) {
        problem = gate.waiting() + " job(s) wait for parents that did not complete and cannot any"
            + " more: " + gate.describeWaiting(5);
        break;
      }
      if (blocked && now - lastMove > settings.timeout().toNanos()) {
        problem = "no job completed for " + settings.timeout().toSeconds() + " s: "
            + inFlight() + " job(s) published and not completed"
            + (gate.waiting() > 0 ? ", " + gate.waiting() + " waiting for their parents" : "")
            + (next != null ? ", " + (total - published) + " not published yet" : "")
            + "; are the scheduler and agents running for pool(s) " + poolsHint() + "?";
        break;
      }
      progress.update(now, stats.submittedCount(), feed == null ? -1 : stats.completedCount(),
          total);
      long waitNs = 50_000_000L;
      if (next != null && !blocked && settings.speedup() > 0) {
        long due = clockStart + (long) (next.arrival() / settings.speedup() * 1e9);
        waitNs = Math.max(0, Math.min(waitNs, due - now));
      }
      waitForEvent(waitNs);
    }
    publisher.flush();
    collectFailures();
    drainEvents(System.nanoTime());
    progress.finish(System.nanoTime(), stats.submittedCount(),
        feed == null ? -1 : stats.completedCount(), total);
    Summary s = stats.summary(workload.name(), total, publisher.failed());
    if (publisher.failed() > 0) {
      String failed = publisher.failed() + " of " + publisher.sent()
          + " job(s) were not accepted by Kafka (" + String.join("; ", publisher.reasons()) + ")";
      problem = problem == null ? failed : failed + "; " + problem;
    }
    return new Outcome(s, problem);
  }

  /** Jobs published and not completed. */
  private long inFlight() {
    return stats.submittedCount() - stats.completedCount();
  }

  private String poolsHint() {
    return pools.toString();
  }

  private void publish(TraceJob job, String pool) {
    long t = System.currentTimeMillis();
    JobSubmitted record = JobRecords.toJob(job, pool, t);
    stats.submitted(job.jobId(), pool, t);
    pools.add(pool);
    publisher.send(record);
  }

  private void collectFailures() {
    for (AckedPublisher.Failure f : publisher.takeFailed()) {
      stats.unpublished(f.jobId());
    }
  }

  private TaskEvent pending;

  private void waitForEvent(long nanos) throws InterruptedException {
    if (feed == null) {
      if (nanos > 0) {
        java.util.concurrent.locks.LockSupport.parkNanos(nanos);
      }
      return;
    }
    if (pending == null) {
      pending = feed.poll(Duration.ofNanos(nanos));
    }
  }

  /** Applies every event at hand; true when one of the replay's jobs completed. */
  private boolean drainEvents(long now) throws InterruptedException {
    if (feed == null) {
      return false;
    }
    boolean moved = false;
    TaskEvent e = pending != null ? pending : feed.poll(Duration.ZERO);
    pending = null;
    for (; e != null; e = feed.poll(Duration.ZERO)) {
      if (stats.apply(e)) {
        moved = true;
        for (DagGate.Released r : gate.completed(e.getTaskId())) {
          publish(r.job(), r.pool());
        }
      }
    }
    return moved;
  }
}
