package io.locus.cli.replay;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Publishes JobSubmitted records and counts what Kafka confirmed: an idempotent producer with
 * acks=all, a callback per record. A record counts as published only when the broker acknowledged
 * it; one Kafka refused (or never answered for) counts as failed, with the reason kept. The ids
 * of failed records are handed back ({@link #takeFailed}) so the replay stops waiting for them.
 */
public final class AckedPublisher implements AutoCloseable {
  /** A job Kafka did not take, and why. */
  public record Failure(String jobId, String reason) {}

  private final KafkaProducer<byte[], byte[]> producer;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong acked = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final ConcurrentLinkedQueue<Failure> failures = new ConcurrentLinkedQueue<>();
  private final List<String> reasons = java.util.Collections.synchronizedList(new ArrayList<>());

  /** @param client bootstrap servers and security settings */
  public AckedPublisher(Properties client) {
    Properties p = ClientConfigs.producer("unused");
    client.forEach((k, v) -> p.put(k, v));
    // What "confirmed" means here; a properties file cannot weaken it.
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
        org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
        org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
    producer = new KafkaProducer<>(p);
  }

  /** Sends {@code job}; the outcome arrives later through the counters. */
  public void send(JobSubmitted job) {
    String id = job.getJobId();
    sent.incrementAndGet();
    try {
      producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
          Topics.JOB_ARRIVALS.key(job.getPool()), Topics.JOB_ARRIVALS.value(job)),
          (meta, e) -> {
            if (e == null) {
              acked.incrementAndGet();
            } else {
              fail(id, e);
            }
          });
    } catch (RuntimeException e) {
      // e.g. the metadata of job-arrivals did not come within max.block.ms
      fail(id, e);
    }
  }

  private void fail(String id, Exception e) {
    failed.incrementAndGet();
    String reason = e.getClass().getSimpleName() + ": " + e.getMessage();
    failures.add(new Failure(id, reason));
    if (reasons.size() < 5 && !reasons.contains(reason)) {
      reasons.add(reason);
    }
  }

  /** Waits until every record sent so far is acknowledged or failed. */
  public void flush() {
    producer.flush();
  }

  /** Failures since the last call. */
  public List<Failure> takeFailed() {
    List<Failure> out = new ArrayList<>();
    for (Failure f; (f = failures.poll()) != null; ) {
      out.add(f);
    }
    return out;
  }

  public long sent() {
    return sent.get();
  }

  public long acked() {
    return acked.get();
  }

  public long failed() {
    return failed.get();
  }

  /** Up to five distinct reasons records failed. */
  public List<String> reasons() {
    synchronized (reasons) {
      return List.copyOf(reasons);
    }
  }

  @Override
  public void close() {
    producer.close(java.time.Duration.ofSeconds(10));
  }
}
