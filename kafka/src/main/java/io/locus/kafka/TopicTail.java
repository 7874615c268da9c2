package io.locus.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows registered topics on a daemon thread: one consumer, no consumer group (nothing is
 * committed, nothing rebalances), every partition of each topic assigned from a {@link Start}
 * position; each record is decoded with its topic's codec and handed to that topic's handler, on
 * this tail's thread, in offset order within a partition.
 *
 * <p>A topic that does not exist yet, or a broker that cannot be reached, is looked for again
 * every {@link #LOOK_AGAIN}; once assigned, the consumer itself reconnects after an outage. A
 * record that does not decode goes to the undecodable handler (anyone may write to a topic; it is
 * no reason to stop), an empty value is skipped. A handler that throws, or a failure Kafka will
 * not retry (say, no READ on the topic), stops the tail: {@link #failure()} says why.
 *
 * <p>The tail is <em>caught up</em> once every topic is assigned and every partition has been
 * read up to the end it had when assigned. A {@linkplain Builder#untilEnd() bounded} tail reads
 * only that far and then stops; a topic it does not find at its first look is {@linkplain
 * #missingTopics() missing} rather than waited for.
 */
public final class TopicTail implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TopicTail.class);
  /** How long a missing topic or an unreachable broker waits before the next look. */
  public static final Duration LOOK_AGAIN = Duration.ofSeconds(2);
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration POLL = Duration.ofMillis(100);

  /** Where reading starts in every partition of a topic. */
  public record Start(long timestampMs) {
    private static final long BEGINNING = Long.MIN_VALUE;
    private static final long END = Long.MAX_VALUE;

    /** The earliest retained record. */
    public static Start beginning() {
      return new Start(BEGINNING);
    }

    /** The end as it is when the partition is assigned: only what comes after. */
    public static Start end() {
      return new Start(END);
    }

    /** The first record with a timestamp at or after {@code timestampMs} (else the end). */
    public static Start at(long timestampMs) {
      if (timestampMs == BEGINNING || timestampMs == END) {
        throw new IllegalArgumentException("not a timestamp: " + timestampMs);
      }
      return new Start(timestampMs);
    }
  }

  /** Where a record came from, and when the poll that returned it did ({@link System#nanoTime}). */
  public record Meta(String topic, int partition, long offset, long timestampMs,
      long polledNanos) {}

  /** Takes each decoded record of one topic. */
  @FunctionalInterface
  public interface Handler<V> {
    void accept(V value, Meta meta);
  }

  /** Which partitions of a topic to read, knowing how many it has. */
  @FunctionalInterface
  public interface Partitions {
    boolean read(TopicSpec<?> topic, int partition, int partitionCount);
  }

  /** A tail over {@code client}: bootstrap servers, security and isolation level. */
  public static Builder builder(Properties client) {
    return new Builder(client);
  }

  /** What a tail reads and where each record goes; {@link #start()} starts it. */
  public static final class Builder {
    private final Properties client;
    private final Map<String, Followed<?>> topics = new LinkedHashMap<>();
    private String name = "topic-tail";
    private Start start = Start.beginning();
    private Partitions partitions = (t, p, n) -> true;
    private Consumer<Meta> undecodable = m -> {};
    private Runnable caughtUp = () -> {};
    private boolean untilEnd;

    private Builder(Properties client) {
      this.client = Objects.requireNonNull(client, "client");
    }

    /** The thread's name (logs, thread dumps). */
    public Builder name(String threadName) {
      this.name = Objects.requireNonNull(threadName, "threadName");
      return this;
    }

    /** Where every topic starts; the beginning unless told. */
    public Builder from(Start start) {
      this.start = Objects.requireNonNull(start, "start");
      return this;
    }

    /** Reads {@code topic}, handing each record to {@code handler}. */
    public <V extends SpecificRecord> Builder follow(TopicSpec<V> topic,
        Handler<? super V> handler) {
      topics.put(topic.name(), new Followed<>(topic, handler));
      return this;
    }

    /** Reads only the partitions {@code filter} accepts (all unless told). */
    public Builder partitions(Partitions filter) {
      this.partitions = Objects.requireNonNull(filter, "filter");
      return this;
    }

    /** Called with each record whose value does not decode as its topic's type. */
    public Builder onUndecodable(Consumer<Meta> handler) {
      this.undecodable = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /** Called once, on the tail's thread, when the tail first catches up. */
    public Builder onCaughtUp(Runnable handler) {
      this.caughtUp = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /** Reads each partition up to the end it had when assigned, then stops. */
    public Builder untilEnd() {
      this.untilEnd = true;
      return this;
    }

    /** Makes the consumer (a bad setting fails here) and starts following. */
    public TopicTail start() {
      if (topics.isEmpty()) {
        throw new IllegalStateException("a tail follows at least one topic");
      }
      TopicTail tail = new TopicTail(this);
      tail.thread.start();
      return tail;
    }
  }

  private record Followed<V extends SpecificRecord>(TopicSpec<V> topic,
      Handler<? super V> handler) {
    void deliver(byte[] value, Meta meta, Consumer<Meta> undecodable) {
      V v;
      try {
        v = topic.decode(value);
      } catch (RuntimeException notOne) {
        undecodable.accept(meta);
        return;
      }
      handler.accept(v, meta);
    }
  }

  private final Builder spec;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Thread thread;
  private final List<String> missing;
  private final List<TopicPartition> assigned = new ArrayList<>();
  /** Per assigned partition, the end it had when assigned; a partition leaves once read to it. */
  private final Map<TopicPartition, Long> initialEnd = new HashMap<>();
  private final Map<TopicPartition, Long> bound = new HashMap<>();
  private final CountDownLatch positioned = new CountDownLatch(1);
  private final CountDownLatch caughtUp = new CountDownLatch(1);
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch closing = new CountDownLatch(1);
  private final AtomicLong undecodable = new AtomicLong();
  private volatile boolean stop;
  /** Whether the broker answered a look for the topics once (the tail's thread only). */
  private boolean looked;
  private volatile RuntimeException failure;
  private volatile List<String> missingAtEnd = List.of();

  private TopicTail(Builder spec) {
    this.spec = spec;
    this.missing = new ArrayList<>(spec.topics.keySet());
    this.consumer = new KafkaConsumer<>(consumerProperties(spec.client));
    this.thread = new Thread(this::run, spec.name);
    thread.setDaemon(true);
  }

  /** The client settings, as a reader that belongs to no group and commits nothing. */
  static Properties consumerProperties(Properties client) {
    Properties p = new Properties();
    p.putAll(client);
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    p.remove(ConsumerConfig.GROUP_ID_CONFIG);
    return p;
  }

  /**
   * Waits until every topic is assigned and its start positions fixed (a bounded tail: until its
   * first look), so that a record written after this returns true is read.
   *
   * @throws RuntimeException the tail's failure, if it failed first
   */
  public boolean awaitPositioned(Duration timeout) throws InterruptedException {
    return await(positioned, timeout);
  }

  /**
   * Waits until the tail caught up (a bounded tail: read everything it will read).
   *
   * @throws RuntimeException the tail's failure, if it failed first
   */
  public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
    return await(caughtUp, timeout);
  }

  private boolean await(CountDownLatch latch, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    // Either the latch opens or the thread stops (failed or closed), whichever comes first.
    while (!latch.await(Math.min(50_000_000L, Math.max(0, deadline - System.nanoTime())),
        TimeUnit.NANOSECONDS)) {
      throwIfFailed();
      if (stopped.getCount() == 0 || System.nanoTime() >= deadline) {
        return latch.getCount() == 0;
      }
    }
    throwIfFailed();
    return true;
  }

  /** Whether the tail caught up (see the class comment); it stays so. */
  public boolean caughtUp() {
    return caughtUp.getCount() == 0;
  }

  /** Why the tail stopped, or null while it runs (or after a clean close). */
  public RuntimeException failure() {
    return failure;
  }

  /** Throws the tail's failure, if it failed. */
  public void throwIfFailed() {
    RuntimeException f = failure;
    if (f != null) {
      throw f;
    }
  }

  /** Records skipped because they did not decode as their topic's type. */
  public long undecodable() {
    return undecodable.get();
  }

  /** A bounded tail's topics that did not exist when it looked (empty until it looked). */
  public List<String> missingTopics() {
    return missingAtEnd;
  }

  /** Waits until the thread ended (closed, failed, or a bounded tail that read to its end). */
  public boolean awaitStopped(Duration timeout) throws InterruptedException {
    return stopped.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Whether the thread has ended (closed, failed, or a bounded tail that read to its end). */
  public boolean stopped() {
    return stopped.getCount() == 0;
  }

  private void run() {
    try (consumer) {
      long lookAgain = 0;
      while (!stop) {
        if (!missing.isEmpty() && System.nanoTime() >= lookAgain) {
          lookAgain = System.nanoTime() + LOOK_AGAIN.toNanos();
          if (assignFound()) {
            if (spec.untilEnd) {
              missingAtEnd = List.copyOf(missing);
              missing.clear(); // a bounded read does not wait for a topic to appear
            }
            if (missing.isEmpty()) {
              positioned.countDown();
            }
          }
        }
        if (assigned.isEmpty()) {
          if (spec.untilEnd && missing.isEmpty()) {
            caughtUp.countDown(); // none of its topics exists: nothing to read
            break;
          }
          pause(Duration.ofMillis(200)); // nothing to read until a topic exists
          continue;
        }
        var records = consumer.poll(POLL);
        long polled = System.nanoTime();
        for (ConsumerRecord<byte[], byte[]> r : records) {
          deliver(r, polled);
        }
        if (checkCaughtUp() && spec.untilEnd) {
          break;
        }
      }
    } catch (WakeupException | InterruptException e) {
      // closing
    } catch (RuntimeException | Error e) {
      if (!stop) {
        failure = e instanceof RuntimeException re ? re : new IllegalStateException(e);
        LOG.error("{}: following {} failed", spec.name, spec.topics.keySet(), e);
      }
    } finally {
      stopped.countDown();
    }
  }

  /**
   * Assigns the partitions of the missing topics that exist now, from the start position;
   * false when the broker could not tell (it is asked again later).
   */
  private boolean assignFound() {
    List<TopicPartition> added = new ArrayList<>();
    List<String> found = new ArrayList<>();
    try {
      for (String name : missing) {
        TopicSpec<?> topic = spec.topics.get(name).topic();
        List<PartitionInfo> infos = consumer.partitionsFor(name, CALL_TIMEOUT);
        if (infos == null || infos.isEmpty()) {
          continue;
        }
        found.add(name);
        for (PartitionInfo i : infos) {
          if (spec.partitions.read(topic, i.partition(), infos.size())) {
            added.add(new TopicPartition(name, i.partition()));
          }
        }
      }
      if (found.isEmpty()) {
        looked = true;
        return true;
      }
      List<TopicPartition> all = new ArrayList<>(assigned);
      all.addAll(added);
      consumer.assign(all);
      Map<TopicPartition, Long> end = added.isEmpty() ? Map.of()
          : consumer.endOffsets(added, CALL_TIMEOUT);
      // A topic that appeared after the first look holds only records written since the tail
      // started: from its end would skip them.
      seek(added, end, looked && spec.start.timestampMs() == Start.END
          ? Start.beginning() : spec.start);
      // Fixes each position now (seeks are lazy): records written from here on are read.
      for (TopicPartition tp : added) {
        consumer.position(tp, CALL_TIMEOUT);
      }
      assigned.addAll(added);
      initialEnd.putAll(end);
      bound.putAll(end);
      missing.removeAll(found);
      looked = true;
      return true;
    } catch (RetriableException e) {
      LOG.debug("{}: cannot look up {} yet: {}", spec.name, missing, e.toString());
      consumer.assign(List.copyOf(assigned)); // as it was; the next look starts over
      return false;
    }
  }

  private void seek(List<TopicPartition> parts, Map<TopicPartition, Long> end, Start start) {
    long at = start.timestampMs();
    if (at == Start.BEGINNING) {
      consumer.seekToBeginning(parts);
    } else if (at == Start.END) {
      parts.forEach(tp -> consumer.seek(tp, end.get(tp)));
    } else {
      Map<TopicPartition, Long> query = new HashMap<>();
      parts.forEach(tp -> query.put(tp, Math.max(0, at)));
      Map<TopicPartition, OffsetAndTimestamp> from = consumer.offsetsForTimes(query, CALL_TIMEOUT);
      for (TopicPartition tp : parts) {
        OffsetAndTimestamp o = from.get(tp);
        consumer.seek(tp, o == null ? end.get(tp) : o.offset());
      }
    }
  }

  private void deliver(ConsumerRecord<byte[], byte[]> r, long polledNanos) {
    if (spec.untilEnd) {
      Long end = bound.get(new TopicPartition(r.topic(), r.partition()));
      if (end != null && r.offset() >= end) {
        return; // written after the bounded read began
      }
    }
    if (r.value() == null) {
      return;
    }
    Meta meta = new Meta(r.topic(), r.partition(), r.offset(), r.timestamp(), polledNanos);
    spec.topics.get(r.topic()).deliver(r.value(), meta, m -> {
      undecodable.incrementAndGet();
      spec.undecodable.accept(m);
    });
  }

  /** Whether every topic is assigned and read to its initial end; opens the latch the first time. */
  private boolean checkCaughtUp() {
    if (caughtUp.getCount() == 0) {
      return true;
    }
    initialEnd.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
    if (initialEnd.isEmpty() && missing.isEmpty()) {
      spec.caughtUp.run();
      caughtUp.countDown();
      return true;
    }
    return false;
  }

  /** Waits {@code d}, or less when the tail is closed meanwhile. */
  private void pause(Duration d) {
    try {
      closing.await(d.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop = true;
    }
  }

  /** Stops the thread and closes the consumer (waits up to 10 s for it). */
  @Override
  public void close() {
    stop = true;
    closing.countDown();
    try {
      consumer.wakeup(); // a poll or lookup in progress returns at once
    } catch (IllegalStateException alreadyClosed) {
      // the thread ended first
    }
    if (Thread.currentThread() == thread) {
      return; // a handler closing its own tail: the loop ends after this poll's records
    }
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
