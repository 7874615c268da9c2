package io.locus.agent;

import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.schemas.NodeReport;
import io.locus.schemas.TaskEvent;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends task events to {@code task-events} and node reports to {@code node-reports}, both keyed by
 * pool, through one shared producer. With the idempotent producer of {@code ClientConfigs} and one
 * key per pool, everything a pool's agents emit lands in one partition in the order emitted, so the
 * scheduler never sees COMPLETED before STARTED nor delta n+1 before delta n.
 *
 * <p>Sending never throws into the agent: a failure (broker gone, producer closed) is logged and
 * reported to the listener; the scheduler's heartbeat and seq checks detect the gap. With a {@link
 * BrokerWatch}, a broker outage is one WARN when it starts and one INFO when it ends, and the
 * failures during it are counted instead of logged one by one.
 */
public final class KafkaAgentOutput implements AgentOutput {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaAgentOutput.class);

  /** Hears of the broker's answer to each send, on the producer's I/O thread: keep it short. */
  public interface Listener {
    default void acked(SpecificRecord record) {}

    default void failed(SpecificRecord record, Exception error) {}
  }

  private final Producer<byte[], byte[]> producer;
  private final Listener listener;
  private final BrokerWatch watch;

  public KafkaAgentOutput(Producer<byte[], byte[]> producer, Listener listener) {
    this(producer, listener, null);
  }

  KafkaAgentOutput(Producer<byte[], byte[]> producer, Listener listener, BrokerWatch watch) {
    this.producer = producer;
    this.listener = listener;
    this.watch = watch;
  }

  @Override
  public void taskEvent(TaskEvent event) {
    send(Topics.TASK_EVENTS, event.getPool(), event);
  }

  @Override
  public void nodeReport(NodeReport report) {
    send(Topics.NODE_REPORTS, report.getPool(), report);
  }

  private <V extends SpecificRecord> void send(TopicSpec<V> topic, String key, V value) {
    if (watch != null) {
      watch.sent();
    }
    try {
      producer.send(new ProducerRecord<>(topic.name(), topic.key(key), topic.value(value)),
          (meta, error) -> {
            if (error == null) {
              if (watch != null) {
                watch.acked();
              }
              listener.acked(value);
            } else {
              failed(topic, error);
              listener.failed(value, error);
            }
          });
    } catch (RuntimeException e) {
      failed(topic, e);
      listener.failed(value, e);
    }
  }

  private void failed(TopicSpec<?> topic, Exception error) {
    if (watch == null || watch.failed()) {
      LOG.warn("could not send to {}: {}", topic.name(), error.toString());
    }
  }
}
