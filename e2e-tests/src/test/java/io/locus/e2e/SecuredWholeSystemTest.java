package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.cli.LocusCli;
import io.locus.core.model.InputFile;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.KafkaSecurityAdmin;
import io.locus.kafka.LocusAcls;
import io.locus.kafka.Topics;
import io.locus.kafka.testkit.BrokerCertificates;
import io.locus.kafka.testkit.BrokerSecurity;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
import io.locus.workloads.TraceJob;
import io.locus.workloads.TraceWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole system on a broker that speaks only SASL_SSL (TLS, SCRAM-SHA-512) and denies what no
 * ACL grants, each process logged in as its own role ({@link LocusAcls}) with a settings file as
 * docs/operations.md ("A secured cluster, step by step") shows, and the HMAC secrets on: {@code
 * locus topics create} as the broker's admin; {@code locus run} as the scheduler (a child process:
 * the command line, a MiniCluster on RocksDB, exactly-once); two {@code locus agent real} children
 * (real processes over real files, each node its own SCRAM user and node key); {@code locus
 * replay} of a workflow with parents as the submitter; {@code locus status} and {@code locus
 * dashboard} as a read-only monitor; {@code locus control} as an operator. Midway the scheduler
 * stops with a savepoint and starts again from it, and a second replay runs.
 *
 * <p>Checks: every job is placed once and completes once (one PlaceTask and one COMPLETED per job,
 * no FAILED or REFUSED), nothing is dead-lettered (every signed record verified), each output is
 * on disk in storage with the content its task made from its inputs, the monitor's status and
 * dashboard count every completion, a pause and a resume are acknowledged, and the ACLs hold while the system runs: an agent's login
 * cannot submit jobs, write decisions or use the scheduler's transactional ids; the submitter's
 * cannot write decisions; the monitor's cannot write; a wrong password is refused and a client
 * without SASL and TLS gets nothing.
 */
@Tag("integration")
@Timeout(240)
class SecuredWholeSystemTest {
  private static final String POOL = "secured";
  private static final List<String> NODES = List.of("sec-node-0", "sec-node-1");
  private static final String GROUP = "locus-secured";
  private static final String TXN_PREFIX = "locus-secured";
  private static final Duration WAIT = Duration.ofSeconds(120);
  /** Sizes of the two files in storage (written by locus storage create). */
  private static final long[] RAW_BYTES = {48_000, 64_000};

  @TempDir Path dir;

  /**
   * Two roots read a storage file each; two middle jobs read both roots' outputs; a join reads
   * the middle ones; four independent leaves read the storage files. Every job writes one output:
   * its id and a newline, then its inputs (concat.sh), so every declared size is the real one (an
   * agent checks a staged file against its planned size).
   */
  static List<TraceJob> workflow() {
    List<TraceJob> jobs = new ArrayList<>();
    Map<String, InputFile> out = new LinkedHashMap<>();
    for (int i = 0; i < 2; i++) {
      jobs.add(job("root-" + i, List.of(), List.of(InputFile.of("raw-" + i, RAW_BYTES[i])),
          "o-" + i, out));
    }
    for (int i = 0; i < 2; i++) {
      jobs.add(job("mid-" + i, List.of("root-0", "root-1"),
          List.of(out.get("root-" + i), out.get("root-" + (1 - i))), "m-" + i, out));
    }
    jobs.add(job("join", List.of("mid-0", "mid-1"), List.of(out.get("mid-0"), out.get("mid-1")),
        "final", out));
    for (int i = 0; i < 4; i++) {
      InputFile raw = InputFile.of("raw-" + i % 2, RAW_BYTES[i % 2]);
      jobs.add(job("leaf-" + i, List.of(), List.of(raw), "leaf-out-" + i, out));
    }
    return jobs;
  }

