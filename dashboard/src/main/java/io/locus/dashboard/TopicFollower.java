package io.locus.dashboard;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the five topics the dashboard shows from their earliest offsets and folds each record
 * into the {@link DashboardState}, on its own thread, until closed. No consumer group: nothing is
 * committed, so a restarted dashboard reads everything again and rebuilds the same state.
 * Committed records only (the scheduler's sinks may be transactional). A topic that does not exist
 * yet is looked for again every few seconds; a record that does not decode is counted and skipped.
 */
public final class TopicFollower implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TopicFollower.class);
  /** The topics shown, in the order a fresh read folds them (decisions last: they are many). */
  static final List<TopicSpec<?>> TOPICS = List.of(Topics.NODE_REPORTS, Topics.SCHEDULER_METRICS,
      Topics.DEAD_LETTERS, Topics.TASK_EVENTS, Topics.DECISIONS);
  private static final long LOOK_AGAIN_NANOS = 3_000_000_000L;

  private final Properties props;
  private final DashboardState state;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final Thread thread;
  private volatile KafkaConsumer<byte[], byte[]> consumer;
  private volatile Throwable failure;

  /** Starts following; {@code clientProps} holds the bootstrap servers and security settings. */
  public TopicFollower(Properties clientProps, DashboardState state) {
    Properties p = ClientConfigs.consumer("unused:0", null, true);
    p.putAll(clientProps);
    p.put("key.deserializer", ByteArrayDeserializer.class.getName());
    p.put("value.deserializer", ByteArrayDeserializer.class.getName());
    p.put("enable.auto.commit", "false");
    p.put("max.poll.records", "5000");
    p.remove("group.id");
    this.props = p;
    this.state = state;
    this.thread = new Thread(this::run, "dashboard-topic-follower");
    thread.setDaemon(true);
    thread.start();
  }

  /** Why following stopped, or null while it runs. */
  public Throwable failure() {
    return failure;
  }

  private void run() {
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props)) {
      consumer = c;
      if (stop.get()) {
        return;
      }
      List<TopicSpec<?>> missing = new ArrayList<>(TOPICS);
      List<TopicPartition> assigned = new ArrayList<>();
      Map<TopicPartition, Long> initialEnd = new HashMap<>();
      long lookAgain = 0;
      while (!stop.get()) {
        if (!missing.isEmpty() && System.nanoTime() >= lookAgain) {
          List<TopicPartition> added = find(c, missing);
          if (!added.isEmpty()) {
            assigned.addAll(added);
            c.assign(assigned);
            c.seekToBeginning(added);
            initialEnd.putAll(c.endOffsets(added, Duration.ofSeconds(10)));
          }
          lookAgain = System.nanoTime() + LOOK_AGAIN_NANOS;
        }
        if (assigned.isEmpty()) {
          waitBriefly();
          continue;
        }
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          fold(r);
        }
        if (!initialEnd.isEmpty()) {
          initialEnd.entrySet().removeIf(e -> c.position(e.getKey()) >= e.getValue());
          if (initialEnd.isEmpty() && missing.isEmpty()) {
            state.caughtUp(); // once: the map stays empty from here on
          }
        }
      }
    } catch (WakeupException | InterruptException e) {
      // closing
    } catch (RuntimeException | Error e) {
      if (!stop.get()) {
        failure = e;
        LOG.error("dashboard: following the topics failed", e);
      }
    }
  }

  /** Partitions of the missing topics that exist now; those found leave {@code missing}. */
  private static List<TopicPartition> find(KafkaConsumer<byte[], byte[]> c,
      List<TopicSpec<?>> missing) {
    List<TopicPartition> out = new ArrayList<>();
    for (var it = missing.iterator(); it.hasNext(); ) {
      TopicSpec<?> t = it.next();
      List<PartitionInfo> infos;
      try {
        infos = c.partitionsFor(t.name(), Duration.ofSeconds(5));
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        continue; // the broker is not reachable yet: look again later
      }
      if (infos == null || infos.isEmpty()) {
        continue;
      }
      infos.forEach(i -> out.add(new TopicPartition(t.name(), i.partition())));
      it.remove();
    }
    return out;
  }

  private void fold(ConsumerRecord<byte[], byte[]> r) {
    if (r.value() == null) {
      return;
    }
    String topic = r.topic();
    Object v;
    try {
      v = Topics.byName(topic).decode(r.value());
    } catch (RuntimeException bad) {
      // Anyone may write to these topics: a record that is not one of them is skipped.
      state.read(topic, false);
      return;
    }
    state.read(topic, true);
    if (v instanceof io.locus.schemas.Decision d) {
      state.decision(d);
    } else if (v instanceof io.locus.schemas.TaskEvent e) {
      state.taskEvent(e);
    } else if (v instanceof io.locus.schemas.NodeReport n) {
      state.nodeReport(n);
    } else if (v instanceof io.locus.schemas.SchedulerMetrics m) {
      state.metrics(m);
    } else if (v instanceof io.locus.schemas.DeadLetter l) {
      state.deadLetter(l);
    }
  }

  private void waitBriefly() {
    try {
      Thread.sleep(200); // nothing assigned yet: the topics are being created
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop.set(true);
    }
  }

  @Override
  public void close() {
    stop.set(true);
    KafkaConsumer<byte[], byte[]> c = consumer;
    if (c != null) {
      c.wakeup();
    }
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
