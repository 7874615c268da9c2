package io.locus.cli;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.Control;
import io.locus.schemas.ControlAck;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * One control round trip over Kafka: positions a consumer at the end of {@code control-acks}
 * <em>before</em> sending (so the answer cannot slip past it), sends the control with acks=all,
 * then reads acks until the one with the control's requestId arrives or the deadline passes.
 * Acks are read {@code read_committed}: with an exactly-once sink they appear when the
 * scheduler's checkpoint completes.
 *
 * <p>Every Kafka call is bounded by the deadline, and connecting by at most {@link #CONNECT}, so a
 * wrong or dead broker address is reported within seconds, naming it.
 */
final class ControlClient {
  /** The most the first contact with the broker may take before the address is called dead. */
  static final Duration CONNECT = Duration.ofSeconds(5);

  /** The ack, or (ack null) why there is none. */
  record Result(ControlAck ack, String problem) {}

  private ControlClient() {}

  static Result send(String bootstrap, Path kafkaProperties, Control c, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Duration connect = timeout.compareTo(CONNECT) < 0 ? timeout : CONNECT;
    String ackTopic = Topics.CONTROL_ACKS.name();
    Properties cp = settings(ClientConfigs.consumer(bootstrap, null, true), kafkaProperties,
        connect);
    cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    Properties pp = settings(ClientConfigs.producer(bootstrap), kafkaProperties, connect);
    pp.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(connect.toMillis()));
    pp.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
        Long.toString(Math.max(connect.toMillis(), 1000) + 1000));
    pp.put(ProducerConfig.LINGER_MS_CONFIG, "0");
    KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(cp);
    KafkaProducer<byte[], byte[]> producer = null;
    try {
      List<TopicPartition> parts = new ArrayList<>();
      try {
        List<PartitionInfo> infos = consumer.partitionsFor(ackTopic, connect);
        if (infos == null || infos.isEmpty()) {
          return new Result(null, "topic " + ackTopic + " does not exist at " + bootstrap
              + " (create the topics: locus topics create)");
        }
        infos.forEach(i -> parts.add(new TopicPartition(ackTopic, i.partition())));
        consumer.assign(parts);
        consumer.seekToEnd(parts);
        for (TopicPartition tp : parts) {
          consumer.position(tp, connect); // resolve the end now, before the control is sent
        }
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        return new Result(null, "cannot reach Kafka at " + bootstrap + " (no answer within "
            + connect + " reading topic " + ackTopic + "; is the address right and the broker "
            + "up?)");
      }
      producer = new KafkaProducer<>(pp);
      try {
        producer.send(new ProducerRecord<>(Topics.CONTROL.name(), Topics.CONTROL.key(c.getPool()),
            Topics.CONTROL.value(c))).get(remainingMs(deadline) + 1000, TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        return new Result(null, "sending to topic " + Topics.CONTROL.name() + " at " + bootstrap
            + " failed: " + e.getCause().getMessage());
      } catch (java.util.concurrent.TimeoutException e) {
        return new Result(null, "sending to topic " + Topics.CONTROL.name() + " at " + bootstrap
            + " did not complete within " + timeout);
      }
      while (remainingMs(deadline) > 0) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(
            Duration.ofMillis(Math.min(500, remainingMs(deadline))))) {
          ControlAck a;
          try {
            a = Topics.CONTROL_ACKS.decode(r.value());
          } catch (RuntimeException e) {
            continue; // not an ack this client can read (another version): not ours either
          }
          if (c.getRequestId().equals(a.getRequestId())) {
            return new Result(a, null);
          }
        }
      }
      return new Result(null, "no acknowledgement of request " + c.getRequestId() + " (" + c.getType()
          + " for pool " + c.getPool() + ") on topic " + ackTopic + " at " + bootstrap + " within "
          + timeout + "; the control was sent: is the scheduler job running (locus run) and "
          + "does it run pool " + c.getPool() + "? (with an exactly-once sink, acks appear at "
          + "its next checkpoint)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(null, "interrupted");
    } finally {
      // bounded: a client still trying to reach a dead broker must not hold the exit
      if (producer != null) {
        producer.close(Duration.ofSeconds(1));
      }
      consumer.close(Duration.ofSeconds(1));
    }
  }

  private static Properties settings(Properties base, Path kafkaProperties, Duration connect) {
    Properties p = kafkaProperties == null ? base
        : ClientConfigs.withOverrides(base, kafkaProperties);
    long ms = Math.max(connect.toMillis(), 1000);
    p.putIfAbsent(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(ms));
    p.putIfAbsent(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(ms));
    p.putIfAbsent(CommonClientConfigs.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, "2000");
    p.putIfAbsent(CommonClientConfigs.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, "5000");
    p.putIfAbsent(CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
    return p;
  }

  private static long remainingMs(long deadline) {
    return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
  }
}