  /** Three jobs that read the workflow's last output (from storage or a cache) and a raw file. */
  static List<TraceJob> afterRestart(List<TraceJob> workflow) {
    InputFile last = workflow.stream().filter(j -> j.jobId().equals("join")).findFirst()
        .orElseThrow().outputs().get(0);
    List<TraceJob> jobs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      jobs.add(job("again-" + i, List.of(), List.of(last, InputFile.of("raw-1", RAW_BYTES[1])),
          "again-out-" + i, new LinkedHashMap<>()));
    }
    return jobs;
  }

  private static TraceJob job(String id, List<String> parents, List<InputFile> inputs,
      String output, Map<String, InputFile> outputs) {
    long bytes = id.length() + 1 + inputs.stream().mapToLong(InputFile::bytes).sum();
    InputFile o = InputFile.of(output, bytes);
    outputs.put(id, o);
    return new TraceJob(id, null, 0, inputs, 0.1, 0, Map.of(), null, parents, List.of(o), null,
        List.of());
  }

  @Test
  void everyRoleTalksOnlyThroughItsOwnLoginAndTheAclsHold() throws Exception {
    List<TraceJob> jobs = workflow();
    List<TraceJob> again = afterRestart(jobs);
    BrokerCertificates pki = BrokerCertificates.open(dir.resolve("pki"));
    List<Child> children = new ArrayList<>();
    long t0 = System.nanoTime();
    java.util.function.Consumer<String> step = what -> System.out.printf(
        "secured whole system: %s at %.1f s%n", what, (System.nanoTime() - t0) / 1e9);
    EmbeddedKafka kafka = EmbeddedKafka.startSecure(BrokerSecurity.secureOnly(pki));
    try (Admin admin = Admin.create(kafka.adminProperties())) {
      String bootstrap = kafka.secureBootstrapServers();
      Path etc = Files.createDirectories(dir.resolve("etc"));
      Files.copy(pki.truststore(), etc.resolve("ca.p12"));
      Files.writeString(etc.resolve("ca.password"), pki.password() + "\n");

      step.accept("broker up");
      // 1. Topics, as the broker's admin (the only login that may create them).
      Path adminProps = roleProperties(etc, kafka.security().adminUser(),
          kafka.security().adminPassword());
      assertThat(cli("topics", "create", "--bootstrap-servers", bootstrap,
          "--kafka-properties", adminProps.toString()).code).isZero();

      // 2. One SCRAM user per process, and its role's ACLs.
      Map<String, Path> props = new LinkedHashMap<>();
      props.put("scheduler", user(admin, etc, "scheduler",
          LocusAcls.scheduler("User:scheduler", GROUP, TXN_PREFIX)));
      for (String node : NODES) {
        props.put(node, user(admin, etc, "agent-" + node,
            LocusAcls.agent("User:agent-" + node, true)));
      }
      props.put("submitter", user(admin, etc, "submitter", LocusAcls.submitter("User:submitter")));
      props.put("monitor", user(admin, etc, "monitor", LocusAcls.monitor("User:monitor")));
      props.put("controller", user(admin, etc, "operator",
          LocusAcls.controller("User:operator")));

      step.accept("topics and users made");
      // 3. The HMAC secrets: decisions signed for the agents, each node's records with its key.
      Path decisionSecret = secret(etc.resolve("decision.secret"));
      Path clusterSecret = secret(etc.resolve("cluster.secret"));
      for (String node : NODES) {
        assertThat(cli("agent", "node-key", "--node", node, "--cluster-secret-file",
            clusterSecret.toString(), "--out", etc.resolve(node + ".key").toString()).code)
            .isZero();
      }

      // 4. The trace and its input files in storage.
      Path trace = dir.resolve("secured.jsonl");
      try (TraceWriter w = TraceWriter.open(trace, "secured", "a workflow on a secured broker",
          jobs.size())) {
        for (TraceJob j : jobs) {
          w.write(j);
        }
      }
      Path storage = Files.createDirectories(dir.resolve("storage"));
      assertThat(cli("storage", "create", "--trace", trace.toString(), "--storage-root",
          storage.toString()).code).isZero();

      step.accept("secrets and storage ready");
      // 5. The scheduler: `locus run` as a child process, logged in as the scheduler.
      List<String> run = List.of("run",
          "--bootstrap-servers", bootstrap,
          "--kafka-properties", props.get("scheduler").toString(),
          "--no-create-topics",
          "--state-dir", dir.resolve("scheduler-state").toString(),
          "--delivery", "exactly-once",
          "--checkpoint-interval", "PT1S",
          "--metrics-interval-ms", "500",
          "--metrics-port", "off",
          "--rest-port", Integer.toString(freePort()),
          "--restart-attempts", "0",
          "--stop-timeout", "PT20S",
          "--pools", POOL,
          "--group-id", GROUP,
          "--transactional-id-prefix", TXN_PREFIX,
          "--node-secret-file", clusterSecret.toString(),
          "--decision-secret-file", decisionSecret.toString());
      Child scheduler = Child.start("secured-locus-run", 700, run);
      children.add(scheduler);
      scheduler.awaitLine("locus run: job ", WAIT);

      step.accept("scheduler job running");
      // 6. Two real agents, each with its own login and node key.
      Path script = Files.writeString(dir.resolve("concat.sh"), String.join("\n",
          "# writes the job id, then its inputs, to its one output",
          "out=\"$1\"; shift",
          "{ printf '%s\\n' \"$LOCUS_JOB_ID\"; cat \"$@\"; } > \"$out\"", ""));
      for (String node : NODES) {
        Path yaml = Files.writeString(dir.resolve(node + ".yaml"), agentYaml(node, storage,
            bootstrap, props.get(node), decisionSecret, etc.resolve(node + ".key"), script));
        Child agent = Child.start("secured-agent-" + node, 256,
            List.of("agent", "real", "--config", yaml.toString(), "--stats-interval", "PT0S"));
        children.add(agent);
      }
      for (Child agent : children.subList(1, children.size())) {
        agent.awaitLine("registered by the scheduler", WAIT);
      }
      // The dashboard, as the monitor; it follows the topics while the workflow runs.
      int dashboardPort = freePort();
      Child dashboard = Child.start("secured-dashboard", 256, List.of("dashboard",
          "--bootstrap-servers", bootstrap, "--kafka-properties", props.get("monitor").toString(),
          "--host", "127.0.0.1", "--port", Integer.toString(dashboardPort)));
      children.add(dashboard);

      step.accept("agents registered");
      // 7. The workflow, submitted by replay as the submitter: it waits for the workflow status.
      Run replay = cli("replay", "--trace", trace.toString(), "--bootstrap-servers", bootstrap,
          "--kafka-properties", props.get("submitter").toString(), "--pool", POOL,
          "--speedup", "0", "--timeout", "60s", "--wait", "-q");
      assertThat(replay.code).as("locus replay:\n" + replay.out).isZero();
      for (Child c : children) {
        assertThat(c.isAlive()).as(c.name + " still runs\n" + c.tail()).isTrue();
      }

      step.accept("replay done");
      // 8. The scheduler stops with a savepoint (SIGTERM) and starts again from it, the same
      // user: its exactly-once sink takes up its transactional ids again and its source resumes
      // with its group, under its ACLs. A second workflow reads the first one's last output.
      assertThat(scheduler.stop(Duration.ofSeconds(60))).as(scheduler.tail()).isZero();
      assertThat(scheduler.text()).contains("locus run: savepoint done");
      scheduler = Child.start("secured-locus-run-again", 700, run);
      children.set(0, scheduler);
      scheduler.awaitLine("locus run: job ", WAIT);
      assertThat(scheduler.text()).contains("locus run: starting from latest savepoint");
      Path trace2 = dir.resolve("secured-again.jsonl");
      try (TraceWriter w = TraceWriter.open(trace2, "secured-again", "after the restart",
          again.size())) {
        for (TraceJob j : again) {
          w.write(j);
        }
      }
      replay = cli("replay", "--trace", trace2.toString(), "--bootstrap-servers", bootstrap,
          "--kafka-properties", props.get("submitter").toString(), "--pool", POOL,
          "--speedup", "0", "--timeout", "60s", "--wait", "-q");
      assertThat(replay.code).as("locus replay after the restart:\n" + replay.out).isZero();
      for (Child c : children) {
        assertThat(c.isAlive()).as(c.name + " still runs\n" + c.tail()).isTrue();
      }
      List<TraceJob> all = new ArrayList<>(jobs);
      all.addAll(again);

      step.accept("restarted from the savepoint, second replay done");
      // 9. Exactly once, across the restart: one placement and one COMPLETED per job, nothing
      // failed or refused.
      Map<String, List<TaskEvent>> events = new TreeMap<>();
      readAll(kafka, Topics.TASK_EVENTS.name(), r -> {
        TaskEvent e = Topics.TASK_EVENTS.decode(r.value());
        if (POOL.equals(e.getPool())) {
          events.computeIfAbsent(e.getJobId(), k -> new ArrayList<>()).add(e);
        }
      });
      Map<String, Integer> placements = new TreeMap<>();
      readAll(kafka, Topics.DECISIONS.name(), r -> {
        Decision d = Topics.DECISIONS.decode(r.value());
        if (POOL.equals(d.getPool()) && d.getAction() instanceof io.locus.schemas.PlaceTask p) {
          placements.merge(p.getJobId(), 1, Integer::sum);
        }
      });
      List<String> ids = all.stream().map(TraceJob::jobId).sorted().toList();
      assertThat(events.keySet()).containsExactlyElementsOf(ids);
      assertThat(placements.keySet()).containsExactlyElementsOf(ids);
      assertThat(placements.values()).as("placements per job").containsOnly(1);
      java.util.Set<String> nodesUsed = new java.util.TreeSet<>();
      for (var e : events.entrySet()) {
        List<TaskEvent> completed = e.getValue().stream()
            .filter(t -> t.getType() == TaskEventType.COMPLETED).toList();
        assertThat(completed).as("COMPLETED of " + e.getKey()).hasSize(1);
        assertThat(completed.get(0).getExitCode()).isZero();
        // No failure and no refused placement. A REFUSED answering a withdraw is the late-binding
        // protocol at work (real agents hold a local queue by default: the scheduler asked to
        // take a queued attempt back for an idle node, and the attempt had started meanwhile).
        assertThat(e.getValue()).as("events of " + e.getKey()).noneMatch(t ->
            t.getType() == TaskEventType.FAILED || (t.getType() == TaskEventType.REFUSED
                && !String.valueOf(t.getDecisionId()).startsWith(POOL + "/cancel/")));
        nodesUsed.add(completed.get(0).getNode());
      }
      assertThat(nodesUsed).as("nodes that ran jobs").isSubsetOf(NODES);

      // 10. The outputs, staged out to storage: each the job's id, then its inputs' bytes.
      for (TraceJob j : all) {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write((j.jobId() + "\n").getBytes(StandardCharsets.UTF_8));
        for (InputFile in : j.inputs()) {
          expected.write(Files.readAllBytes(storage.resolve(in.id())));
        }
        Path out = storage.resolve(j.outputs().get(0).id());
        assertThat(out).as("output of " + j.jobId()).isRegularFile();
        assertThat(Files.readAllBytes(out)).as("output of " + j.jobId())
            .isEqualTo(expected.toByteArray());
      }

      step.accept("topics checked");
      // Every signed record verified: the scheduler dead-lettered nothing (no forged, no clock).
      List<String> deadLetters = new ArrayList<>();
      readAll(kafka, Topics.DEAD_LETTERS.name(),
          r -> deadLetters.add(String.valueOf(Topics.DEAD_LETTERS.decode(r.value()))));
      assertThat(deadLetters).isEmpty();

      // 11. locus status, as the read-only monitor, sees the pool and every completion.
      String status = Await.atMost(Duration.ofSeconds(30)).pollEvery(Duration.ZERO).until(
          "locus status (monitor) reports " + all.size() + " completed",
          () -> cli("status", "--bootstrap-servers", bootstrap, "--kafka-properties",
              props.get("monitor").toString(), "--pool", POOL, "--metrics-interval", "PT0.5S",
              "--checkpoint-interval", "PT1S").out,
          s -> s.contains(all.size() + " completed"));
      assertThat(status).contains("pool " + POOL).contains("nodes: 2 registered");

      step.accept("status read");
      // ... and so does its dashboard, from every record of the run.
      dashboard.awaitLine("locus dashboard: http://127.0.0.1:" + dashboardPort, WAIT);
      HttpClient http = HttpClient.newHttpClient();
      JsonNode totals = Await.atMost(Duration.ofSeconds(30)).pollEvery(Duration.ofMillis(250))
          .until("the dashboard (monitor) counts " + all.size() + " completed",
              () -> new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(URI.create(
                  "http://127.0.0.1:" + dashboardPort + "/api/snapshot")).build(),
                  HttpResponse.BodyHandlers.ofString()).body()).path("totals"),
              t -> t.path("completed").asLong() == all.size());
      assertThat(totals.path("placements").asLong()).isEqualTo(all.size());
      assertThat(totals.path("aliveNodes").asInt()).isEqualTo(NODES.size());
      assertThat(totals.path("deadLetters").asLong()).isZero();
      step.accept("dashboard read");
      // An operator's console, as the controller: a control and the scheduler's ack go through.
      for (String action : List.of("pause", "resume")) {
        Run control = cli("control", "--bootstrap-servers", bootstrap, "--kafka-properties",
            props.get("controller").toString(), POOL, action);
        assertThat(control.code).as("locus control " + action + ":\n" + control.out).isZero();
      }
      step.accept("paused and resumed");

      // 12. The ACLs, while everything runs.
      assertAclsHold(bootstrap, props);

      for (Child c : children) {
        assertThat(c.isAlive()).as(c.name + " still runs\n" + c.tail()).isTrue();
      }
      step.accept("ACLs checked");
    } catch (AssertionError | Exception e) {
      for (Child c : children) {
        System.out.println("--- " + c.name + " (" + c.log + "):\n" + c.tail());
      }
      throw e;
    } finally {
      // The processes before the broker (else they spend their stop retrying it): the dashboard
      // and the agents (drain, LEAVE), then the scheduler (stop with a savepoint).
      for (int i = children.size() - 1; i >= 0; i--) {
        children.get(i).close();
      }
      kafka.close();
    }
  }

  private void assertAclsHold(String bootstrap, Map<String, Path> props) throws Exception {
    JobSubmitted job = JobSubmitted.newBuilder().setJobId("forged-job").setPool(POOL)
        .setSubmitTimeMs(System.currentTimeMillis()).setInputs(List.of()).build();
    ProducerRecord<byte[], byte[]> submit = new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
        Topics.JOB_ARRIVALS.key(POOL), Topics.JOB_ARRIVALS.value(job));
    ProducerRecord<byte[], byte[]> decision = new ProducerRecord<>(Topics.DECISIONS.name(),
        Topics.DECISIONS.key(POOL), new byte[] {0});
    // An agent's login: may not submit work, nor instruct another agent.
    try (KafkaProducer<byte[], byte[]> agent = producer(bootstrap, props.get(NODES.get(0)))) {
      assertThat(sendFails(agent, submit)).isInstanceOf(TopicAuthorizationException.class);
      assertThat(sendFails(agent, decision)).isInstanceOf(TopicAuthorizationException.class);
    }
    // ... nor use the scheduler's transactional ids to commit decisions as if it were it.
    Properties txn = producerProperties(bootstrap, props.get(NODES.get(0)));
    txn.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, TXN_PREFIX + "-decisions-0");
    try (KafkaProducer<byte[], byte[]> agent = new KafkaProducer<>(txn)) {
      assertThatThrownBy(agent::initTransactions)
          .isInstanceOf(TransactionalIdAuthorizationException.class);
    }
    // The submitter's login: may submit, but not write decisions.
    try (KafkaProducer<byte[], byte[]> submitter = producer(bootstrap, props.get("submitter"))) {
      assertThat(sendFails(submitter, decision)).isInstanceOf(TopicAuthorizationException.class);
    }
    // The monitor's login reads, and writes nothing. (Not idempotent: an idempotent producer with
    // WRITE on no topic is refused its producer id first, a cluster-level refusal that races with
    // the send; this asks about the topic itself.)
    Properties monitorProps = producerProperties(bootstrap, props.get("monitor"));
    monitorProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
    try (KafkaProducer<byte[], byte[]> monitor = new KafkaProducer<>(monitorProps)) {
      assertThat(sendFails(monitor, submit)).isInstanceOf(TopicAuthorizationException.class);
    }
    // A wrong password is refused at the login.
    Properties wrong = producerProperties(bootstrap, props.get("submitter"));
    wrong.put("sasl.jaas.config", ClientConfigs.jaasConfig(ClientConfigs.SCRAM_MECHANISM,
        "submitter", "not-the-password"));
    try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(wrong)) {
      assertThat(sendFails(p, submit)).isInstanceOf(SaslAuthenticationException.class);
    }
    // A client without credentials (no SASL, no TLS) gets no answer: locus status gives up.
    Run anonymous = cli("status", "--bootstrap-servers", bootstrap, "--pool", POOL,
        "--timeout", "PT3S");
    assertThat(anonymous.code).as(anonymous.out).isNotZero();
    assertThat(anonymous.out).contains("cannot reach Kafka").doesNotContain("pool " + POOL + ":");
  }

  private static Throwable sendFails(KafkaProducer<byte[], byte[]> p,
      ProducerRecord<byte[], byte[]> r) {
    try {
      p.send(r).get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      return e;
    }
    throw new AssertionError("the broker accepted a write to " + r.topic());
  }

  private static Properties producerProperties(String bootstrap, Path roleProps) {
    Properties p = ClientConfigs.withOverrides(ClientConfigs.producer(bootstrap), roleProps);
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "20000");
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
    return p;
  }

  private static KafkaProducer<byte[], byte[]> producer(String bootstrap, Path roleProps) {
    return new KafkaProducer<>(producerProperties(bootstrap, roleProps));
  }

  /** Makes SCRAM user {@code name} with {@code acls} and writes its settings file. */
  private static Path user(Admin admin, Path etc, String name,
      List<org.apache.kafka.common.acl.AclBinding> acls) throws IOException {
    String password = UUID.randomUUID().toString();
    KafkaSecurityAdmin.upsertScramUser(admin, name, password);
    KafkaSecurityAdmin.createAcls(admin, acls);
    return roleProperties(etc, name, password);
  }

  /** The settings file of one login, as docs/operations.md shows it. */
  private static Path roleProperties(Path etc, String name, String password) throws IOException {
    Path pw = etc.resolve(name + ".password");
    Files.writeString(pw, password + "\n");
    Files.setPosixFilePermissions(pw, PosixFilePermissions.fromString("rw-------"));
    return Files.writeString(etc.resolve(name + ".properties"), String.join("\n",
        "security.protocol=SASL_SSL",
        "ssl.truststore.type=PKCS12",
        "ssl.truststore.location=ca.p12",
        "locus.ssl.truststore.password.file=ca.password",
        "locus.sasl.username=" + name,
        "locus.sasl.password.file=" + name + ".password", ""));
  }

  private static Path secret(Path file) throws IOException {
    byte[] b = new byte[32];
    new java.security.SecureRandom().nextBytes(b);
    Files.writeString(file, HexFormat.of().formatHex(b) + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  private static String agentYaml(String node, Path storage, String bootstrap, Path kafkaProps,
      Path decisionSecret, Path nodeKey, Path script) {
    return String.join("\n",
        "pool: " + POOL,
        "node-id: " + node,
        "slots: 2",
        "heartbeat: 500ms",
        "data-dir: " + storage.getParent().resolve(node).toAbsolutePath(),
        "cache:",
        "  quota: 10MB",
        "storage:",
        "  root: " + storage.toAbsolutePath().toUri(),
        "kafka:",
        "  bootstrap-servers: " + bootstrap,
        "  properties-file: " + kafkaProps.toAbsolutePath(),
        "  read-committed: true",
        "  start-from: earliest",
        "  create-topics: false",
        "http:",
        "  bind: 127.0.0.1",
        "  port: 0",
        "security:",
        "  secret-file: " + decisionSecret.toAbsolutePath(),
        "  node-key-file: " + nodeKey.toAbsolutePath(),
        "templates:",
        "  concat:",
        "    command: [sh, \"" + script.toAbsolutePath() + "\", \"{output:0}\", \"{inputs}\"]",
        "    max-args: 0",
        "default-template: concat",
        "");
  }

  /** Reads a whole topic from the beginning as the broker's super user. */
  private static void readAll(EmbeddedKafka kafka, String topic,
      java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) {
    Properties p = ClientConfigs.consumer(kafka.secureBootstrapServers(), null, true);
    p.putAll(kafka.adminProperties());
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
      List<TopicPartition> parts = new ArrayList<>();
      c.partitionsFor(topic).forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      Await.atMost(Duration.ofSeconds(30)).pollEvery(Duration.ZERO).until(
          "read " + topic + " to its end " + end, () -> {
            c.poll(Duration.ofMillis(200)).forEach(each);
            return parts.stream().allMatch(tp -> c.position(tp) >= end.get(tp));
          });
    }
  }

  record Run(int code, String out) {}

  /** A {@code locus} command in this JVM, as LocusCli's main runs it; its output and code. */
  private static Run cli(String... args) {
    StringWriter out = new StringWriter();
    var cl = LocusCli.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(out, true));
    int code = cl.execute(args);
    return new Run(code, out.toString());
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A {@code locus} command as a child JVM on this test's class path (with its JDK module flags,
   * which Flink needs), its output in target/child-logs/NAME.log.
   */
  private static final class Child implements AutoCloseable {
    final String name;
    final Path log;
    final Process process;

    private Child(String name, Path log, Process process) {
      this.name = name;
      this.log = log;
      this.process = process;
    }

    static Child start(String name, int heapMb, List<String> args) throws IOException {
      List<String> cmd = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx" + heapMb + "m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
      for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
        if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
          cmd.add(a);
        }
      }
      cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), LocusCli.class.getName()));
      cmd.addAll(args);
      Path log = Path.of("target", "child-logs", name + ".log").toAbsolutePath();
      Files.createDirectories(log.getParent());
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      return new Child(name, log, p);
    }

    boolean isAlive() {
      return process.isAlive();
    }

    String text() {
      try {
        return Files.readString(log, StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "";
      }
    }

    String tail() {
      String s = text();
      return s.substring(Math.max(0, s.length() - 6000));
    }

    /** Waits until the child printed {@code line}; fails at once if it exits first. */
    void awaitLine(String line, Duration timeout) {
      Await.atMost(timeout).pollEvery(Duration.ofMillis(100)).until(
          () -> name + " printed '" + line + "'\n" + tail(), () -> {
            if (text().contains(line)) {
              return true;
            }
            if (!process.isAlive()) {
              throw new AssertionError(name + " exited (" + process.exitValue() + ") before '"
                  + line + "':\n" + tail());
            }
            return false;
          });
    }

    /** SIGTERM; waits for the exit and returns its code (killing the child past the timeout). */
    int stop(Duration timeout) throws InterruptedException {
      process.destroy();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        throw new AssertionError(name + " did not stop within " + timeout + ":\n" + tail());
      }
      return process.exitValue();
    }

    @Override
    public void close() {
      process.destroy();
      try {
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }
}
