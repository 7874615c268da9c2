package io.locus.cli.job;

import io.locus.kafka.TopicSpec;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;

/**
 * Reads what the scheduler said about jobs: the compacted job-status topic, every partition from
 * its beginning to the end it had when reading began (a bounded {@link TopicTail}, no group,
 * committed records only). Compaction keeps at least each job's latest transition; the earlier
 * ones are there until the broker compacts them away.
 */
final class StatusTopic {
  /** Per job ({@code pool/jobId}), its transitions in order (or only the latest). */
  final Map<String, List<JobStatus>> jobs = new LinkedHashMap<>();
  long undecodable;

  /** Reading did not reach the end within the timeout (exit 3, as any answer that did not come). */
  static final class TimedOut extends IllegalStateException {
    TimedOut(String message) {
      super(message);
    }
  }

  private StatusTopic() {}

  /**
   * The jobs {@code keep} accepts, each with every transition read ({@code history}) or its latest.
   *
   * @throws IllegalStateException when reading fails ({@link TimedOut}: does not finish within
   *     {@code timeout})
   */
  static StatusTopic read(Properties reader, Predicate<JobStatus> keep, boolean history,
      Duration timeout) {
    StatusTopic t = new StatusTopic();
    t.undecodable = readWhole(reader, Topics.JOB_STATUS, timeout, s -> {
      if (keep.test(s)) {
        List<JobStatus> seen = t.jobs.computeIfAbsent(
            Topics.jobStatusKey(s.getPool(), s.getJobId()), k -> new ArrayList<>());
        if (!history) {
          seen.clear();
        }
        seen.add(s);
      }
    });
    return t;
  }

  /** The latest dead letter of a job-arrivals record of {@code job}, or null. */
  static DeadLetter refusal(Properties reader, JobRef job, Duration timeout) {
    DeadLetter[] latest = new DeadLetter[1];
    readWhole(reader, Topics.DEAD_LETTERS, timeout, d -> {
      if (!Topics.JOB_ARRIVALS.name().equals(d.getSourceTopic().toString())
          || d.getValue() == null) {
        return;
      }
      JobSubmitted j;
      try {
        j = Topics.JOB_ARRIVALS.decode(toBytes(d.getValue()));
      } catch (RuntimeException corrupt) {
        return; // a record that never was a job (a "corrupt" dead letter) names no job
      }
      if (job.pool().equals(j.getPool()) && job.jobId().equals(j.getJobId())) {
        latest[0] = d;
      }
    });
    return latest[0];
  }

  private static byte[] toBytes(java.nio.ByteBuffer b) {
    java.nio.ByteBuffer d = b.duplicate();
    byte[] out = new byte[d.remaining()];
    d.get(out);
    return out;
  }

  /** Reads {@code topic} to its end; returns the count of records that did not decode. */
  private static <V extends SpecificRecord> long readWhole(Properties reader, TopicSpec<V> topic,
      Duration timeout, java.util.function.Consumer<V> sink) {
    TopicTail tail = TopicTail.builder(reader)
        .name("locus-job-" + topic.name())
        .from(TopicTail.Start.beginning())
        .follow(topic, (v, meta) -> sink.accept(v))
        .untilEnd()
        .start();
    try (tail) {
      boolean done;
      try {
        done = tail.awaitStopped(timeout);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while reading " + topic.name(), e);
      }
      if (tail.failure() != null) {
        // e.g. no READ on the topic: Kafka's own words say which
        throw new IllegalStateException("reading " + topic.name() + " failed: "
            + tail.failure().getMessage(), tail.failure());
      }
      if (!done) {
        throw new TimedOut("reading " + topic.name() + " did not finish within "
            + timeout + " (--timeout)");
      }
      return tail.undecodable();
    }
  }
}
