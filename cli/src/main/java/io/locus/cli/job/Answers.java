package io.locus.cli.job;

import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobStatus;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The scheduler's answers to records a command is about to send: the job-status transitions of
 * some jobs and the dead letters of records from some topics, from the end of both topics as it
 * is <em>before</em> the command sends anything (so no answer can slip past), on a
 * {@link TopicTail} thread; the command takes them in arrival order with {@link #next}.
 */
final class Answers implements AutoCloseable {
  /** A status of one of the jobs, or a dead letter of a record from one of the topics. */
  record Answer(JobStatus status, DeadLetter deadLetter) {}

  private final BlockingQueue<Answer> queue = new LinkedBlockingQueue<>();
  private final TopicTail tail;

  private Answers(Properties reader, Predicate<JobStatus> statuses, Set<String> sourceTopics) {
    tail = TopicTail.builder(reader)
        .name("locus-job-answers")
        .from(TopicTail.Start.end())
        .follow(Topics.JOB_STATUS, (s, meta) -> {
          if (statuses.test(s)) {
            queue.add(new Answer(s, null));
          }
        })
        .follow(Topics.DEAD_LETTERS, (d, meta) -> {
          if (sourceTopics.contains(d.getSourceTopic().toString())) {
            queue.add(new Answer(null, d));
          }
        })
        .start();
  }

  /**
   * Follows both topics from their end now; returns once positioned there.
   *
   * @throws IllegalStateException when not positioned within {@code timeout} (or the tail failed,
   *     e.g. no READ on one of the topics), saying so
   */
  static Answers open(Properties reader, Predicate<JobStatus> statuses, Set<String> sourceTopics,
      Duration timeout) {
    Answers a = new Answers(reader, statuses, sourceTopics);
    try {
      if (!a.tail.awaitPositioned(timeout)) {
        a.close();
        throw new IllegalStateException("could not start reading " + Topics.JOB_STATUS.name()
            + " and " + Topics.DEAD_LETTERS.name() + " within " + timeout);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      a.close();
      throw new IllegalStateException("interrupted", e);
    } catch (RuntimeException e) {
      a.close();
      throw new IllegalStateException("cannot read " + Topics.JOB_STATUS.name() + " and "
          + Topics.DEAD_LETTERS.name() + ": " + e.getMessage(), e);
    }
    return a;
  }

  /**
   * The next answer, or null when none came before {@code deadlineNanos} ({@link System#nanoTime}).
   *
   * @throws IllegalStateException when the reading failed
   */
  Answer next(long deadlineNanos) throws InterruptedException {
    while (true) {
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        return queue.poll();
      }
      // Bounded polls: a tail that fails meanwhile is reported, not waited out.
      Answer a = queue.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)),
          TimeUnit.NANOSECONDS);
      if (a != null) {
        return a;
      }
      if (tail.failure() != null) {
        throw new IllegalStateException("reading " + Topics.JOB_STATUS.name() + " and "
            + Topics.DEAD_LETTERS.name() + " failed: " + tail.failure().getMessage(),
            tail.failure());
      }
    }
  }

  @Override
  public void close() {
    tail.close();
  }
}
