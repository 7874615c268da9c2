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
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

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

  /** The most dead letters without a readable job whose source record is looked up. */
  static final int MAX_LOOKUPS = 500;

  /**
   * The latest dead letter of a job-arrivals record of {@code job}, or null. A dead letter that
   * carries the record (the input validation's) names the job itself; one that does not (the
   * scheduler's own refusals, such as {@code unknown-pool}, carry only the place) or carries it
   * cut is matched by reading the record at that place of job-arrivals, for the latest
   * {@link #MAX_LOOKUPS} of them whose key is the job's pool.
   */
  static DeadLetter refusal(Properties reader, JobRef job, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    DeadLetter[] latest = new DeadLetter[1];
    java.util.ArrayDeque<DeadLetter> placeOnly = new java.util.ArrayDeque<>();
    byte[] poolKey = Topics.JOB_ARRIVALS.key(job.pool());
    readWhole(reader, Topics.DEAD_LETTERS, timeout, d -> {
      if (!Topics.JOB_ARRIVALS.name().equals(d.getSourceTopic())) {
        return;
      }
      JobSubmitted j = d.getValue() == null ? null : decodeOrNull(toBytes(d.getValue()));
      if (j != null) {
        if (job.pool().equals(j.getPool()) && job.jobId().equals(j.getJobId())) {
          latest[0] = d;
        }
      } else if (d.getKey() == null || java.util.Arrays.equals(toBytes(d.getKey()), poolKey)) {
        placeOnly.addLast(d);
        if (placeOnly.size() > MAX_LOOKUPS) {
          placeOnly.removeFirst();
        }
      }
    });
    if (latest[0] != null || placeOnly.isEmpty()) {
      return latest[0];
    }
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(reader)) {
      // newest first: the first match is the latest refusal
      for (java.util.Iterator<DeadLetter> it = placeOnly.descendingIterator(); it.hasNext(); ) {
        DeadLetter d = it.next();
        JobSubmitted j = recordAt(c, d.getPartition(), d.getOffset(), deadline);
        if (j != null && job.pool().equals(j.getPool()) && job.jobId().equals(j.getJobId())) {
          return d;
        }
      }
    } catch (org.apache.kafka.common.errors.AuthorizationException e) {
      // A submitter may write job-arrivals without reading it: these refusals cannot be told
      // apart then, and the job is reported as unknown, as without them.
    }
    return null;
  }

  /** The job at {@code offset} of a job-arrivals partition, or null (gone, or not a job). */
  private static JobSubmitted recordAt(KafkaConsumer<byte[], byte[]> c, int partition,
      long offset, long deadlineNanos) {
    TopicPartition tp = new TopicPartition(Topics.JOB_ARRIVALS.name(), partition);
    if (offset >= c.endOffsets(List.of(tp)).getOrDefault(tp, 0L)) {
      return null; // beyond the end: a dead letter of another cluster's topic
    }
    c.assign(List.of(tp));
    c.seek(tp, offset);
    while (System.nanoTime() < deadlineNanos) {
      for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
        // The record, or (retention deleted it; the consumer starts at the earliest) a later
        // one: either way, done.
        return r.offset() == offset && r.value() != null ? decodeOrNull(r.value()) : null;
      }
    }
    throw new TimedOut("looking up refused records on " + Topics.JOB_ARRIVALS.name()
        + " did not finish within the --timeout");
  }

  private static JobSubmitted decodeOrNull(byte[] value) {
    try {
      return Topics.JOB_ARRIVALS.decode(value);
    } catch (RuntimeException corrupt) {
      return null; // a record that never was a job (a "corrupt" dead letter), or one cut short
    }
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
