package io.locus.kafka.testkit;

import io.locus.schemas.JobSubmitted;
import io.locus.testkit.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/** Shared test helpers: sample records and polling with a deadline (never sleeping). */
final class TestSupport {
  private static BrokerCertificates certificates;

  private TestSupport() {}

  /**
   * Certificates for secure brokers, generated once per test JVM (keytool takes seconds) in a
   * temporary directory deleted when the JVM exits.
   */
  static synchronized BrokerCertificates certificates() {
    if (certificates == null) {
      try {
        Path dir = Files.createTempDirectory("locus-test-pki-");
        Runtime.getRuntime().addShutdownHook(
            new Thread(() -> EmbeddedKafka.deleteRecursively(dir)));
        certificates = BrokerCertificates.open(dir);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return certificates;
  }

  static JobSubmitted job(String jobId) {
    return io.locus.kafka.TestSupport.job(jobId);
  }

  /**
   * Polls until the records read so far satisfy {@code done}, or fails at the deadline; returns
   * everything read.
   */
  static <K, V> List<ConsumerRecord<K, V>> pollUntil(KafkaConsumer<K, V> consumer,
      Predicate<List<ConsumerRecord<K, V>>> done, Duration timeout) {
    List<ConsumerRecord<K, V>> all = new ArrayList<>();
    // No pause between checks: the consumer's poll waits up to 200 ms by itself.
    Await.atMost(timeout).pollEvery(Duration.ZERO).until(
        () -> "read " + all.size() + " records: " + all, () -> {
          if (done.test(all)) {
            return true;
          }
          consumer.poll(Duration.ofMillis(200)).forEach(all::add);
          return false;
        });
    return all;
  }
}
