package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.AgentIdentity;
import io.locus.agent.EpochStore;
import io.locus.agent.HostConfig;
import io.locus.agent.sim.LocalPeerDirectory;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.connectors.DeliveryMode;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.demo.DemoRun;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.CancelTask;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.InputPlan;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.auth.NodeKeys;
import io.locus.schemas.codec.DeadLetterCodes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile input at scale: more than a thousand bad records of more than fifteen kinds on every
 * input topic, plus forged and malformed decisions on {@code decisions}, sent while valid work runs.
 * Every bad input record must land in dead-letters with the code its kind calls for (matched by
 * topic, partition and offset), every forged PlaceTask must be refused by the agent, no agent's
 * consumer may die, and all the valid work must complete.
 *
 * <p>The scheduler has a cluster node secret and every agent signs with its node's key, so the
 * hostile node records are signed too, as a compromised node (holding its own key) would sign
 * them: they test what a node can do beyond forging signatures. In a second pool whose tasks run
 * for the whole test, one node claims the other's running attempts (issue 22, finding 2) and
 * completions of jobs not submitted yet (finding 3): dead-lettered {@code no-proof}, the attempts
 * keep running where they are, and the jobs, once submitted, are placed like any other.
 */
@Tag("integration")
@Timeout(420)
class FuzzSystemTest {
  private static final String POOL = "e2e-fuzz";
  /** A declared pool without nodes: its jobs queue, so resubmitting one is a duplicate. */
  private static final String IDLE = "e2e-fuzz-idle";
  private static final int NODES = 4;
  private static final long SEED = 1212;
  /** A pool of two nodes whose tasks outlast the test: their attempts are claimed by the other. */
  private static final String HELD = "e2e-fuzz-held";
  private static final int HELD_RUNS = 6;
  private static final int PRE_COMPLETIONS = 10;
  /** The scheduler's cluster node secret; the agents (and the hostile records) use its keys. */
  private static final byte[] SECRET = "fuzz cluster node secret".getBytes(StandardCharsets.UTF_8);
  private static final NodeKeys KEYS = new NodeKeys(SECRET);

  /** One bad record: what it is, where it goes, and which dead-letter codes are right for it. */
  private record Bad(String kind, String topic, byte[] key, byte[] value, Set<String> codes) {}

