package io.locus.kafka;

import io.locus.schemas.DataUnit;
import io.locus.schemas.JobSubmitted;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/** Shared test helpers: sample records and polling with a deadline (never sleeping). */
final class TestSupport {
  private TestSupport() {}

  static JobSubmitted job(String jobId) {
    return JobSubmitted.newBuilder()
        .setJobId(jobId)
        .setPool("pool-a")
        .setSubmitTimeMs(1_700_000_000_000L)
        .setInputs(List.of(
            DataUnit.newBuilder().setId("file-1").setBytes(1 << 20).setLocation("file:///data/1")
                .build(),
            DataUnit.newBuilder().setId("file-2").setBytes(42).build()))
        .setComputeSeconds(1.5)
        .setPriority(3)
        .setTemplate("wordcount")
        .setArgs(List.of("--fast"))
        .build();
  }

  /**
   * Polls until the records read so far satisfy {@code done}, or fails at the deadline; returns
   * everything read.
   */
  static <K, V> List<ConsumerRecord<K, V>> pollUntil(KafkaConsumer<K, V> consumer,
      Predicate<List<ConsumerRecord<K, V>>> done, Duration timeout) {
    List<ConsumerRecord<K, V>> all = new ArrayList<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!done.test(all)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within " + timeout + "; read " + all.size()
            + " records: " + all);
      }
      consumer.poll(Duration.ofMillis(200)).forEach(all::add);
    }
    return all;
  }
}
