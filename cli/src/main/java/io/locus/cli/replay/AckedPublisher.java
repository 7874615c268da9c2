package io.locus.cli.replay;

import io.locus.agent.BrokerWatch;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The CLI's one publisher of records that must be acknowledged: an idempotent producer with
 * acks=all, a callback per record. A record counts as published only when the broker
 * acknowledged it, and where it landed is kept, so a dead letter about it is recognised ({@link
 * #idAt}, {@link Placed}); one Kafka refused (or never answered for) counts as failed, with the
 * reason kept. Two ways to use it:
 * <ul>
 *   <li>{@code locus replay} streams: {@link #send(JobSubmitted)} and the counters; the ids of
 *       failed records are handed back ({@link #takeFailed}) so the replay stops waiting for
 *       them. It rides out a broker outage with the producer's own (long) timeouts.</li>
 *   <li>{@code locus job submit} and {@code cancel} send a few records and report on each:
 *       {@link #publish} returns where each landed or why it did not, within the short bounds
 *       {@link #bounded} sets, so a command against a broker that is gone ends in seconds.</li>
 * </ul>
 * A broker outage the producer rides out is logged once when it starts and once when it ends
 * ({@link BrokerWatch}), so it is not silent.
 */
public final class AckedPublisher implements AutoCloseable {
  /** A job Kafka did not take, and why. */
  public record Failure(String jobId, String reason) {}

  /** One encoded record to publish; {@code label} names it in messages ({@code pool/jobId}). */
  public record Out(String label, String topic, byte[] key, byte[] value) {}

  /** Where Kafka put a record, or (partition and offset -1) why it did not. */
  public record Placed(Out record, int partition, long offset, String problem) {
    public boolean acked() {
      return problem == null;
    }
  }

  /** {@link #bounded}: the most a send may block on a broker it cannot reach. */
  static final Duration MAX_BLOCK = Duration.ofSeconds(10);
  /** {@link #bounded}: the most a record may take in all. */
  static final Duration DELIVERY = Duration.ofSeconds(30);

  private final KafkaProducer<byte[], byte[]> producer;
  private final long deliveryMs;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong acked = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final ConcurrentLinkedQueue<Failure> failures = new ConcurrentLinkedQueue<>();
  private final List<String> reasons = java.util.Collections.synchronizedList(new ArrayList<>());
  private final BrokerWatch watch;
  private final java.util.Map<Coordinates, String> landed =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final ScheduledExecutorService watchTimer;

  /** {@code locus replay}'s publisher. @param client bootstrap servers and security settings */
  public AckedPublisher(Properties client) {
    this(client, "locus replay", false);
  }

  /**
   * A publisher for command {@code who} whose sends give up within {@link #MAX_BLOCK} (metadata)
   * and {@link #DELIVERY} (acknowledgement), unless {@code client} sets those timeouts itself.
   */
  public static AckedPublisher bounded(Properties client, String who) {
    return new AckedPublisher(client, who, true);
  }

  private AckedPublisher(Properties client, String who, boolean bounded) {
    Properties p = ClientConfigs.producer("unused");
    client.forEach((k, v) -> p.put(k, v));
    // What "confirmed" means here; a properties file cannot weaken it.
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
        org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
        org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
    if (bounded) {
      p.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(MAX_BLOCK.toMillis()));
      p.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
      p.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
          Long.toString(DELIVERY.toMillis()));
    }
    producer = new KafkaProducer<>(p);
    // publish() waits as long as the producer may take (Kafka's default: 2 minutes)
    Object delivery = p.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG);
    deliveryMs = delivery == null ? 120_000 : Long.parseLong(delivery.toString().strip());
    watch = new BrokerWatch(who, p.getProperty(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "?"), BrokerWatch.DEFAULT_THRESHOLD,
        System::nanoTime);
    watchTimer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "publisher-broker-watch");
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
    send(topic.name(), topic.key(key), topic.value(value), id);
  }

  /**
   * Sends every record, then waits for each answer (each bounded by the producer's delivery
   * timeout): where each landed, or why Kafka did not take it, in the order given.
   */
  public List<Placed> publish(List<Out> records) {
    List<CompletableFuture<Coordinates>> pending = new ArrayList<>();
    for (Out r : records) {
      pending.add(send(r.topic(), r.key(), r.value(), r.label()));
    }
    flush();
    List<Placed> out = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      Out r = records.get(i);
      try {
        // flush() returned, so every answer is in; the bound only guards against a broken client
        Coordinates c = pending.get(i).get(deliveryMs + 5000, TimeUnit.MILLISECONDS);
        out.add(new Placed(r, c.partition(), c.offset(), null));
      } catch (ExecutionException e) {
        out.add(new Placed(r, -1, -1, why(e.getCause())));
      } catch (TimeoutException e) {
        out.add(new Placed(r, -1, -1, "no acknowledgement within "
            + Duration.ofMillis(deliveryMs)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        out.add(new Placed(r, -1, -1, "interrupted"));
      }
    }
    return out;
  }

  /** Sends one encoded record; the future completes with where it landed, or Kafka's refusal. */
  private CompletableFuture<Coordinates> send(String topic, byte[] key, byte[] value, String id) {
    CompletableFuture<Coordinates> done = new CompletableFuture<>();
    sent.incrementAndGet();
    watch.sent();
    try {
      producer.send(new ProducerRecord<>(topic, key, value), (meta, e) -> {
        if (e == null) {
          Coordinates c = new Coordinates(meta.topic(), meta.partition(), meta.offset());
          landed.put(c, id);
          watch.acked();
          acked.incrementAndGet();
          done.complete(c);
        } else {
          watch.failed(); // every failure is counted and reported by the caller
          fail(id, e);
          done.completeExceptionally(e);
        }
      });
    } catch (RuntimeException e) {
      // e.g. the topic's metadata did not come within max.block.ms
      watch.failed();
      fail(id, e);
      done.completeExceptionally(e);
    }
    return done;
  }

  private static String why(Throwable e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  private void fail(String id, Exception e) {
    failed.incrementAndGet();
    String reason = why(e);
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
