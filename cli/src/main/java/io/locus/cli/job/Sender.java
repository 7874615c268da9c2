package io.locus.cli.job;

import io.locus.kafka.ClientConfigs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Sends records with acks=all from an idempotent producer and reports, per record, where Kafka
 * put it or why it did not take it. Where it put it (topic, partition, offset) is what a dead
 * letter names, so the commands match the scheduler's refusal of their own record by it.
 * (io.locus.cli.replay.AckedPublisher counts acknowledgements but does not hand back the
 * record's place, which the waits here need.)
 */
final class Sender {
  /** One record to send; {@code label} names it in messages ({@code pool/jobId}). */
  record Out(String label, String topic, byte[] key, byte[] value) {}

  /** Where Kafka put a record, or (offset -1) why it did not. */
  record Placed(Out record, int partition, long offset, String problem) {
    boolean acked() {
      return problem == null;
    }
  }

  /** The most a send may block on a broker it cannot reach, and a record may take in all. */
  static final Duration MAX_BLOCK = Duration.ofSeconds(10);
  static final Duration DELIVERY = Duration.ofSeconds(30);

  private Sender() {}

  /** Sends every record, then waits for each answer (bounded by {@link #DELIVERY}). */
  static List<Placed> send(Properties client, List<Out> records) {
    Properties p = ClientConfigs.producer("unused");
    p.putAll(client);
    // What "acknowledged" means here; a properties file cannot weaken it.
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
        org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
        org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
    p.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(MAX_BLOCK.toMillis()));
    p.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
    p.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(DELIVERY.toMillis()));
    List<Future<RecordMetadata>> pending = new ArrayList<>();
    List<Placed> out = new ArrayList<>();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      List<String> immediate = new ArrayList<>();
      for (Out r : records) {
        try {
          pending.add(producer.send(new ProducerRecord<>(r.topic(), r.key(), r.value())));
          immediate.add(null);
        } catch (RuntimeException e) {
          // e.g. the topic's metadata did not come within max.block.ms
          pending.add(null);
          immediate.add(why(e));
        }
      }
      producer.flush();
      for (int i = 0; i < records.size(); i++) {
        Out r = records.get(i);
        if (pending.get(i) == null) {
          out.add(new Placed(r, -1, -1, immediate.get(i)));
          continue;
        }
        try {
          RecordMetadata m = pending.get(i).get(DELIVERY.toMillis() + 5000, TimeUnit.MILLISECONDS);
          out.add(new Placed(r, m.partition(), m.offset(), null));
        } catch (ExecutionException e) {
          out.add(new Placed(r, -1, -1, why(e.getCause())));
        } catch (java.util.concurrent.TimeoutException e) {
          out.add(new Placed(r, -1, -1, "no acknowledgement within " + DELIVERY));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          out.add(new Placed(r, -1, -1, "interrupted"));
        }
      }
    }
    return out;
  }

  private static String why(Throwable e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }
}
