package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.testkit.BrokerCertificates;
import io.locus.kafka.testkit.BrokerSecurity;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.KafkaSecurityAdmin;
import io.locus.kafka.LocusAcls;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locus replay} against a broker that only speaks SASL_SSL with SCRAM and denies what no
 * ACL allows: the settings of {@code --kafka-properties} must reach the producer (they were read and
 * then dropped before issue 12, so replay could only talk to an open broker).
 */
@Tag("integration")
@Timeout(180)
class SecureReplayTest {
  @Test
  void replayPublishesOverTlsAndScramWithTheSettingsOfItsPropertiesFile(
      @TempDir Path dir) throws Exception {
    BrokerCertificates pki = BrokerCertificates.open(dir.resolve("pki"));
    try (EmbeddedKafka kafka = EmbeddedKafka.startSecure(BrokerSecurity.secureOnly(pki));
        Admin admin = Admin.create(kafka.adminProperties())) {
      TopicAdmin.ensureTopics(kafka.adminProperties(), Topics.ALL);
      String password = java.util.UUID.randomUUID().toString();
      KafkaSecurityAdmin.upsertScramUser(admin, "submitter", password);
      KafkaSecurityAdmin.createAcls(admin, LocusAcls.submitter("User:submitter"));

      Path trace = dir.resolve("t.jsonl");
      assertThat(run("trace", "--workload", "khanna", "--workload-param", "n=20", "--seed", "1",
          "-o", trace.toString())).isZero();
      Files.copy(pki.truststore(), dir.resolve("ca.p12"));
      Files.writeString(dir.resolve("ca.password"), pki.password() + "\n");
      Files.writeString(dir.resolve("submitter.password"), password + "\n");
      Path settings = Files.writeString(dir.resolve("kafka.properties"), String.join("\n",
          "security.protocol=SASL_SSL", "ssl.truststore.type=PKCS12",
          "ssl.truststore.location=ca.p12", "locus.ssl.truststore.password.file=ca.password",
          "locus.sasl.username=submitter", "locus.sasl.password.file=submitter.password",
          "max.block.ms=10000", "delivery.timeout.ms=15000", "request.timeout.ms=5000"));

      assertThat(run("replay", "--trace", trace.toString(), "--bootstrap-servers",
          kafka.secureBootstrapServers(), "--kafka-properties", settings.toString(), "--pool",
          "secure", "--speedup", "0")).isZero();
      assertThat(countArrivals(kafka)).isEqualTo(20);
    }
  }

  private static long countArrivals(EmbeddedKafka kafka) {
    Properties p = ClientConfigs.consumer(kafka.secureBootstrapServers(), null, false);
    p.putAll(kafka.adminProperties()); // the broker's super user reads what was published
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
      List<TopicPartition> parts = new ArrayList<>();
      for (int i = 0; i < Topics.JOB_ARRIVALS.partitions(); i++) {
        parts.add(new TopicPartition(Topics.JOB_ARRIVALS.name(), i));
      }
      c.assign(parts);
      c.seekToBeginning(parts);
      return c.endOffsets(parts, Duration.ofSeconds(30)).values().stream()
          .mapToLong(Long::longValue).sum();
    }
  }

  private static int run(String... args) {
    CommandLine cl = LocusCli.commandLine();
    cl.setOut(new PrintWriter(new StringWriter()));
    return cl.execute(args);
  }
}
