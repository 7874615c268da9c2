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
 * reported to the listener; the scheduler's heartbeat and seq checks detect the gap.
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

  public KafkaAgentOutput(Producer<byte[], byte[]> producer, Listener listener) {
    this.producer = producer;
    this.listener = listener;
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
    try {
      producer.send(new ProducerRecord<>(topic.name(), topic.key(key), topic.value(value)),
          (meta, error) -> {
            if (error == null) {
              listener.acked(value);
            } else {
              LOG.warn("could not send to {}: {}", topic.name(), error.toString());
              listener.failed(value, error);
            }
          });
    } catch (RuntimeException e) {
      LOG.warn("could not send to {}: {}", topic.name(), e.toString());
      listener.failed(value, e);
    }
  }
}
