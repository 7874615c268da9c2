package io.locus.kafka.testkit;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.KafkaSecurityAdmin;
import io.locus.kafka.LocusAcls;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One broker with a SASL_SSL listener (SCRAM-SHA-512, certificates made for the test), a
 * PLAINTEXT listener beside it, and the StandardAuthorizer: logins, refusals and the ACLs of an
 * agent, all for real.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class SecureKafkaTest {
  private static final String NOTES = "secure-notes";
  private static final Duration WAIT = Duration.ofSeconds(30);

  private EmbeddedKafka kafka;
  private Admin admin;

  @BeforeAll
  void startBroker() {
    BrokerSecurity security =
        BrokerSecurity.secureOnly(TestSupport.certificates()).withPlaintextListener(true);
    kafka = EmbeddedKafka.startSecure(security);
    admin = Admin.create(kafka.adminProperties());
    TopicAdmin.ensureTopics(kafka.adminProperties(), Topics.ALL);
    TopicAdmin.ensureTopics(kafka.adminProperties(),
        List.of(new TopicSpec<>(NOTES, 1, "none", Topics.JOB_ARRIVALS.codec(), Map.of())));
  }

  @AfterAll
  void stopBroker() {
    if (admin != null) {
      admin.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void aScramUserRoundTripsOverTlsWithSettingsFromAPropertiesFile(@TempDir Path dir)
      throws Exception {
    // Quote and backslash: the JAAS string built from the password file must escape them.
    String password = "pa\"ss\\word " + BrokerCertificates.randomSecret();
    KafkaSecurityAdmin.upsertScramUser(admin, "app", password);
    KafkaSecurityAdmin.createAcls(admin, List.of(
        LocusAcls.allow("User:app", topic(NOTES), AclOperation.WRITE),
        LocusAcls.allow("User:app", topic(NOTES), AclOperation.READ),
        LocusAcls.allow("User:app", new ResourcePattern(ResourceType.GROUP, "app-group",
            PatternType.LITERAL), AclOperation.READ)));
    // What an operator ships: a directory with the settings, the CA and the password files,
    // named relative to the settings file.
    Files.copy(kafka.security().certificates().truststore(), dir.resolve("ca.p12"));
    Files.writeString(dir.resolve("ca.password"),
        kafka.security().certificates().password() + "\n");
    Files.writeString(dir.resolve("app.password"), password + "\n");
    Path settings = Files.writeString(dir.resolve("kafka.properties"), String.join("\n",
        "security.protocol=SASL_SSL",
        "ssl.truststore.type=PKCS12",
        "ssl.truststore.location=ca.p12",
        "locus.ssl.truststore.password.file=ca.password",
        "locus.sasl.username=app",
        "locus.sasl.password.file=app.password"));

    Properties pp = ClientConfigs.withOverrides(
        ClientConfigs.producer(kafka.secureBootstrapServers()), settings);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(pp)) {
      producer.send(new ProducerRecord<>(NOTES, bytes("over TLS"))).get(30, TimeUnit.SECONDS);
    }
    Properties cp = ClientConfigs.withOverrides(
        ClientConfigs.consumer(kafka.secureBootstrapServers(), "app-group", false), settings);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(cp)) {
      consumer.subscribe(List.of(NOTES));
      List<ConsumerRecord<byte[], byte[]>> read =
          TestSupport.pollUntil(consumer, r -> !r.isEmpty(), WAIT);
      assertThat(read).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
          .containsExactly("over TLS");
    }
  }

  @Test
  void aWrongPasswordOrAnUnknownUserIsRefused() {
    KafkaSecurityAdmin.upsertScramUser(admin, "carol", "right-password");
    assertThat(failure(() -> describe(kafka.clientProperties("carol", "wrong-password"))))
        .isInstanceOf(SaslAuthenticationException.class);
    assertThat(failure(() -> describe(kafka.clientProperties("mallory", "right-password"))))
        .isInstanceOf(SaslAuthenticationException.class);
    // The same call with the right password works: the refusals above are about the password.
    assertThatCode(() -> describe(kafka.clientProperties("carol", "right-password")))
        .doesNotThrowAnyException();
  }

  @Test
  void aPlaintextClientGetsNoAnswerFromTheSecureListener() {
    Properties p = ClientConfigs.base(kafka.secureBootstrapServers());
    // The listener expects a TLS handshake and drops the connection: the client only retries.
    p.put("default.api.timeout.ms", "4000");
    p.put("request.timeout.ms", "2000");
    assertThat(failure(() -> describe(p))).isInstanceOf(TimeoutException.class);
  }

  @Test
  void aClientThatDoesNotTrustTheBrokersCaIsRefused() {
    KafkaSecurityAdmin.upsertScramUser(admin, "dave", "dave-password");
    Properties p = kafka.clientProperties("dave", "dave-password");
    // The JVM's default truststore: public CAs only, not the test CA.
    p.remove("ssl.truststore.location");
    p.remove("ssl.truststore.password");
    p.remove("ssl.truststore.type");
    assertThat(failure(() -> describe(p))).isInstanceOf(SslAuthenticationException.class);
  }

  @Test
  void anonymousClientsOfThePlaintextListenerGetNothingWithoutAnAcl() throws Exception {
    Properties p = ClientConfigs.producer(kafka.bootstrapServers());
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
    assertThat(kafka.bootstrapServers()).isNotEqualTo(kafka.secureBootstrapServers());
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      assertThat(failure(() -> producer.send(new ProducerRecord<>(NOTES, bytes("x"))).get()))
          .isInstanceOf(TopicAuthorizationException.class);
    }
  }

  @Test
  void anAgentMayWriteItsEventsAndReadDecisionsAndNothingElse() throws Exception {
    String user = "agent-node-1";
    KafkaSecurityAdmin.upsertScramUser(admin, user, "node-1-password");
    KafkaSecurityAdmin.createAcls(admin, LocusAcls.agent("User:" + user, false));
    Properties base = kafka.clientProperties(user, "node-1-password");

    // Allowed: its two output topics.
    try (KafkaProducer<byte[], byte[]> producer = producer(base)) {
      producer.send(new ProducerRecord<>(Topics.TASK_EVENTS.name(), bytes("pool-a"),
          bytes("STARTED by node-1"))).get(30, TimeUnit.SECONDS);
      producer.send(new ProducerRecord<>(Topics.NODE_REPORTS.name(), bytes("pool-a"),
          bytes("HEARTBEAT of node-1"))).get(30, TimeUnit.SECONDS);
      // Kafka cannot tell whose event this is: ACLs are per topic, not per key or content. This
      // is why the scheduler checks each event's HMAC with the key of the node it names.
      producer.send(new ProducerRecord<>(Topics.TASK_EVENTS.name(), bytes("pool-a"),
          bytes("COMPLETED, claiming to be node-2"))).get(30, TimeUnit.SECONDS);
    }

    // Allowed: reading its decisions partition (assigned, no consumer group).
    TopicPartition mine = new TopicPartition(Topics.DECISIONS.name(),
        Topics.partitionOf("node-1", Topics.DECISIONS.partitions()));
    try (KafkaProducer<byte[], byte[]> scheduler = producer(kafka.adminProperties())) {
      scheduler.send(new ProducerRecord<>(mine.topic(), mine.partition(), bytes("node-1"),
          bytes("PlaceTask for node-1"))).get(30, TimeUnit.SECONDS);
    }
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(base, null)) {
      consumer.assign(List.of(mine));
      consumer.seekToBeginning(List.of(mine));
      List<ConsumerRecord<byte[], byte[]>> read =
          TestSupport.pollUntil(consumer, r -> !r.isEmpty(), WAIT);
      assertThat(read).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
          .contains("PlaceTask for node-1");
    }

    // Denied: writing anything else, scheduler outputs and inputs of other roles alike.
    for (TopicSpec<?> t : List.of(Topics.JOB_ARRIVALS, Topics.CONTROL, Topics.DECISIONS,
        Topics.DEAD_LETTERS, Topics.SCHEDULER_METRICS, Topics.SCALE_REQUESTS)) {
      try (KafkaProducer<byte[], byte[]> producer = producer(base)) {
        assertThat(failure(() -> producer.send(new ProducerRecord<>(t.name(), bytes("pool-a"),
            bytes("forged"))).get())).as("write " + t.name())
            .isInstanceOf(TopicAuthorizationException.class);
      }
    }
    // Denied: reading any other topic, including the events of every other node.
    for (TopicSpec<?> t : List.of(Topics.TASK_EVENTS, Topics.NODE_REPORTS, Topics.JOB_ARRIVALS,
        Topics.CONTROL, Topics.DEAD_LETTERS)) {
      try (KafkaConsumer<byte[], byte[]> consumer = consumer(base, null)) {
        consumer.assign(List.of(new TopicPartition(t.name(), 0)));
        consumer.seekToBeginning(consumer.assignment());
        assertThat(failure(() -> pollForever(consumer))).as("read " + t.name())
            .isInstanceOf(TopicAuthorizationException.class);
      }
    }
    // Denied: a consumer group, creating topics, changing ACLs.
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(base, "agents")) {
      consumer.subscribe(List.of(Topics.DECISIONS.name()));
      assertThat(failure(() -> pollForever(consumer)))
          .isInstanceOf(GroupAuthorizationException.class);
    }
    try (Admin agentAdmin = Admin.create(base)) {
      assertThat(failure(() -> agentAdmin.createTopics(List.of(new NewTopic("agent-made", 1,
          (short) 1))).all().get())).isInstanceOf(TopicAuthorizationException.class);
      List<AclBinding> grant = LocusAcls.agent("User:" + user, true);
      assertThat(failure(() -> agentAdmin.createAcls(grant).all().get()))
          .isInstanceOf(ClusterAuthorizationException.class);
    }
  }

  @Test
  void anAgentWithPeerDiscoveryAlsoReadsNodeReports() throws Exception {
    String user = "agent-node-2";
    KafkaSecurityAdmin.upsertScramUser(admin, user, "node-2-password");
    KafkaSecurityAdmin.createAcls(admin, LocusAcls.agent("User:" + user, true));
    Properties base = kafka.clientProperties(user, "node-2-password");
    TopicPartition reports = new TopicPartition(Topics.NODE_REPORTS.name(),
        Topics.partitionOf("pool-b", Topics.NODE_REPORTS.partitions()));
    try (KafkaProducer<byte[], byte[]> producer = producer(base)) {
      producer.send(new ProducerRecord<>(reports.topic(), reports.partition(), bytes("pool-b"),
          bytes("REGISTER node-2 at https://node-2:7070"))).get(30, TimeUnit.SECONDS);
    }
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(base, null)) {
      consumer.assign(List.of(reports));
      consumer.seekToBeginning(List.of(reports));
      assertThat(TestSupport.pollUntil(consumer, r -> !r.isEmpty(), WAIT))
          .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
          .contains("REGISTER node-2 at https://node-2:7070");
    }
  }

  @Test
  void theSchedulerReadsItsInputsAndWritesDecisionsInTransactionsAndNothingElse()
      throws Exception {
    String user = "scheduler";
    KafkaSecurityAdmin.upsertScramUser(admin, user, "scheduler-password");
    KafkaSecurityAdmin.createAcls(admin,
        LocusAcls.scheduler("User:" + user, "locus-scheduler", "locus-scheduler"));
    KafkaSecurityAdmin.upsertScramUser(admin, "replay", "replay-password");
    KafkaSecurityAdmin.createAcls(admin, LocusAcls.submitter("User:replay"));
    Properties base = kafka.clientProperties(user, "scheduler-password");

    try (KafkaProducer<byte[], byte[]> submitter =
        producer(kafka.clientProperties("replay", "replay-password"))) {
      submitter.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(), 0, bytes("pool-s"),
          bytes("job-1"))).get(30, TimeUnit.SECONDS);
    }
    // Exactly-once sink: a transactional producer under the scheduler's prefix.
    Properties tx = ClientConfigs.withOverrides(base,
        Map.of("transactional.id", "locus-scheduler-decisions-0-1"));
    try (KafkaProducer<byte[], byte[]> producer = producer(tx)) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(Topics.DECISIONS.name(), bytes("node-9"),
          bytes("PlaceTask")));
      producer.commitTransaction();
    }
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(base, "locus-scheduler")) {
      consumer.subscribe(List.of(Topics.JOB_ARRIVALS.name()));
      assertThat(TestSupport.pollUntil(consumer, r -> !r.isEmpty(), WAIT))
          .extracting(r -> new String(r.value(), StandardCharsets.UTF_8)).contains("job-1");
      consumer.commitSync();
    }
    // Another prefix, and topics the scheduler only reads: denied.
    Properties otherTx = ClientConfigs.withOverrides(base,
        Map.of("transactional.id", "someone-else-0"));
    try (KafkaProducer<byte[], byte[]> producer = producer(otherTx)) {
      assertThat(failure(() -> {
        producer.initTransactions();
        return null;
      })).isInstanceOf(TransactionalIdAuthorizationException.class);
    }
    // (job-arrivals is written: the workflow runner in the scheduler job releases jobs there)
    for (TopicSpec<?> t : List.of(Topics.TASK_EVENTS, Topics.CONTROL, Topics.JOB_COMMANDS,
        Topics.WORKFLOWS)) {
      try (KafkaProducer<byte[], byte[]> producer = producer(base)) {
        assertThat(failure(() -> producer.send(new ProducerRecord<>(t.name(), bytes("pool-s"),
            bytes("forged"))).get())).as("write " + t.name())
            .isInstanceOf(TopicAuthorizationException.class);
      }
    }
    // A submitter may only submit, cancel and follow its jobs: no control, no decisions.
    try (KafkaProducer<byte[], byte[]> submitter =
        producer(kafka.clientProperties("replay", "replay-password"))) {
      for (TopicSpec<?> t : List.of(Topics.JOB_COMMANDS, Topics.WORKFLOWS)) {
        submitter.send(new ProducerRecord<>(t.name(), bytes("pool-s"), bytes("command")))
            .get(30, TimeUnit.SECONDS);
      }
    }
    for (TopicSpec<?> t : List.of(Topics.CONTROL, Topics.DECISIONS, Topics.JOB_STATUS)) {
      try (KafkaProducer<byte[], byte[]> submitter =
          producer(kafka.clientProperties("replay", "replay-password"))) {
        assertThat(failure(() -> submitter.send(new ProducerRecord<>(t.name(),
            bytes("pool-s"), bytes("forged"))).get())).as("submitter writes " + t.name())
            .isInstanceOf(TopicAuthorizationException.class);
      }
    }
  }

  @Test
  void aMonitorReadsEveryTopicAndWritesNothing() throws Exception {
    KafkaSecurityAdmin.upsertScramUser(admin, "monitor", "monitor-password");
    KafkaSecurityAdmin.createAcls(admin, LocusAcls.monitor("User:monitor"));
    Properties base = kafka.clientProperties("monitor", "monitor-password");
    // One record on every Locus topic, by the broker's super user.
    List<TopicPartition> parts = Topics.ALL.stream()
        .map(t -> new TopicPartition(t.name(), 0)).toList();
    try (KafkaProducer<byte[], byte[]> su = producer(kafka.adminProperties())) {
      for (TopicPartition tp : parts) {
        su.send(new ProducerRecord<>(tp.topic(), tp.partition(), bytes("pool-m"),
            bytes("on " + tp.topic()))).get(30, TimeUnit.SECONDS);
      }
    }
    // Allowed: reading them all (assigned partitions, as locus status and the dashboard do).
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(base, null)) {
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      List<ConsumerRecord<byte[], byte[]>> read = TestSupport.pollUntil(consumer, r -> r.stream()
          .map(ConsumerRecord::topic).distinct().count() == parts.size(), WAIT);
      assertThat(read).extracting(ConsumerRecord::topic)
          .containsAll(Topics.ALL.stream().map(TopicSpec::name).toList());
    }
    // Denied: writing (not idempotent: with WRITE on no topic an idempotent producer is first
    // refused its producer id, a cluster-level refusal racing with the send), and a group.
    Properties plain = ClientConfigs.withOverrides(base, Map.of("enable.idempotence", "false"));
    for (TopicSpec<?> t : List.of(Topics.CONTROL, Topics.JOB_ARRIVALS, Topics.DECISIONS)) {
      try (KafkaProducer<byte[], byte[]> producer = producer(plain)) {
        assertThat(failure(() -> producer.send(new ProducerRecord<>(t.name(), bytes("pool-m"),
            bytes("forged"))).get())).as("write " + t.name())
            .isInstanceOf(TopicAuthorizationException.class);
      }
    }
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(base, "monitors")) {
      consumer.subscribe(List.of(Topics.SCHEDULER_METRICS.name()));
      assertThat(failure(() -> pollForever(consumer)))
          .isInstanceOf(GroupAuthorizationException.class);
    }
  }

  // ---------------------------------------------------------------------------------------------

  private static ResourcePattern topic(String name) {
    return new ResourcePattern(ResourceType.TOPIC, name, PatternType.LITERAL);
  }

  private static KafkaProducer<byte[], byte[]> producer(Properties base) {
    Properties p = ClientConfigs.withOverrides(ClientConfigs.producer("unused:1"), toMap(base));
    // A refused topic never appears in metadata: fail the send in seconds, not after 60 s.
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
    return new KafkaProducer<>(p);
  }

  private static KafkaConsumer<byte[], byte[]> consumer(Properties base, String group) {
    Properties p =
        ClientConfigs.withOverrides(ClientConfigs.consumer("unused:1", group, false), toMap(base));
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    return new KafkaConsumer<>(p);
  }

  private static Map<String, Object> toMap(Properties p) {
    Map<String, Object> m = new java.util.HashMap<>();
    p.forEach((k, v) -> m.put(k.toString(), v));
    return m;
  }

  /**
   * Polls until the consumer throws; the authorization error comes with the first metadata. (Not
   * Await: the wait ends by the exception the test expects, not by a condition.)
   */
  private static Void pollForever(KafkaConsumer<byte[], byte[]> consumer) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      consumer.poll(Duration.ofMillis(500));
    }
    throw new AssertionError("no error within " + WAIT);
  }

  private static Object describe(Properties props) throws Exception {
    Properties p = new Properties();
    p.putAll(props);
    p.putIfAbsent("default.api.timeout.ms", "20000");
    p.putIfAbsent("request.timeout.ms", "10000");
    try (Admin a = Admin.create(p)) {
      return a.describeCluster().nodes().get();
    }
  }

  /** The failure of {@code call}, unwrapped from ExecutionException; fails if it succeeds. */
  private static Throwable failure(Callable<?> call) {
    try {
      call.call();
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      return e;
    }
    throw new AssertionError("expected a failure, but the call succeeded");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
