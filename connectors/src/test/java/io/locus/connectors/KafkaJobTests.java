package io.locus.connectors;

import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.testkit.Await;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.avro.SchemaNormalization;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/** What the connectors' MiniCluster-with-Kafka tests share: sending, waiting, hostile bytes. */
public final class KafkaJobTests {
  private KafkaJobTests() {}

  /** Where a record sits; dead letters name their source the same way. */
  public record Coordinates(String topic, int partition, long offset) {
    static Coordinates of(RecordMetadata m) {
      return new Coordinates(m.topic(), m.partition(), m.offset());
    }

    static Coordinates sourceOf(DeadLetter d) {
      return new Coordinates(d.getSourceTopic(), d.getPartition(), d.getOffset());
    }
  }

  /** Sends one record keyed as the topic keys it and waits for its acknowledgement. */
  static Coordinates send(KafkaProducer<byte[], byte[]> producer, TopicSpec<?> topic,
      String key, byte[] value) throws Exception {
    return Coordinates.of(producer.send(
        new ProducerRecord<>(topic.name(), topic.key(key), value)).get(30, TimeUnit.SECONDS));
  }

  /** Polls until {@code condition} holds; fails early if the job dies, or at the deadline. */
  static void awaitOrFail(BooleanSupplier condition, JobClient job, String what,
      Duration deadline) throws Exception {
    Await.atMost(deadline).until(what, () -> {
      if (condition.getAsBoolean()) {
        return true;
      }
      if (job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState()) {
        job.getJobExecutionResult().get(10, TimeUnit.SECONDS); // throws the job's failure
        throw new AssertionError("job ended before " + what);
      }
      return false;
    });
  }

  /** The 18-byte record: a JobSubmitted whose jobId declares 2,147,483,000 bytes. */
  public static byte[] hugeStringRecord() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0xC3);
    out.write(0x01);
    long fp = SchemaNormalization.parsingFingerprint64(Topics.JOB_ARRIVALS.codec().schema());
    for (int i = 0; i < 8; i++) {
      out.write((int) (fp >>> (8 * i)) & 0xff);
    }
    long z = 2_147_483_000L << 1; // zigzag varint
    while ((z & ~0x7FL) != 0) {
      out.write((int) ((z & 0x7F) | 0x80));
      z >>>= 7;
    }
    out.write((int) z);
    out.writeBytes(new byte[] {'a', 'b', 'c'});
    return out.toByteArray();
  }
}
