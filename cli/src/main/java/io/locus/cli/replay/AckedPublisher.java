package io.locus.cli.replay;

import io.locus.agent.BrokerWatch;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Publishes JobSubmitted records (and a workflow's parts) and counts what Kafka confirmed: an
 * idempotent producer with acks=all, a callback per record. A record counts as published only
 * when the broker acknowledged it (where it landed is kept, so a dead letter about it is
 * recognised: {@link #idAt}); one Kafka refused (or never answered for) counts as failed, with
 * the reason kept. The ids of failed records are handed back ({@link #takeFailed}) so the replay stops waiting for them.
 * A broker outage the producer rides out is logged once when it starts and once when it ends
 * ({@link BrokerWatch}), so it is not silent.
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
  private final BrokerWatch watch;
  private final java.util.Map<Coordinates, String> landed =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final ScheduledExecutorService watchTimer;

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
    watch = new BrokerWatch("locus replay", p.getProperty(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "?"), BrokerWatch.DEFAULT_THRESHOLD,
        System::nanoTime);
    watchTimer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "replay-broker-watch");
      t.setDaemon(true);
      return t;
    });
    watchTimer.scheduleWithFixedDelay(watch::check, 1, 1, TimeUnit.SECONDS);
  }

  /** Where a record landed: a dead letter names its record by these. */
  public record Coordinates(String topic, int partition, long offset) {}

  /** Sends {@code job}; the outcome arrives later through the counters. */
  public void send(JobSubmitted job) {
    send(Topics.JOB_ARRIVALS, job.getPool(), job, job.getJobId());
  }

  /**
   * Sends {@code value} to {@code topic} with {@code key}; {@code id} names it in failures and in
   * {@link #idAt}. The outcome arrives later through the counters.
   */
  public <V extends org.apache.avro.specific.SpecificRecord> void send(
      io.locus.kafka.TopicSpec<V> topic, String key, V value, String id) {
    sent.incrementAndGet();
    watch.sent();
    try {
      producer.send(new ProducerRecord<>(topic.name(), topic.key(key), topic.value(value)),
          (meta, e) -> {
            if (e == null) {
              landed.put(new Coordinates(meta.topic(), meta.partition(), meta.offset()), id);
              watch.acked();
              acked.incrementAndGet();
            } else {
              watch.failed(); // every failure is counted and reported by the replay itself
              fail(id, e);
            }
          });
    } catch (RuntimeException e) {
      // e.g. the metadata of job-arrivals did not come within max.block.ms
      watch.failed();
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

  /**
   * The id of the record Kafka acknowledged at {@code c}, or null: how the replay knows that a
   * dead letter is about one of its own records.
   */
  public String idAt(Coordinates c) {
    return landed.get(c);
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

  /** Broker outages logged so far. */
  public long brokerOutages() {
    return watch.outages();
  }

  /** Whether the broker is out now (an outage logged and not yet over). */
  public boolean brokerOut() {
    return watch.out();
  }

  @Override
  public void close() {
    watchTimer.shutdownNow();
    producer.close(java.time.Duration.ofSeconds(10));
  }
}