  @Test
  void everyBadRecordIsDeadLetteredWithItsReasonAndValidWorkCompletes() throws Exception {
    SchedulerConfig cfg = SchedulerConfig.defaults("MCH").withPools(Set.of(POOL, IDLE, HELD))
        .withNodeSecret(SECRET);
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(2));
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers());
        HeldPool held = new HeldPool(locus.bootstrapServers())) {
      long[] refusedEpochs = new long[1];
      CompletableFuture<Map<Bad, RecordMetadata>> sent = CompletableFuture.supplyAsync(() -> {
        try {
          // Once the agents have registered and work flows, the copies' claims are conflicts.
          // Best effort, not Await: the bad records go out after 120 s even without 20 completions.
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
          while (tracker.stats(POOL).completed < 20 && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
          }
          sendAll(locus.bootstrapServers(), badDecisions());
          List<Bad> all = new ArrayList<>(badRecords(tracker));
          all.addAll(held.crossNodeClaims());
          all.addAll(held.preCompletions());
          Map<Bad, RecordMetadata> records = sendAll(locus.bootstrapServers(), all);
          // While the agents still run: their refusals of the forged placements.
          // Best effort too: the count is asserted later, with what was seen.
          long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          while ((refusedEpochs[0] = absurdEpochRefusals(tracker)) < FORGED_EPOCHS
              && System.nanoTime() < until) {
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
          }
          return records;
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      DemoRun.Result r = WholeSystem.go(locus, tracker,
          WholeSystem.run(POOL, 1200, 80, NODES, SEED, false));
      Map<Bad, RecordMetadata> bad = sent.get(60, TimeUnit.SECONDS);
      assertThat(r.stats().completed).as("valid work completes").isEqualTo(1200);
      assertThat(r.stats().duplicateCompletions).isZero();
      assertThat(tracker.undecodable()).as("garbage on task-events and decisions skipped")
          .isPositive();

      long inputKinds = bad.keySet().stream().filter(b -> !b.codes().isEmpty())
          .map(Bad::kind).distinct().count();
      assertThat(bad.keySet().stream().filter(b -> !b.codes().isEmpty()).count())
          .isGreaterThanOrEqualTo(1000);
      assertThat(inputKinds).isGreaterThanOrEqualTo(15);

      // On decisions: garbage and absurd lengths are skipped by the agents' consumer (DemoRun
      // fails the run if it died); forged placements are refused, never run.
      assertThat(refusedEpochs[0]).as("placements with an absurd epoch refused")
          .isEqualTo(FORGED_EPOCHS);
      int expected = (int) bad.keySet().stream().filter(b -> !b.codes().isEmpty()).count();
      Map<String, DeadLetter> letters = readDeadLetters(locus.bootstrapServers(), expected);
      Map<String, int[]> byKind = new TreeMap<>();
      List<String> wrong = new ArrayList<>();
      for (Map.Entry<Bad, RecordMetadata> e : bad.entrySet()) {
        RecordMetadata m = e.getValue();
        DeadLetter d = letters.get(m.topic() + "/" + m.partition() + "/" + m.offset());
        int[] counts = byKind.computeIfAbsent(e.getKey().kind(), k -> new int[2]);
        counts[0]++;
        boolean right = e.getKey().codes().isEmpty() ? d == null
            : d != null && e.getKey().codes().contains(d.getCode());
        if (right) {
          counts[1]++;
        } else if (wrong.size() < 20) {
          wrong.add(e.getKey().kind() + " at " + m.topic() + "/" + m.offset() + ": "
              + (d == null ? "no dead letter" : d.getCode() + " " + d.getReason()));
        }
      }
      byKind.forEach((k, c) -> System.out.printf("fuzz %-38s %4d sent, %4d handled right%n",
          k, c[0], c[1]));
      assertThat(wrong).as("records without the right dead letter").isEmpty();

      // The claimed attempts still run where they were placed, none was cancelled, and the jobs
      // completed "before they existed" are placed when they arrive (their forged completions
      // were read: their dead letters are in), not counted complete.
      held.submitPreCompleted();
      held.awaitPlaced(PRE_COMPLETIONS, "held-pre-");
      assertThat(held.cancels()).as("cancels in pool " + HELD).isEmpty();
      WholeSystem.await(Duration.ofSeconds(30), "metrics of pool " + HELD + " with every task "
          + "running", () -> {
            SchedulerMetrics m = tracker.latestMetrics(HELD);
            return m != null && m.getRunningTasks() == HELD_RUNS + PRE_COMPLETIONS;
          });
      assertThat(tracker.latestMetrics(HELD).getCompletions()).as("effective completions in "
          + HELD).isZero();
    }
  }

  /**
   * Two signed nodes of pool {@link #HELD} whose tasks run for 1,000 s of wall time, and what
   * each node sees of the other: every decision of the pool (ids, epochs, instances and proofs
   * are all on the topic). The test plays a compromised node: it holds that node's key.
   */
  private static final class HeldPool implements AutoCloseable {
    private final String bootstrap;
    private final AgentHost<?> agents;
    private final TopicTail decisions;
    private final List<Decision> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

    HeldPool(String bootstrap) {
      this.bootstrap = bootstrap;
      AgentConfig template = AgentConfig.builder(HELD).slots(16)
          .cacheCapacityBytes(1_000_000_000L).storageBandwidth(50e6).peerBandwidth(100e6)
          .localBandwidth(400e6).timeScale(0.01).build();
      HostConfig host = HostConfig.builder(bootstrap)
          .nodeIds(HostConfig.nodeIds(HELD + "-node-", 2))
          .readCommitted(false)
          .startFrom(HostConfig.StartFrom.EARLIEST)
          .ensureTopics(false)
          .build();
      decisions = TopicTail.builder(ClientConfigs.consumer(bootstrap, null, false))
          .name("fuzz-held-decisions")
          .follow(Topics.DECISIONS, (d, meta) -> {
            if (HELD.equals(d.getPool())) {
              seen.add(d);
            }
          })
          .start();
      agents = AgentHost.start(host, new SimulatedAgents(template, new LocalPeerDirectory(),
          node -> new AgentIdentity(instance(node), EpochStore.inMemory(), KEYS.signer(node))));
    }

    static String instance(String node) {
      return "instance-of-" + node;
    }

    static String other(String node) {
      return node.equals(HELD + "-node-00") ? HELD + "-node-01" : HELD + "-node-00";
    }

    /**
     * Long tasks placed on either node, then the other node's claims on each: COMPLETED without a
     * proof, COMPLETED and FAILED with the proof the placement carried (the owner's).
     */
    List<Bad> crossNodeClaims() throws Exception {
      submit("held-run-", HELD_RUNS);
      List<Bad> out = new ArrayList<>();
      String events = Topics.TASK_EVENTS.name();
      Set<String> noProof = Set.of(DeadLetterCodes.NO_PROOF);
      for (Decision d : awaitPlaced(HELD_RUNS, "held-run-")) {
        PlaceTask p = (PlaceTask) d.getAction();
        String by = other(d.getNode());
        TaskEvent claim = TaskEvent.newBuilder().setPool(HELD).setTaskId(p.getTaskId())
            .setJobId(p.getJobId()).setAttempt(p.getAttempt()).setNode(by)
            .setType(TaskEventType.COMPLETED).setDecisionId(d.getDecisionId())
            .setEpoch(d.getEpoch()).setTimeMs(now()).setInstanceId(instance(by)).build();
        out.add(new Bad("cross-node completion", events, bytes(HELD),
            Topics.TASK_EVENTS.value(signed(claim)), noProof));
        TaskEvent withProof = TaskEvent.newBuilder(claim).setPlacementProof(p.getProof()).build();
        out.add(new Bad("cross-node completion, owner's proof", events, bytes(HELD),
            Topics.TASK_EVENTS.value(signed(withProof)), noProof));
        out.add(new Bad("cross-node failure, owner's proof", events, bytes(HELD),
            Topics.TASK_EVENTS.value(signed(TaskEvent.newBuilder(withProof)
                .setType(TaskEventType.FAILED).setExitCode(1).build())), noProof));
      }
      return out;
    }

    /**
     * COMPLETED of jobs not submitted yet, from each node, claiming a placement of an earlier
     * scheduler epoch (0): before issue 22 they were remembered, and a job placed on its claimer
     * at attempt 0 counted complete on arrival without running.
     */
    List<Bad> preCompletions() {
      List<Bad> out = new ArrayList<>();
      for (int i = 0; i < PRE_COMPLETIONS; i++) {
        String node = HELD + "-node-0" + (i % 2);
        String task = "held-pre-" + i;
        TaskEvent e = TaskEvent.newBuilder().setPool(HELD).setTaskId(task).setJobId(task)
            .setAttempt(0).setNode(node).setType(TaskEventType.COMPLETED)
            .setDecisionId(HELD + "/" + task + "/0").setEpoch(0).setTimeMs(now())
            .setInstanceId(instance(node)).build();
        out.add(new Bad("pre-completion", Topics.TASK_EVENTS.name(), bytes(HELD),
            Topics.TASK_EVENTS.value(signed(e)), Set.of(DeadLetterCodes.NO_PROOF)));
      }
      return out;
    }

    void submitPreCompleted() throws Exception {
      submit("held-pre-", PRE_COMPLETIONS);
    }

    private void submit(String prefix, int n) throws Exception {
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(ClientConfigs.producer(bootstrap))) {
        for (int i = 0; i < n; i++) {
          producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(), bytes(HELD),
              Topics.JOB_ARRIVALS.value(job(HELD, prefix + i, prefix + "f" + i, 10, 100_000))))
              .get(30, TimeUnit.SECONDS);
        }
      }
    }

    /** The placements of the {@code n} tasks named {@code prefix + i}, once all are seen. */
    List<Decision> awaitPlaced(int n, String prefix) {
      WholeSystem.await(Duration.ofSeconds(60), n + " placements of " + prefix + "* in " + HELD,
          () -> placements(prefix).size() == n);
      return placements(prefix);
    }

    private List<Decision> placements(String prefix) {
      Map<String, Decision> byTask = new TreeMap<>();
      for (Decision d : seen) {
        if (d.getAction() instanceof PlaceTask p && p.getTaskId().startsWith(prefix)) {
          byTask.putIfAbsent(p.getTaskId(), d);
        }
      }
      return new ArrayList<>(byTask.values());
    }

    List<Decision> cancels() {
      return seen.stream().filter(d -> d.getAction() instanceof CancelTask).toList();
    }

    @Override
    public void close() {
      agents.close();
      decisions.close();
    }
  }

  private static TaskEvent signed(TaskEvent e) {
    return KEYS.signer(e.getNode()).sign(e);
  }

  private static NodeReport signed(NodeReport r) {
    return KEYS.signer(r.getNode()).sign(r);
  }

  private static long absurdEpochRefusals(TaskEventTracker tracker) {
    return tracker.stats(POOL).refusals.stream().filter(m -> m.contains("absurd epoch")).count();
  }

  private static Map<Bad, RecordMetadata> sendAll(String bootstrap, List<Bad> bad)
      throws Exception {
    Map<Bad, java.util.concurrent.Future<RecordMetadata>> pending = new LinkedHashMap<>();
    var p = ClientConfigs.producer(bootstrap);
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, "1048000");
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      for (Bad b : bad) {
        pending.put(b, producer.send(new ProducerRecord<>(b.topic(), b.key(), b.value())));
      }
      Map<Bad, RecordMetadata> out = new LinkedHashMap<>();
      for (Map.Entry<Bad, java.util.concurrent.Future<RecordMetadata>> e : pending.entrySet()) {
        out.put(e.getKey(), e.getValue().get(60, TimeUnit.SECONDS));
      }
      return out;
    }
  }


  // ------------------------------------------------------------------ the bad records

  private static final int FORGED_EPOCHS = 20;

  /** Hostile decisions for a live node: not input records, so they have no dead letter. */
  private static List<Bad> badDecisions() {
    Random rnd = new Random(SEED + 1);
    List<Bad> out = new ArrayList<>();
    String topic = Topics.DECISIONS.name();
    byte[] node = bytes(POOL + "-node-01");
    for (int i = 0; i < 100; i++) {
      byte[] g = new byte[1 + rnd.nextInt(300)];
      rnd.nextBytes(g);
      out.add(new Bad("decision garbage", topic, node, g, Set.of()));
    }
    for (int i = 0; i < 5; i++) {
      out.add(new Bad("decision with 2 GB string", topic, node, hugeStringHeader(topic, i),
          Set.of()));
    }
    for (int i = 0; i < FORGED_EPOCHS; i++) {
      out.add(new Bad("placement with absurd epoch", topic, node, Topics.DECISIONS.value(
          placement("forged-epoch-" + i, Long.MAX_VALUE, null)), Set.of()));
      out.add(new Bad("placement for another instance", topic, node, Topics.DECISIONS.value(
          placement("forged-instance-" + i, 1, "someone-else")), Set.of()));
    }
    return out;
  }

  private static Decision placement(String task, long epoch, String instance) {
    return Decision.newBuilder().setDecisionId(POOL + "/" + task + "/0").setEpoch(epoch)
        .setPool(POOL).setNode(POOL + "-node-01").setTimeMs(now()).setInstanceId(instance)
        .setAction(PlaceTask.newBuilder().setTaskId(task).setJobId(task).setAttempt(0)
            .setInputs(List.of(InputPlan.newBuilder().setFileId("f-" + task).setBytes(10)
                .setSource(io.locus.schemas.FetchSource.STORAGE).build()))
            .setReason(PlacementReason.newBuilder().setPolicy("forged").setScore(0).build())
            .build())
        .build();
  }

  private static List<Bad> badRecords(TaskEventTracker tracker) {
    Random rnd = new Random(SEED);
    List<Bad> out = new ArrayList<>();
    byte[] key = bytes(POOL);
    String jobs = Topics.JOB_ARRIVALS.name();
    String events = Topics.TASK_EVENTS.name();
    String reports = Topics.NODE_REPORTS.name();
    String control = Topics.CONTROL.name();
    Set<String> corrupt = Set.of(DeadLetterCodes.CORRUPT);
    Set<String> corruptOrLarge = Set.of(DeadLetterCodes.CORRUPT, DeadLetterCodes.TOO_LARGE);
    Set<String> large = Set.of(DeadLetterCodes.TOO_LARGE);
    Set<String> invalid = Set.of(DeadLetterCodes.INVALID);
    Set<String> invalidOrLarge = Set.of(DeadLetterCodes.INVALID, DeadLetterCodes.TOO_LARGE);
    for (String topic : List.of(jobs, events, reports, control)) {
      for (int i = 0; i < 120; i++) {
        byte[] g = new byte[1 + rnd.nextInt(300)];
        rnd.nextBytes(g);
        out.add(new Bad("garbage", topic, key, g, corrupt));
      }
      out.add(new Bad("null value", topic, key, null, corrupt));
      for (int i = 0; i < 5; i++) {
        out.add(new Bad("2 GB string declared", topic, key, hugeStringHeader(topic, i),
            corruptOrLarge));
      }
    }
    byte[] valid = Topics.JOB_ARRIVALS.value(job(POOL, "fuzz-truncated", "f1", 10, 1));
    for (int i = 0; i < 60; i++) {
      out.add(new Bad("truncated", jobs, key,
          Arrays.copyOf(valid, 10 + rnd.nextInt(valid.length - 11)), corrupt));
    }
    for (int i = 0; i < 30; i++) {
      out.add(new Bad("wrong record type", jobs, key, Topics.TASK_EVENTS.value(
          event("n", "t" + i, TaskEventType.COMPLETED, null, null)), corrupt));
    }
    out.add(new Bad("1,000,000-char job id", jobs, key, Topics.JOB_ARRIVALS.value(
        job(POOL, "j".repeat(1_000_000), "f", 10, 1)), large));
    String bigPool = "p".repeat(10_000);
    out.add(new Bad("10 KB pool name", jobs, bytes(bigPool),
        Topics.JOB_ARRIVALS.value(job(bigPool, "x", "f", 10, 1)), large));
    for (int i = 0; i < 30; i++) {
      out.add(new Bad("NaN compute", jobs, key, Topics.JOB_ARRIVALS.value(
          job(POOL, "nan-" + i, "f", 10, Double.NaN)), invalid));
      out.add(new Bad("1e300 compute", jobs, key, Topics.JOB_ARRIVALS.value(
          job(POOL, "huge-compute-" + i, "f", 10, 1e300)), invalidOrLarge));
      out.add(new Bad("1e18-byte input", jobs, key, Topics.JOB_ARRIVALS.value(
          job(POOL, "huge-bytes-" + i, "f", 1_000_000_000_000_000_000L, 1)), invalidOrLarge));
      JobSubmitted future = job(POOL, "future-" + i, "f", 10, 1);
      future.setSubmitTimeMs(Long.MAX_VALUE);
      out.add(new Bad("time Long.MAX", jobs, key, Topics.JOB_ARRIVALS.value(future), invalid));
      out.add(new Bad("path escape", jobs, key, Topics.JOB_ARRIVALS.value(
          job(POOL, "escape-" + i, "../../etc/shadow-" + i, 10, 1)), invalid));
      out.add(new Bad("unknown pool", jobs, bytes("nobody-" + i), Topics.JOB_ARRIVALS.value(
          job("nobody-" + i, "u" + i, "f", 10, 1)), Set.of(DeadLetterCodes.UNKNOWN_POOL)));
      out.add(new Bad("key does not match pool", jobs, bytes(IDLE), Topics.JOB_ARRIVALS.value(
          job(POOL, "k" + i, "f", 10, 1)), invalid));
    }
    // Issue 22: a valid record with bytes after it, and a file id no agent can store (300 bytes
    // as its file name), were both accepted; the second was placed and failed on every node.
    for (int i = 0; i < 30; i++) {
      byte[] record = Topics.JOB_ARRIVALS.value(job(POOL, "trailing-" + i, "f", 10, 1));
      byte[] padded = Arrays.copyOf(record, record.length + 16);
      byte[] garbage = new byte[16];
      rnd.nextBytes(garbage);
      System.arraycopy(garbage, 0, padded, record.length, garbage.length);
      out.add(new Bad("record + 16 trailing bytes", jobs, key, padded, corrupt));
      out.add(new Bad("300-byte file id", jobs, key, Topics.JOB_ARRIVALS.value(
          job(POOL, "long-file-id-" + i, String.format("%03d", i) + "x".repeat(297), 10, 1)),
          large));
    }
    // Resubmissions: the first of each is valid (queued in the idle pool), the second a duplicate.
    for (int i = 0; i < 30; i++) {
      byte[] j = Topics.JOB_ARRIVALS.value(job(IDLE, "once-" + i, "f", 10, 1));
      out.add(new Bad("(valid first submission)", jobs, bytes(IDLE), j, Set.of()));
      out.add(new Bad("resubmitted job id", jobs, bytes(IDLE), j,
          Set.of(DeadLetterCodes.DUPLICATE_JOB)));
    }
    String live = POOL + "-node-00";
    // Signed with the named node's key, as that node (compromised) would: the signature holds,
    // what the record claims does not. A REFUSED of a cancel needs no proof of placement, so the
    // identity checks behind the proof are reached with it.
    String cancelId = POOL + "/cancel/1";
    for (int i = 0; i < 30; i++) {
      // FAILED, not COMPLETED: the test's own tracker counts every completion it reads.
      out.add(new Bad("failure of unknown task", events, key, Topics.TASK_EVENTS.value(signed(
          event(live, "no-such-task-" + i, TaskEventType.FAILED, POOL + "/no-such/0", null))),
          Set.of(DeadLetterCodes.NO_PROOF)));
      out.add(new Bad("event from unknown node", events, key, Topics.TASK_EVENTS.value(signed(
          event("ghost-" + i, "t", TaskEventType.REFUSED, cancelId, null))),
          Set.of(DeadLetterCodes.UNKNOWN_NODE)));
      out.add(new Bad("event from a copy agent", events, key, Topics.TASK_EVENTS.value(signed(
          event(live, "t" + i, TaskEventType.REFUSED, cancelId, "intruder-instance"))),
          Set.of(DeadLetterCodes.FORGED)));
      out.add(new Bad("unsigned event", events, key, Topics.TASK_EVENTS.value(
          event(live, "t" + i, TaskEventType.REFUSED, cancelId, null)),
          Set.of(DeadLetterCodes.FORGED)));
      out.add(new Bad("event signed by another node", events, key, Topics.TASK_EVENTS.value(
          KEYS.signer(POOL + "-node-01").sign(
              event(live, "t" + i, TaskEventType.REFUSED, cancelId, null))),
          Set.of(DeadLetterCodes.FORGED)));
      out.add(new Bad("REGISTER from a copy agent", reports, key, Topics.NODE_REPORTS.value(
          signed(report(live, NodeReportType.REGISTER, 2, "intruder-instance"))),
          Set.of(DeadLetterCodes.FORGED)));
      out.add(new Bad("LEAVE from a copy agent", reports, key, Topics.NODE_REPORTS.value(
          signed(report(live, NodeReportType.LEAVE, 0, "intruder-instance"))),
          Set.of(DeadLetterCodes.FORGED)));
      out.add(new Bad("REGISTER with 100,000 slots", reports, key, Topics.NODE_REPORTS.value(
          signed(report("big-" + i, NodeReportType.REGISTER, 100_000, "x"))), invalidOrLarge));
      out.add(new Bad("heartbeat from unknown node", reports, key, Topics.NODE_REPORTS.value(
          signed(report("ghost-" + i, NodeReportType.HEARTBEAT, 0, "x"))),
          Set.of(DeadLetterCodes.UNKNOWN_NODE)));
      // Issue 22: a clock hours ahead (inside the old 24-h bound) got every node of the pool lost.
      // Refused before any identity check, so whoever sends it, it is a clock dead letter.
      NodeReport ahead = report(live, NodeReportType.HEARTBEAT, 0, "x");
      ahead.setTimeMs(now() + 23 * 3_600_000L);
      out.add(new Bad("heartbeat stamped 23 h ahead", reports, key, Topics.NODE_REPORTS.value(
          signed(ahead)), Set.of(DeadLetterCodes.CLOCK)));
      TaskEvent eventAhead = event(live, "t" + i, TaskEventType.FAILED, null, "x");
      eventAhead.setTimeMs(now() + 2 * 3_600_000L);
      out.add(new Bad("task event stamped 2 h ahead", events, key, Topics.TASK_EVENTS.value(
          signed(eventAhead)), Set.of(DeadLetterCodes.CLOCK)));
      JobSubmitted jobAhead = job(POOL, "ahead-" + i, "f", 10, 1);
      jobAhead.setSubmitTimeMs(now() + 10 * 60_000L);
      out.add(new Bad("job stamped 10 min ahead", jobs, key, Topics.JOB_ARRIVALS.value(jobAhead),
          Set.of(DeadLetterCodes.CLOCK)));
      out.add(new Bad("SET_POLICY theta=NaN", control, key, Topics.CONTROL.value(
          Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY).setTimeMs(now())
              .setPolicy("GCC").setParams(Map.of("theta", "NaN")).build()),
          Set.of(DeadLetterCodes.REJECTED, DeadLetterCodes.INVALID)));
      out.add(new Bad("SET_POLICY unknown policy", control, key, Topics.CONTROL.value(
          Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY).setTimeMs(now())
              .setPolicy("NO-SUCH-" + i).build()),
          Set.of(DeadLetterCodes.REJECTED, DeadLetterCodes.INVALID)));
      out.add(new Bad("DRAIN of unknown node", control, key, Topics.CONTROL.value(
          Control.newBuilder().setPool(POOL).setType(ControlType.DRAIN_NODE).setTimeMs(now())
              .setNode("ghost-" + i).build()),
          Set.of(DeadLetterCodes.REJECTED, DeadLetterCodes.UNKNOWN_NODE)));
    }
    return out;
  }

  private static long now() {
    return System.currentTimeMillis();
  }

  /** A single-object header of the topic's schema, then a string length of 2,147,483,000. */
  private static byte[] hugeStringHeader(String topic, int variant) {
    byte[] valid = Topics.byName(topic).value(sampleOf(topic));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(valid, 0, 10);
    long n = 2_147_483_000L;
    long z = (n << 1) ^ (n >> 63);
    while ((z & ~0x7FL) != 0) {
      out.write((int) ((z & 0x7F) | 0x80));
      z >>>= 7;
    }
    out.write((int) z);
    for (int i = 0; i < variant + 4; i++) {
      out.write('x');
    }
    return out.toByteArray();
  }

  @SuppressWarnings("unchecked")
  private static <T> T sampleOf(String topic) {
    if (topic.equals(Topics.JOB_ARRIVALS.name())) {
      return (T) job(POOL, "s", "f", 1, 1);
    } else if (topic.equals(Topics.TASK_EVENTS.name())) {
      return (T) event("n", "t", TaskEventType.STARTED, null, null);
    } else if (topic.equals(Topics.NODE_REPORTS.name())) {
      return (T) report("n", NodeReportType.HEARTBEAT, 0, null);
    } else if (topic.equals(Topics.DECISIONS.name())) {
      return (T) placement("s", 1, null);
    }
    return (T) Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY).setTimeMs(1)
        .setPolicy("FA").build();
  }

  private static JobSubmitted job(String pool, String id, String file, long bytes,
      double compute) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(pool).setSubmitTimeMs(now())
        .setComputeSeconds(compute)
        .setInputs(List.of(DataUnit.newBuilder().setId(file).setBytes(bytes).build())).build();
  }

  private static TaskEvent event(String node, String task, TaskEventType type, String decision,
      String instance) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task).setAttempt(0)
        .setNode(node).setType(type).setDecisionId(decision).setTimeMs(now())
        .setInstanceId(instance).build();
  }

  private static NodeReport report(String node, NodeReportType type, int slots,
      String instance) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(type).setTimeMs(now())
        .setSlots(slots).setCacheCapacityBytes(1000).setInstanceId(instance).build();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Map<String, DeadLetter> readDeadLetters(String bootstrap, int expected) {
    Map<String, DeadLetter> out = new HashMap<>();
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, "fuzz-dlq-reader", true))) {
      List<TopicPartition> tps = new ArrayList<>();
      for (int p = 0; p < Topics.DEAD_LETTERS.partitions(); p++) {
        tps.add(new TopicPartition(Topics.DEAD_LETTERS.name(), p));
      }
      c.assign(tps);
      c.seekToBeginning(tps);
      // Not Await: reads until the topic has been quiet for a second (so late records are seen),
      // returning what it has at the deadline for the caller to assert on.
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      long quietSince = System.nanoTime();
      while (System.nanoTime() < deadline) {
        var records = c.poll(Duration.ofMillis(300));
        for (ConsumerRecord<byte[], byte[]> r : records) {
          DeadLetter d = Topics.DEAD_LETTERS.decode(r.value());
          out.put(d.getSourceTopic() + "/" + d.getPartition() + "/" + d.getOffset(), d);
        }
        if (!records.isEmpty()) {
          quietSince = System.nanoTime();
        } else if (out.size() >= expected && System.nanoTime() - quietSince > 1_000_000_000L) {
          break;
        }
      }
    }
    return out;
  }
}
