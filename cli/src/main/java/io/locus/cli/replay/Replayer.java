package io.locus.cli.replay;

import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
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
 * The publisher of {@code locus replay} for a trace of independent jobs (a trace whose jobs have
 * parents is a workflow: {@link WorkflowReplay} submits it, the scheduler job runs it). It walks
 * the workload in arrival order and publishes each job when it is due ({@code arrival / speedup}
 * after the start, or after its stage's release); staged traces (STAGES18) release a stage when
 * every earlier job completed. Completions come from a {@link TaskEventFeed} made before the
 * first publish. With {@code waitForCompletion} it ends only when every published job completed;
 * it gives up when it could only go on through completions and none came for {@code timeout},
 * and at once when the scheduler refuses one of its jobs (a dead letter) or a job fails or is
 * cancelled for good (job-status), as a {@link SubmissionWatch} made before the first publish
 * reports.
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
  private final SubmissionWatch watch;
  private final List<DeadLetter> deadLetters = new ArrayList<>();

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
    this(workload, poolOf, settings, publisher, feed, null, progress, out, total);
  }

  /**
   * @param watch the scheduler's verdicts on the replay's jobs (made before this), to fail fast;
   *     null when not waiting
   */
  public Replayer(Workload workload, Function<TraceJob, String> poolOf, Settings settings,
      AckedPublisher publisher, TaskEventFeed feed, SubmissionWatch watch, Progress progress,
      PrintWriter out, long total) {
    this.watch = watch;
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
      problem = verdicts();
      if (problem != null) {
        break;
      }
      // Publish what is due and allowed.
      while (next != null) {
        if (settings.limit() >= 0 && published >= settings.limit()) {
          next = null;
          break;
        }
        if (next.stage() > stage) {
          if (inFlight() > 0) {
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
        if (!next.parents().isEmpty()) {
          throw new IllegalArgumentException("job " + next.jobId() + " has parents: a workflow"
              + " is submitted whole (WorkflowReplay), not job by job");
        }
        publish(next, poolOf.apply(next));
        published++;
        lastMove = now;
        next = it.hasNext() ? it.next() : null;
        if ((published & 1023) == 0) {
          // as fast as possible, a big trace stays in this loop for a while: keep the bar alive
          progress.update(System.nanoTime(), stats.submittedCount(),
              feed == null ? -1 : stats.completedCount(), total);
        }
      }
      boolean allOut = next == null;
      if (allOut && (feed == null || !settings.waitForCompletion() || inFlight() == 0)) {
        break;
      }
      // Only completions can move the replay from here on?
      boolean blocked = next == null || next.stage() > stage;
      if (blocked && now - lastMove > settings.timeout().toNanos()) {
        problem = "no job completed for " + settings.timeout().toSeconds() + " s: "
            + inFlight() + " job(s) published and not completed"
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

  /**
   * The first verdict of the scheduler that ends the replay: a dead letter about one of its
   * records, or one of its jobs failed or cancelled for good; null when there is none (yet).
   */
  private String verdicts() throws InterruptedException {
    if (watch == null) {
      return null;
    }
    for (Object e; (e = watch.poll(Duration.ZERO)) != null; ) {
      if (e instanceof DeadLetter d) {
        deadLetters.add(d);
      } else if (e instanceof JobStatus js && stats.isSubmitted(js.getJobId(),
          js.getPool())) {
        return "job " + js.getJobId() + " of pool " + js.getPool() + " "
            + (js.getState() == JobState.CANCELLED ? "was cancelled" : "failed")
            + (js.getReason().isEmpty() ? "" : ": " + js.getReason());
      }
    }
    // a dead letter can come before the acknowledgement of its record: kept until matched
    for (DeadLetter d : deadLetters) {
      String own = SubmissionWatch.ownDeadLetter(d, publisher);
      if (own != null) {
        return own;
      }
    }
    if (deadLetters.size() > 10_000) {
      deadLetters.subList(0, 5_000).clear(); // others' dead letters: keep the recent ones
    }
    return null;
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
      moved |= stats.apply(e);
    }
    return moved;
  }
}
