package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.schemas.ControlAck;
import io.locus.schemas.ControlType;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.NodeStatus;
import io.locus.schemas.NodeStatusType;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The operator commands against a real broker: {@code locus broker} started and stopped in this
 * JVM, {@code locus topics create} (idempotent) and {@code list}, {@code locus status} over a few
 * records of each kind it reads. One broker serves the topics and status checks.
 */
@Tag("integration")
@Timeout(120)
class OperatorCommandsTest {
  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    CommandLine cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    Await.until(what, Duration.ofSeconds(60), condition::getAsBoolean);
  }

  @Test
  void theBrokerStartsSaysWhereCreatesTheTopicsAndLogsItsStop(@TempDir Path dir)
      throws Exception {
    CommandLine cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(new StringWriter(), true));
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(
        () -> cl.execute("broker", "--port", "0", "--data-dir", dir.resolve("kafka").toString()));
    await("the start line", () -> out.toString().contains("locus broker: Kafka at")
        || exit.isDone());
    BrokerCommand cmd = (BrokerCommand) cl.getSubcommands().get("broker").getCommand();
    String bootstrap = cmd.broker().bootstrapServers();
    assertThat(out.toString()).contains("locus broker: Kafka at " + bootstrap)
        .contains("data in " + dir.resolve("kafka").toAbsolutePath())
        .contains(Topics.ALL.size() + " Locus topics present")
        .contains("production uses a real Kafka cluster");
    try (Admin admin = Admin.create(ClientConfigs.base(bootstrap))) {
      assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
          .containsAll(Topics.ALL.stream().map(TopicSpec::name).toList());
    }
    cmd.stop();
    assertThat(exit.get(60, TimeUnit.SECONDS)).isZero();
    assertThat(out.toString()).contains("locus broker: stopping Kafka at " + bootstrap)
        .contains("locus broker: stopped; data kept in " + dir.resolve("kafka").toAbsolutePath());
  }

  @Test
  void aBrokerWithAHostAdvertisesItAndClientsReachItThere(@TempDir Path dir) throws Exception {
    CommandLine cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(new StringWriter(), true));
    // Another loopback address: the broker listens on every interface and names this one.
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cl.execute("broker",
        "--port", "0", "--host", "127.0.0.2", "--data-dir", dir.toString(),
        "--no-create-topics"));
    await("the start line", () -> out.toString().contains("locus broker: Kafka at")
        || exit.isDone());
    BrokerCommand cmd = (BrokerCommand) cl.getSubcommands().get("broker").getCommand();
    String advertised = "127.0.0.2:" + cmd.broker().port();
    try {
      assertThat(out.toString()).contains("Kafka at " + advertised)
          .contains("topics not created (--no-create-topics)");
      Run list = run("topics", "list", "--bootstrap-servers", advertised);
      assertThat(list.code()).isEqualTo(1);
      assertThat(list.out()).containsPattern("decisions +MISSING");
    } finally {
      cmd.stop();
    }
    assertThat(exit.get(60, TimeUnit.SECONDS)).isZero();
  }

  @Test
  void aBrokerPortInUseFailsAtOnceNamingThePort(@TempDir Path dir) throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      Run r = run("broker", "--port", Integer.toString(taken.getLocalPort()), "--data-dir",
          dir.toString());
      assertThat(r.code()).isEqualTo(1);
      assertThat(r.err()).contains("cannot start a broker on port " + taken.getLocalPort())
          .contains("--port 0");
    }
  }

  @Test
  void topicsCreateIsIdempotentAndListComparesWithTheDeclarations() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      String b = kafka.bootstrapServers();
      Run missing = run("topics", "list", "--bootstrap-servers", b);
      assertThat(missing.code()).isEqualTo(1);
      assertThat(missing.out()).containsPattern("job-arrivals +MISSING +- \\[8\\]")
          .contains("'locus topics create' creates missing ones");

      Run first = run("topics", "create", "--bootstrap-servers", b, "--replication-factor", "1");
      assertThat(first.code()).as(first.err()).isZero();
      assertThat(first.out()).containsPattern("decisions +created +16 partitions, 1 replicas")
          .contains(Topics.ALL.size() + " created, 0 already present on " + b);
      Run again = run("topics", "create", "--bootstrap-servers", b);
      assertThat(again.code()).as(again.err()).isZero();
      assertThat(again.out()).containsPattern("decisions +exists +16 partitions")
          .contains("0 created, " + Topics.ALL.size() + " already present");

      Run list = run("topics", "list", "--bootstrap-servers", b);
      assertThat(list.code()).as(list.out()).isZero();
      assertThat(list.out()).containsPattern("task-events +ok +8 +1 +retention.ms=604800000")
          .contains("every topic Locus needs is present");
    }
  }

  @Test
  void statusShowsPolicyNodesCountsAndTheLatestFailuresWithTheirReasons() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      String b = kafka.bootstrapServers();
      assertThat(run("topics", "create", "--bootstrap-servers", b).code()).isZero();
      long now = System.currentTimeMillis();
      try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(ClientConfigs.producer(b))) {
        // the scheduler's counts per pending reason (issue 23), summing to the queue
        send(p, Topics.SCHEDULER_METRICS, "batch", now - 1000, SchedulerMetrics.newBuilder(
            metrics("batch", "MCH", 7, 3, 42)).setPendingByCode(Map.of("no-free-slot", 2L,
                "locality-wait", 5L)).build());
        send(p, Topics.SCHEDULER_METRICS, "other", now - 1000, metrics("other", "FA", 0, 0, 1));
        // Nodes are the scheduler's verdicts (node-status), in the order it made them.
        verdict(p, now - 900, verdict("batch", "n1", "i1", NodeStatusType.REGISTERED, ""));
        verdict(p, now - 800, verdict("batch", "n2", "i2", NodeStatusType.REGISTERED, ""));
        verdict(p, now - 700, verdict("batch", "n2", "i2", NodeStatusType.DRAINING,
            "drained by control d-1"));
        verdict(p, now - 600, verdict("batch", "n3", "i3", NodeStatusType.LOST,
            "not heard from since 1000 ms"));
        verdict(p, now - 500, verdict("batch", "n4", "i4", NodeStatusType.LEFT, "LEAVE"));
        verdict(p, now - 450, verdict("other", "o1", "i9", NodeStatusType.REGISTERED, ""));
        // An impostor of n1 is refused; the scheduler repeats n1's own verdict after it.
        verdict(p, now - 400, NodeStatus.newBuilder(verdict("batch", "n1", "copy",
            NodeStatusType.REFUSED, "REGISTER refused: node 'n1' is owned by live agent instance"
                + " 'i1', not 'copy'")).setCode("forged").build());
        verdict(p, now - 399, verdict("batch", "n1", "i1", NodeStatusType.REGISTERED, ""));
        // Raw reports, an impostor's LEAVE among them, change no node's state.
        send(p, Topics.NODE_REPORTS, "batch", now - 300, report("n1", NodeReportType.LEAVE, false));
        send(p, Topics.NODE_REPORTS, "batch", now - 300, report("n5", NodeReportType.REGISTER,
            false));
        send(p, Topics.TASK_EVENTS, "batch", now - 200, failed("t-17", "n1", "storage has no f-12"));
        send(p, Topics.TASK_EVENTS, "batch", now - 100, refused("t-18", "n2", "agent draining"));
        send(p, Topics.CONTROL_ACKS, "batch", now - 50, ack("batch"));
        // A record that is not Avro: skipped and counted, not fatal.
        p.send(new ProducerRecord<>(Topics.TASK_EVENTS.name(), null, now,
            Topics.TASK_EVENTS.key("batch"), new byte[] {1, 2, 3})).get();
      }
      Run r = run("status", "--bootstrap-servers", b, "--pool", "batch");
      assertThat(r.code()).as(r.err()).isZero();
      assertThat(r.out())
          .contains("pool batch: policy GCC, PAUSED")
          .contains("nodes: 2 registered (1 of them draining), 1 lost, 1 left")
          .contains("draining: n2")
          .contains("lost (in the last 24 h): n3 (not heard from since 1000 ms)")
          .contains("registrations refused: 1; latest:")
          .contains("node n1, agent instance copy: REGISTER refused: node 'n1' is owned by live"
              + " agent instance 'i1', not 'copy' (forged)")
          .contains("tasks: 7 queued, 3 running, 42 completed")
          .contains("queued by reason: 5 locality-wait (waiting for a data holder), 2 "
              + "no-free-slot (waiting for a free slot)")
          .contains("last control: PAUSE_POOL applied")
          .contains("failures: 2 in the last 10 min; latest:")
          .containsPattern("REFUSED task t-18 attempt 1 on n2: agent draining")
          .containsPattern("FAILED task t-17 attempt 1 on n1 \\(exit code -1\\): storage has no"
              + " f-12")
          .contains("1 records could not be decoded")
          .doesNotContain("n5")
          .doesNotContain("pool other");
      // The newest failure first.
      assertThat(r.out().indexOf("t-18")).isLessThan(r.out().indexOf("t-17"));

      Run all = run("status", "--bootstrap-servers", b);
      assertThat(all.code()).isZero();
      assertThat(all.out()).contains("pool other: policy FA")
          .contains("nodes: 1 registered (0 of them draining), 0 lost, 0 left");

      Run unknown = run("status", "--bootstrap-servers", b, "--pool", "nope");
      assertThat(unknown.code()).isEqualTo(3);
      assertThat(unknown.out()).contains("pool nope: nothing in the last 10 min on Kafka at " + b);
    }
  }

  @Test
  void statusKeepsNodesLostBeforeTheLookbackListsRefusedControlsApartAndSaysTheSchedulerIsSilent()
      throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      String b = kafka.bootstrapServers();
      assertThat(run("topics", "create", "--bootstrap-servers", b).code()).isZero();
      long now = System.currentTimeMillis();
      try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(ClientConfigs.producer(b))) {
        // The scheduler's last report is a minute old: it stopped.
        send(p, Topics.SCHEDULER_METRICS, "batch", now - 60_000, metrics("batch", "MCH", 7, 3, 42));
        // Registered two days ago and never judged since: still registered.
        verdict(p, now - 48 * 3_600_000L, verdict("batch", "n1", "i1",
            NodeStatusType.REGISTERED, ""));
        // Lost three hours ago and left an hour ago: both before the 10 min lookback.
        verdict(p, now - 3 * 3_600_000L, verdict("batch", "n3", "i3", NodeStatusType.LOST,
            "not heard from"));
        verdict(p, now - 3_600_000L, verdict("batch", "n4", "i4", NodeStatusType.LEFT, "LEAVE"));
        // Lost longer ago than the node history: not shown.
        verdict(p, now - 30 * 3_600_000L, verdict("batch", "n9", "i9", NodeStatusType.LOST,
            "not heard from"));
        // A control for a pool nobody declared: the scheduler refuses it under that name.
        send(p, Topics.CONTROL_ACKS, "batchx", now - 50, ControlAck.newBuilder(ack("batchx"))
            .setType(ControlType.SET_POLICY).setAccepted(false).setPolicy("").setPaused(false)
            .setMessage("pool batchx is not declared").build());
        // And an agent's registration for it.
        verdict(p, now - 40, NodeStatus.newBuilder(verdict("batchx", "x1", "ix",
            NodeStatusType.REFUSED, "pool 'batchx' is not one of the declared pools [batch]"))
            .setCode("unknown-pool").build());
      }
      Run r = run("status", "--bootstrap-servers", b);
      assertThat(r.code()).as(r.err()).isZero();
      assertThat(r.out())
          .containsPattern("pool batch: policy MCH \\(SCHEDULER NOT REPORTING: its last metrics"
              + " are 6\\d s old, it reports every 1 s and commits every 5 s; is the scheduler"
              + " job running\\?")
          .contains("nodes: 1 registered (0 of them draining), 1 lost, 1 left")
          .contains("lost (in the last 24 h): n3 (not heard from)")
          .doesNotContain("n9")
          .doesNotContain("pool batchx:")
          .contains("controls refused for pools the scheduler does not know:")
          .containsPattern("  batchx: SET_POLICY at [-0-9: ]+: pool batchx is not declared")
          .contains("registrations refused for pools the scheduler does not know:")
          .contains("  batchx: node x1, agent instance ix: pool 'batchx' is not one of the"
              + " declared pools [batch]");

      // A shorter node history: the lost and the left node fall out of sight, n1 stays.
      Run narrow = run("status", "--bootstrap-servers", b, "--node-history", "PT1M",
          "--lookback", "PT2M");
      assertThat(narrow.out()).contains("nodes: 1 registered (0 of them draining), 0 lost, 0 left");

      Run ghost = run("status", "--bootstrap-servers", b, "--pool", "batchx");
      assertThat(ghost.code()).isEqualTo(3);
      assertThat(ghost.out()).contains("pool batchx: nothing in the last 10 min")
          .contains("batchx: SET_POLICY").doesNotContain("pool batchx: policy");
    }
  }

  @Test
  void statusFailsFastNamingAnUnreachableBroker() {
    long t0 = System.nanoTime();
    Run r = run("status", "--bootstrap-servers", "127.0.0.1:1", "--timeout", "3s");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("cannot reach Kafka at 127.0.0.1:1").doesNotContain("\tat ");
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).isLessThan(20);
  }

  private static <V extends SpecificRecord> void send(KafkaProducer<byte[], byte[]> p,
      TopicSpec<V> topic, String pool, long ts, V value) throws Exception {
    p.send(new ProducerRecord<>(topic.name(), null, ts, topic.key(pool), topic.value(value)))
        .get();
  }

  private static SchedulerMetrics metrics(String pool, String policy, long queue, long running,
      long completed) {
    return SchedulerMetrics.newBuilder().setPool(pool).setTimeMs(0).setEpoch(1)
        .setPolicy(policy).setQueueLength(queue).setRunningTasks(running).setRegisteredNodes(3)
        .setTotalSlots(6).setBusySlots(3).setPlacements(50).setCompletions(completed)
        .setFailures(1).setBytesLocal(0).setBytesPeer(0).setBytesStorage(0).build();
  }

  private static void verdict(KafkaProducer<byte[], byte[]> p, long ts, NodeStatus v)
      throws Exception {
    p.send(new ProducerRecord<>(Topics.NODE_STATUS.name(), null, ts,
        Topics.NODE_STATUS.key(Topics.nodeStatusKey(v.getPool(), v.getNode())),
        Topics.NODE_STATUS.value(v))).get();
  }

  private static NodeStatus verdict(String pool, String node, String instance,
      NodeStatusType state, String reason) {
    return NodeStatus.newBuilder().setPool(pool).setNode(node).setInstanceId(instance)
        .setState(state).setReason(reason).setSlots(2).setTimeMs(0).setEpoch(1).build();
  }

  private static NodeReport report(String node, NodeReportType type, boolean draining) {
    return NodeReport.newBuilder().setPool("batch").setNode(node).setType(type).setTimeMs(0)
        .setDraining(draining).build();
  }

  private static TaskEvent failed(String task, String node, String message) {
    return TaskEvent.newBuilder().setPool("batch").setTaskId(task).setJobId(task).setAttempt(1)
        .setNode(node).setType(TaskEventType.FAILED).setTimeMs(0).setExitCode(-1)
        .setMessage(message).build();
  }

  private static TaskEvent refused(String task, String node, String message) {
    return TaskEvent.newBuilder(failed(task, node, message)).setType(TaskEventType.REFUSED)
        .setExitCode(0).build();
  }

  private static ControlAck ack(String pool) {
    return ControlAck.newBuilder().setPool(pool).setRequestId("r1").setType(ControlType.PAUSE_POOL)
        .setAccepted(true).setMessage("pool paused").setPolicy("GCC").setPaused(true)
        .setTimeMs(0).build();
  }
}
