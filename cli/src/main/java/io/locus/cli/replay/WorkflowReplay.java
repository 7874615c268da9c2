package io.locus.cli.replay;

import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.WorkflowFailurePolicy;
import io.locus.schemas.WorkflowState;
import io.locus.schemas.WorkflowStatus;
import io.locus.schemas.WorkflowSubmitted;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * {@code locus replay} of a trace whose jobs have parents: the whole DAG is published once, as
 * {@code WorkflowSubmitted} parts on {@code workflows}, and the scheduler job runs it (its
 * workflow runner releases each job when its parents completed, and applies the failure policy):
 * this process may exit at once. When it waits, it follows the scheduler's verdicts for its own
 * workflow ({@link SubmissionWatch}, made before publishing) and ends as soon as they decide:
 * 0 on SUCCEEDED; a problem, at once, on REFUSED, on a job of the workflow FAILED or CANCELLED
 * (the scheduler's reason; with FAIL_DESCENDANTS the rest of the workflow runs on without this
 * process), or on a dead letter about one of its parts or about a job of its workflow that the
 * scheduler refused when it was released (say, {@code duplicate-job}: a pool already has a job
 * of that id, from an earlier run of the same trace). It gives up only when nothing about the
 * workflow moved for {@code timeout}. Task events ({@link TaskEventFeed}) feed the summary.
 */
public final class WorkflowReplay {
  /** How long a SUCCEEDED workflow waits for the task events of its last completions. */
  private static final Duration SUMMARY_GRACE = Duration.ofSeconds(10);

  /**
   * @param workflowId the workflow's id (printed; a replay of the same trace needs a new one)
   * @param limit submit at most this many jobs; negative = all (parents must be within it)
   * @param follow follow the workflow to its end
   * @param timeout the longest the replay waits with nothing about the workflow moving
   */
  public record Settings(String workflowId, WorkflowFailurePolicy onFailure, long limit,
      boolean follow, Duration timeout) {}

  private final Workload workload;
  private final Function<TraceJob, String> poolOf;
  private final Settings settings;
  private final AckedPublisher publisher;
  private final SubmissionWatch watch;
  private final TaskEventFeed feed;
  private final Progress progress;
  private final PrintWriter out;
  private final RunStats stats = new RunStats();
  private final List<DeadLetter> deadLetters = new ArrayList<>();
  private long total;

  /**
   * @param watch made before this (null when not waiting)
   * @param feed made before this (null when not waiting)
   */
  public WorkflowReplay(Workload workload, Function<TraceJob, String> poolOf, Settings settings,
      AckedPublisher publisher, SubmissionWatch watch, TaskEventFeed feed, Progress progress,
      PrintWriter out) {
    this.workload = workload;
    this.poolOf = poolOf;
    this.settings = settings;
    this.publisher = publisher;
    this.watch = watch;
    this.feed = feed;
    this.progress = progress;
    this.out = out;
  }

  public Replayer.Outcome run() throws InterruptedException {
    String id = settings.workflowId();
    long now = System.currentTimeMillis();
    List<JobSubmitted> jobs = new ArrayList<>();
    for (TraceJob t : workload) {
      if (settings.limit() >= 0 && jobs.size() >= settings.limit()) {
        break;
      }
      String pool = poolOf.apply(t);
      jobs.add(JobSubmitted.newBuilder(JobRecords.toJob(t, pool, now))
          .setParents(new ArrayList<>(t.parents())).build());
      stats.submitted(t.jobId(), pool, now);
    }
    total = jobs.size();
    List<WorkflowSubmitted> parts = WorkflowParts.of(id, jobs, settings.onFailure(), now, null,
        WorkflowParts.PART_BYTES);
    for (WorkflowSubmitted p : parts) {
      publisher.send(Topics.WORKFLOWS, id, p, "'" + id + "' part " + p.getPart());
    }
    publisher.flush();
    if (publisher.failed() > 0) {
      return new Replayer.Outcome(summary(), publisher.failed() + " of " + parts.size()
          + " part(s) of workflow " + id + " were not accepted by Kafka ("
          + String.join("; ", publisher.reasons()) + ")");
    }
    out.printf("workflow %s: %d jobs in %d part(s) published to %s%n", id, jobs.size(),
        parts.size(), Topics.WORKFLOWS.name());
    out.flush();
    if (!settings.follow()) {
      return new Replayer.Outcome(summary(), null);
    }
    String problem = follow(id);
    progress.finish(System.nanoTime(), total, stats.completedCount(), total);
    return new Replayer.Outcome(summary(), problem);
  }

  /** Follows the workflow until it is decided; null when it SUCCEEDED, else why not. */
  private String follow(String id) throws InterruptedException {
    long lastMove = System.nanoTime();
    String last = "no status yet";
    while (true) {
      long nowNs = System.nanoTime();
      if (drainTaskEvents()) {
        lastMove = nowNs;
      }
      for (Object e = watch.poll(Duration.ofMillis(50)); e != null;
          e = watch.poll(Duration.ZERO)) {
        lastMove = System.nanoTime();
        if (e instanceof WorkflowStatus s) {
          last = s.getState() + ", " + s.getCompleted() + " of " + s.getJobs() + " completed";
          if (s.getState() == WorkflowState.SUCCEEDED) {
            awaitSummary();
            out.printf("workflow %s succeeded: %d jobs completed%n", id, s.getCompleted());
            return null;
          }
          if (s.getState() == WorkflowState.REFUSED) {
            return "workflow " + id + " was refused by the scheduler: " + s.getReason();
          }
          if (s.getState() == WorkflowState.FAILED) {
            return "workflow " + id + " failed: " + s.getReason();
          }
        } else if (e instanceof JobStatus js) {
          if (js.getState() == JobState.QUEUED) {
            stats.released(js.getJobId(), js.getSubmitTimeMs());
          } else if (js.getState() == JobState.FAILED || js.getState() == JobState.CANCELLED) {
            return "job " + js.getJobId() + " of workflow " + id + " "
                + (js.getState() == JobState.CANCELLED ? "was cancelled" : "failed")
                + (js.getReason().isEmpty() ? "" : ": " + js.getReason());
          }
        } else if (e instanceof DeadLetter d) {
          deadLetters.add(d);
        }
      }
      for (DeadLetter d : deadLetters) {
        String own = SubmissionWatch.ownDeadLetter(d, publisher, id);
        if (own != null) {
          return own;
        }
      }
      if (deadLetters.size() > 10_000) {
        deadLetters.subList(0, 5_000).clear();
      }
      if (System.nanoTime() - lastMove > settings.timeout().toNanos()) {
        return "nothing about workflow " + id + " moved for " + settings.timeout().toSeconds()
            + " s (" + last + "); is the scheduler job running, and are agents registered?";
      }
      progress.update(System.nanoTime(), total, stats.completedCount(), total);
    }
  }

  /** The completions of the last jobs may trail the workflow's status: wait for them, briefly. */
  private void awaitSummary() throws InterruptedException {
    long deadline = System.nanoTime() + SUMMARY_GRACE.toNanos();
    while (stats.completedCount() < total && System.nanoTime() < deadline) {
      TaskEvent e = feed.poll(Duration.ofMillis(100));
      if (e != null) {
        stats.apply(e);
      }
    }
  }

  private boolean drainTaskEvents() throws InterruptedException {
    boolean moved = false;
    for (TaskEvent e; (e = feed.poll(Duration.ZERO)) != null; ) {
      moved |= stats.apply(e);
    }
    return moved;
  }

  private Summary summary() {
    return stats.summary(workload.name(), total, publisher.failed());
  }
}
