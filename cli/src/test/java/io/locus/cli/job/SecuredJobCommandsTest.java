package io.locus.cli.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.cli.LocusCli;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.KafkaSecurityAdmin;
import io.locus.kafka.LocusAcls;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.kafka.testkit.BrokerCertificates;
import io.locus.kafka.testkit.BrokerSecurity;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.testkit.Await;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locus job} as the {@code submitter} role of a secured cluster (SASL_SSL, SCRAM, ACLs
 * that deny what they do not allow): the ACLs {@link LocusAcls#submitter} grants are all its
 * commands need. The scheduler is not running: the test writes its JobStatus and DeadLetter
 * records as the broker's super user, as JobCommandsTest does on an open broker.
 */
@Tag("integration")
@Timeout(180)
class SecuredJobCommandsTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void theSubmitterRoleSubmitsWaitsListsAndCancels(@TempDir Path dir) throws Exception {
    BrokerCertificates pki = BrokerCertificates.open(dir.resolve("pki"));
    try (EmbeddedKafka kafka = EmbeddedKafka.startSecure(BrokerSecurity.secureOnly(pki));
        Admin admin = Admin.create(kafka.adminProperties())) {
      TopicAdmin.ensureTopics(kafka.adminProperties(), Topics.ALL);
      String password = java.util.UUID.randomUUID().toString();
      KafkaSecurityAdmin.upsertScramUser(admin, "submitter", password);
      KafkaSecurityAdmin.createAcls(admin, LocusAcls.submitter("User:submitter"));
      Files.copy(pki.truststore(), dir.resolve("ca.p12"));
      Files.writeString(dir.resolve("ca.password"), pki.password() + "\n");
      Files.writeString(dir.resolve("submitter.password"), password + "\n");
      Path settings = Files.writeString(dir.resolve("kafka.properties"), String.join("\n",
          "security.protocol=SASL_SSL", "ssl.truststore.type=PKCS12",
          "ssl.truststore.location=ca.p12", "locus.ssl.truststore.password.file=ca.password",
          "locus.sasl.username=submitter", "locus.sasl.password.file=submitter.password"));
      String[] connect = {"--bootstrap-servers", kafka.secureBootstrapServers(),
          "--kafka-properties", settings.toString()};
      Properties superUser = ClientConfigs.producer(kafka.secureBootstrapServers());
      superUser.putAll(kafka.adminProperties());

      try (KafkaProducer<byte[], byte[]> scheduler = new KafkaProducer<>(superUser)) {
        CompletableFuture<Run> submit = CompletableFuture.supplyAsync(() -> job(connect,
            "submit", "--pool", "sec", "--job-id", "s-1", "--input", "a:1", "--wait"));
        ConsumerRecord<byte[], byte[]> arrival = first(kafka, Topics.JOB_ARRIVALS.name());
        assertThat(Topics.JOB_ARRIVALS.decode(arrival.value()).getJobId()).isEqualTo("s-1");
        status(scheduler, JobStatus.newBuilder().setPool("sec").setJobId("s-1")
            .setState(JobState.COMPLETED).setTimeMs(1).setNode("n1").build());
        Run s = submit.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(s.code()).as(s.err()).isZero();
        assertThat(s.out()).contains("sec/s-1");

        Run list = job(connect, "list", "--pool", "sec");
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out()).contains("1 job: 1 COMPLETED");

        CompletableFuture<Run> cancel = CompletableFuture.supplyAsync(() -> job(connect,
            "cancel", "sec/s-2"));
        ConsumerRecord<byte[], byte[]> cmd = first(kafka, Topics.JOB_COMMANDS.name());
        JobCommand sent = Topics.JOB_COMMANDS.decode(cmd.value());
        DeadLetter refused = DeadLetter.newBuilder().setSourceTopic(Topics.JOB_COMMANDS.name())
            .setPartition(cmd.partition()).setOffset(cmd.offset()).setCode("unknown-job")
            .setReason("no job s-2 in pool sec").setTimeMs(1).build();
        scheduler.send(new ProducerRecord<>(Topics.DEAD_LETTERS.name(), null,
            Topics.DEAD_LETTERS.value(refused))).get(30, TimeUnit.SECONDS);
        Run c = cancel.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(sent.getJobId()).isEqualTo("s-2");
        assertThat(c.code()).isEqualTo(1);
        assertThat(c.err()).contains("cancel of sec/s-2 refused (dead letter unknown-job");

        // A refusal that names only its record's place needs READ on job-arrivals, which a
        // submitter has not: the job is reported unknown, not a failure to read.
        DeadLetter placeOnly = DeadLetter.newBuilder()
            .setSourceTopic(Topics.JOB_ARRIVALS.name()).setPartition(arrival.partition())
            .setOffset(arrival.offset()).setCode("unknown-pool").setReason("r").setTimeMs(1)
            .setKey(ByteBuffer.wrap("sec".getBytes(StandardCharsets.UTF_8))).build();
        scheduler.send(new ProducerRecord<>(Topics.DEAD_LETTERS.name(), null,
            Topics.DEAD_LETTERS.value(placeOnly))).get(30, TimeUnit.SECONDS);
        Run unknown = job(connect, "status", "sec/s-9");
        assertThat(unknown.code()).as(unknown.err()).isEqualTo(3);
        assertThat(unknown.err()).contains("no job sec/s-9 on job-status");
        Run known = job(connect, "status", "sec/s-1");
        assertThat(known.code()).as(known.err()).isZero();
        assertThat(known.out()).contains("job sec/s-1: COMPLETED");
      }
    }
  }

  record Run(int code, String out, String err) {}

  private static Run job(String[] connect, String... args) {
    CommandLine cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    List<String> all = new ArrayList<>(List.of("job"));
    all.addAll(List.of(args));
    all.addAll(List.of(connect));
    int code = cl.execute(all.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }

  private static void status(KafkaProducer<byte[], byte[]> p, JobStatus s) throws Exception {
    p.send(new ProducerRecord<>(Topics.JOB_STATUS.name(),
        Topics.JOB_STATUS.key(Topics.jobStatusKey(s.getPool(), s.getJobId())),
        Topics.JOB_STATUS.value(s))).get(30, TimeUnit.SECONDS);
  }

  /** The first record of {@code topic}, read by the super user. */
  private static ConsumerRecord<byte[], byte[]> first(EmbeddedKafka kafka, String topic) {
    Properties p = ClientConfigs.consumer(kafka.secureBootstrapServers(), null, false);
    p.putAll(kafka.adminProperties());
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
      List<TopicPartition> parts = c.partitionsFor(topic).stream()
          .map(i -> new TopicPartition(topic, i.partition())).toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      List<ConsumerRecord<byte[], byte[]>> found = new ArrayList<>();
      Await.atMost(WAIT).pollEvery(Duration.ZERO).until("a record on " + topic, () -> {
        c.poll(Duration.ofMillis(200)).forEach(found::add);
        return !found.isEmpty();
      });
      return found.get(0);
    }
  }
}
