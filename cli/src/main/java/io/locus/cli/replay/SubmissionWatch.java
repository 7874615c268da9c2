package io.locus.cli.replay;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.WorkflowStatus;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * What the scheduler says about a replay's own submissions, from the moment the watch was made
 * (like {@link TaskEventFeed}, the constructor returns once every partition is positioned at its
 * end, so a replay that makes it before publishing misses nothing): {@code workflow-status} of
 * its workflow, {@code job-status} of its pools (final states, and every state of its workflow's
 * jobs), and {@code dead-letters} about records of {@code job-arrivals} and {@code workflows}.
 * Which of them are the replay's own is decided by the reader ({@link AckedPublisher#idAt} for a
 * dead letter's coordinates): this only filters out what cannot be. Needs READ on the three
 * topics (the submitter role has it).
 */
public final class SubmissionWatch implements AutoCloseable {
  private static final Duration POSITIONED = Duration.ofSeconds(30);
  private static final Set<String> SOURCES =
      Set.of(Topics.JOB_ARRIVALS.name(), Topics.WORKFLOWS.name());
  private static final Set<JobState> FINAL_BAD = Set.of(JobState.FAILED, JobState.CANCELLED);

  private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
  private final String workflowId;
  private final Set<String> pools;
  private final TopicTail tail;

  /**
   * @param workflowId the replay's workflow, or null for a plain trace
   * @param pools the pools of its jobs
   * @throws org.apache.kafka.common.KafkaException when a topic cannot be followed
   */
  public SubmissionWatch(Properties client, String workflowId, Set<String> pools) {
    this.workflowId = workflowId;
    this.pools = Set.copyOf(pools);
    Map<String, Object> overrides = new HashMap<>();
    client.forEach((k, v) -> overrides.put(String.valueOf(k), v));
    Properties p = ClientConfigs.withOverrides(
        ClientConfigs.consumer("unused", null, false), overrides);
    tail = TopicTail.builder(p)
        .name("replay-submission-watch")
        .from(TopicTail.Start.end())
        .follow(Topics.WORKFLOW_STATUS, (s, meta) -> {
          if (s.getWorkflowId().equals(workflowId)) {
            events.add(s);
          }
        })
        .follow(Topics.JOB_STATUS, (s, meta) -> {
          boolean mine = workflowId != null ? workflowId.equals(s.getWorkflow())
              : s.getWorkflow() == null && FINAL_BAD.contains(s.getState());
          if (mine && this.pools.contains(s.getPool())) {
            events.add(s);
          }
        })
        .follow(Topics.DEAD_LETTERS, (d, meta) -> {
          if (SOURCES.contains(d.getSourceTopic())) {
            events.add(d);
          }
        })
        .start();
    try {
      if (!tail.awaitPositioned(POSITIONED)) {
        throw new TimeoutException("no end offsets of " + Topics.WORKFLOW_STATUS.name() + ", "
            + Topics.JOB_STATUS.name() + " and " + Topics.DEAD_LETTERS.name() + " within "
            + POSITIONED.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      tail.close();
      throw new InterruptException(e);
    } catch (RuntimeException e) {
      tail.close();
      throw e;
    }
  }

  /** The workflow this watch follows, or null. */
  public String workflowId() {
    return workflowId;
  }

  /**
   * The next {@link WorkflowStatus}, {@link JobStatus} or {@link DeadLetter}, waiting at most
   * {@code timeout}; null when none came.
   *
   * @throws IllegalStateException when the consumer failed (say, no READ on a topic)
   */
  public Object poll(Duration timeout) throws InterruptedException {
    Object e = events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    RuntimeException failure = tail.failure();
    if (e == null && failure != null) {
      throw new IllegalStateException("following the scheduler's status topics failed: "
          + failure.getMessage(), failure);
    }
    return e;
  }

  /**
   * The problem a dead letter names for one of {@code publisher}'s records, or null when it is
   * not about one of them (yet: a dead letter can come before the acknowledgement; ask again).
   */
  public static String ownDeadLetter(DeadLetter d, AckedPublisher publisher) {
    return ownDeadLetter(d, publisher, null);
  }

  /**
   * As {@link #ownDeadLetter(DeadLetter, AckedPublisher)}, and also a job of workflow {@code
   * workflowId} that the scheduler refused when the workflow runner released it (its record is
   * the runner's, not the replay's: it is recognised by the {@code workflow} of the job the dead
   * letter carries), say a {@code duplicate-job} when a pool already has a job of that id.
   */
  public static String ownDeadLetter(DeadLetter d, AckedPublisher publisher, String workflowId) {
    String id = publisher.idAt(new AckedPublisher.Coordinates(d.getSourceTopic(),
        d.getPartition(), d.getOffset()));
    if (id == null && workflowId != null && d.getValue() != null
        && d.getSourceTopic().equals(Topics.JOB_ARRIVALS.name())) {
      id = releasedJob(d, workflowId);
    }
    if (id == null) {
      return null;
    }
    String what = d.getSourceTopic().equals(Topics.WORKFLOWS.name()) ? "workflow " : "job ";
    return "the scheduler refused " + what + id + " (dead letter " + d.getCode() + "): "
        + d.getReason();
  }

  /** The id of the job of {@code workflowId} the dead letter carries, or null. */
  private static String releasedJob(DeadLetter d, String workflowId) {
    byte[] value = new byte[d.getValue().remaining()];
    d.getValue().duplicate().get(value);
    try {
      var job = Topics.JOB_ARRIVALS.decode(value);
      return workflowId.equals(job.getWorkflow()) ? job.getJobId() : null;
    } catch (RuntimeException e) {
      return null; // cut to 64 KiB, or not a job: not recognisably the replay's
    }
  }

  @Override
  public void close() {
    tail.close();
  }
}
