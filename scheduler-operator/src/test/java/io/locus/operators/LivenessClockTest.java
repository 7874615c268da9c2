package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ResyncNode;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.SchedulerInput;
import io.locus.schemas.state.PoolMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 22, finding 1: liveness is judged on the progress of the pool's node reports, on a clock
 * no single node and no other topic can move. In Flink's harness on RocksDB, with every record
 * carrying its Kafka record timestamp as the source does (the broker's time: node-reports is a
 * LogAppendTime topic).
 */
@Timeout(120)
class LivenessClockTest {
  private static final String POOL = "pool-c";
  private static final long MB = 1_000_000L;
  private static final long TIMEOUT = SchedulerConfig.DEFAULT_NODE_TIMEOUT_MS;
  private static final long HOUR = 3_600_000L;
  /** A wall-clock-like start, as real agents stamp their records. */
  private static final long T = 1_700_000_000_000L;

  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;
  private SchedulerOperator operator;
  /** task → node of its latest placement, from every decision seen. */
  private final Map<String, String> placedOn = new HashMap<>();
  private final List<PlaceTask> replaced = new ArrayList<>();

  private void open(OperatorSubtaskState from) throws Exception {
    operator = new SchedulerOperator(SchedulerConfig.defaults("FA"));
    harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(operator),
        SchedulerInput::getPool, Types.STRING);
    harness.setStateBackend(new EmbeddedRocksDBStateBackend());
    ((SerializerConfigImpl) harness.getExecutionConfig().getSerializerConfig())
        .setGenericTypes(false);
    harness.setup();
    if (from != null) {
      harness.initializeState(from);
    }
    harness.open();
  }

  private void restart() throws Exception {
    OperatorSubtaskState snap = harness.snapshot(1, 1);
    harness.close();
    open(snap);
  }

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  // ------------------------------------------------------------------ records

  /** {@code event} as read from Kafka: its record timestamp is {@code recordMs}. */
  private void send(Object event, long recordMs) throws Exception {
    send(POOL, event, recordMs);
  }

  private void send(String pool, Object event, long recordMs) throws Exception {
    harness.processElement(SchedulerInput.newBuilder().setPool(pool).setEvent(event)
        .setSourceTimestampMs(recordMs).build(), recordMs);
    for (Decision d : harness.extractOutputValues()) {
      if (d.getAction() instanceof PlaceTask pt) {
        placedOn.put(pt.getTaskId(), d.getNode());
        if (pt.getAttempt() > 0) {
          replaced.add(pt);
        }
      }
      assertThat(d.getAction()).as("no node is asked to resync").isNotInstanceOf(ResyncNode.class);
    }
    harness.getOutput().clear();
  }

  private static NodeReport register(String node, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(1000).setCacheCapacityBytes(1000 * MB).setInstanceId("i-" + node)
        .build();
  }

  private static NodeReport heartbeat(String node, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.HEARTBEAT)
        .setTimeMs(t).setInstanceId("i-" + node).build();
  }

  private static JobSubmitted job(String id, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId("f-" + id).setBytes(10 * MB).build()))
        .setComputeSeconds(1000.0).build();
  }

  private List<DeadLetter> deadLetters() {
    List<DeadLetter> out = new ArrayList<>();
    var q = harness.getSideOutput(SchedulerOperator.REJECTED);
    if (q != null) {
      q.forEach(r -> out.add(r.getValue()));
      q.clear();
    }
    return out;
  }

  private long lost() {
    return lost(POOL);
  }

  private long lost(String pool) {
    return operator.poolMetrics(pool).lostNodes();
  }

  // ------------------------------------------------------------------ tests

  @Test
  void oneNodesClockAheadMovesNoOnesLivenessAndASilentNodeIsStillLost() throws Exception {
    open(null);
    for (String n : List.of("n1", "n2", "n3")) {
      send(register(n, T), T);
    }
    send(job("j1", T + 1), T + 1);
    String busy = placedOn.get("j1");
    assertThat(busy).isNotNull();

    // n3's clock runs 50 s ahead: within the skew bound, but past the node timeout. Its records
    // are accepted, and it moves nobody's liveness (before: the pool clock moved 50 s and every
    // other node was lost at once).
    long skew = 50_000;
    assertThat(skew).isGreaterThan(TIMEOUT).isLessThan(SchedulerConfig.DEFAULT_MAX_CLOCK_JUMP_MS);
    send(heartbeat("n3", T + 1000 + skew), T + 1000);
    assertThat(deadLetters()).isEmpty();
    assertThat(lost()).as("a clock within the bound moves no one's liveness").isZero();

    // One heartbeat stamped 23 hours ahead (inside the old 24-h bound): a clock dead letter.
    send(heartbeat("n3", T + 2000 + 23 * HOUR), T + 2000);
    List<DeadLetter> dl = deadLetters();
    assertThat(dl).singleElement().satisfies(d -> {
      assertThat(d.getCode()).isEqualTo(DeadLetterCodes.CLOCK);
      assertThat(d.getReason()).contains("n3", "clock ahead", "record's timestamp");
    });
    assertThat(lost()).as("the jump got nobody lost").isZero();
    assertThat(operator.gateMetrics().deadLetters(DeadLetterCodes.CLOCK)).isEqualTo(1);

    // Everyone reports (n3 still 50 s ahead) until T + 20 s; then the node running j1 falls
    // silent while the others keep heart-beating.
    long silentFrom = T + 20_000;
    for (long r = T + 3000; r <= silentFrom; r += 1000) {
      for (String n : List.of("n1", "n2", "n3")) {
        send(heartbeat(n, n.equals("n3") ? r + skew : r), r);
      }
    }
    assertThat(lost()).isZero();
    for (long r = silentFrom + 1000; r <= silentFrom + TIMEOUT; r += 1000) {
      for (String n : List.of("n1", "n2", "n3")) {
        if (!n.equals(busy)) {
          send(heartbeat(n, n.equals("n3") ? r + skew : r), r);
        }
      }
    }
    assertThat(lost()).as("silent for exactly the timeout: not lost yet").isZero();
    assertThat(replaced).isEmpty();
    String other = busy.equals("n1") ? "n2" : "n1";
    send(heartbeat(other, silentFrom + TIMEOUT + 1), silentFrom + TIMEOUT + 1);
    assertThat(lost()).as("the silent node, and only it").isEqualTo(1);
    assertThat(replaced).singleElement().satisfies(pt -> {
      assertThat(pt.getTaskId()).isEqualTo("j1");
      assertThat(placedOn.get("j1")).isNotEqualTo(busy);
    });
    assertThat(deadLetters()).isEmpty();
  }

  @Test
  void aBurstOfArrivalsAheadOfTheHeartbeatsLosesNoLiveNode() throws Exception {
    open(null);
    List<String> nodes = List.of("n1", "n2", "n3", "n4");
    for (String n : nodes) {
      send(register(n, T), T);
    }
    // A backlog: the job-arrivals topic is read 90 s ahead of node-reports (three node timeouts),
    // every job on time by its own record; the heartbeats, every 5 s, come late.
    long lead = 3 * TIMEOUT;
    int jobs = 0;
    long nextJob = T + 1;
    for (long hb = T + 5000; hb <= T + 5 * TIMEOUT; hb += 5000) {
      for (; nextJob <= hb + lead; nextJob += 500) {
        send(job("j" + jobs++, nextJob), nextJob);
      }
      for (String n : nodes) {
        send(heartbeat(n, hb), hb);
      }
    }
    assertThat(jobs).isGreaterThan(300);
    assertThat(lost()).as("live nodes declared lost").isZero();
    assertThat(replaced).as("work placed twice").isEmpty();
    assertThat(deadLetters()).isEmpty();
    assertThat(placedOn).hasSize(jobs);
  }

  @Test
  void underABacklogAReallySilentNodeIsLostOnTheReportsProgressAndItsWorkReplaced()
      throws Exception {
    open(null);
    for (String n : List.of("n1", "n2", "n3")) {
      send(register(n, T), T);
    }
    send(job("j0", T + 1), T + 1);
    String silent = placedOn.get("j0");
    List<String> live = new ArrayList<>(List.of("n1", "n2", "n3"));
    live.remove(silent);
    // Arrivals run 60 s ahead of the heartbeats; the node running j0 never reports again after
    // its REGISTER, the other two heart-beat every second.
    long lead = 2 * TIMEOUT;
    int jobs = 1;
    long nextJob = T + 2;
    for (long hb = T + 1000; hb <= T + TIMEOUT; hb += 1000) {
      for (; nextJob <= hb + lead; nextJob += 1000) {
        send(job("j" + jobs++, nextJob), nextJob);
      }
      for (String n : live) {
        send(heartbeat(n, hb), hb);
      }
      if (hb == T + TIMEOUT / 2) {
        restart(); // the liveness clock is in the checkpoint: nothing shifts after a restore
      }
    }
    List<String> onSilent = placedOn.entrySet().stream()
        .filter(e -> e.getValue().equals(silent)).map(Map.Entry::getKey).sorted().toList();
    assertThat(onSilent).as("the silent node has work to lose").contains("j0");
    assertThat(lost()).as("silent for exactly the timeout of node reports: not lost yet").isZero();
    assertThat(replaced).isEmpty();

    send(heartbeat(live.get(0), T + TIMEOUT + 1), T + TIMEOUT + 1);
    assertThat(lost()).as("the silent node, and only it").isEqualTo(1);
    assertThat(replaced).extracting(PlaceTask::getTaskId)
        .containsExactlyInAnyOrderElementsOf(onSilent);
    assertThat(placedOn).allSatisfy((task, node) -> assertThat(node).isNotEqualTo(silent));
    assertThat(deadLetters()).isEmpty();
  }

  /**
   * A snapshot the operator wrote before the liveness clock existed (commit f5cbab2: PoolMeta
   * without livenessMs), with OperatorSnapshotUtil: pool {@code pool-old}, FA; n2 registered at T
   * and runs j0..j14 (one slot each of its 1000); n1 and n3 registered at T + 2 and T + 3 ms; all
   * three heart-beat every second until T + 10 s; then arrivals moved the pool clock to T + 24 s.
   */
  private static final String BEFORE = "pool-state-before-liveness-clock.snapshot";

  @Test
  void aSnapshotFromBeforeTheLivenessClockRestoresAndLivenessGoesOn() throws Exception {
    String pool = "pool-old";
    open(OperatorSnapshotUtil.readStateHandle(
        java.nio.file.Path.of(getClass().getResource(BEFORE).toURI()).toString()));
    // n2 falls silent after T + 10 s (its last heartbeat); n1 and n3 go on
    long lastHeard = T + 10_000;
    for (long r = lastHeard + 1000; r <= lastHeard + TIMEOUT; r += 1000) {
      for (String n : List.of("n1", "n3")) {
        send(pool, NodeReport.newBuilder(heartbeat(n, r)).setPool(pool).build(), r);
      }
      assertThat(lost(pool)).as("nobody lost at %d", r - T).isZero();
    }
    assertThat(replaced).isEmpty();
    send(pool, NodeReport.newBuilder(heartbeat("n1", lastHeard + TIMEOUT + 1)).setPool(pool)
        .build(), lastHeard + TIMEOUT + 1);
    assertThat(lost(pool)).as("n2, and only n2").isEqualTo(1);
    assertThat(replaced).extracting(PlaceTask::getTaskId).hasSize(15).contains("j0", "j14");
    assertThat(placedOn).allSatisfy((task, node) -> assertThat(node).isIn("n1", "n3"));
    assertThat(deadLetters()).isEmpty();
  }

  @Test
  void stateFromBeforeTheLivenessClockDerivesItFromTheRegistry() throws Exception {
    HeapMapState<String, String> state = new HeapMapState<>();
    state.put("a", NodeRegistry.encode(new NodeRegistry.Entry("i", 4000)));
    state.put("b", NodeRegistry.encode(new NodeRegistry.Entry("j", 9000)));
    PoolMeta old = PoolMeta.newBuilder().setEpoch(1).setNextSeq(1).setPolicy("FA")
        .setClockMs(50_000).build();
    assertThat(old.getLivenessMs()).as("the field's default: not yet set").isEqualTo(-1);
    NodeRegistry r = NodeRegistry.load(state, List.of("a", "b", "c"),
        reg -> InputGate.livenessOnLoad(old, reg, true));
    assertThat(old.getLivenessMs()).as("the latest last-heard time, not the pool clock")
        .isEqualTo(9000);
    assertThat(r.get("c").heardMs()).as("a node missing from the registry is heard then")
        .isEqualTo(9000);

    PoolMeta noRegistry = PoolMeta.newBuilder(old).setLivenessMs(-1).build();
    NodeRegistry.load(new HeapMapState<>(), List.of("a"),
        reg -> InputGate.livenessOnLoad(noRegistry, reg, true));
    assertThat(noRegistry.getLivenessMs()).isEqualTo(50_000);

    PoolMeta empty = PoolMeta.newBuilder(old).setLivenessMs(-1).build();
    NodeRegistry.load(new HeapMapState<>(), List.of(),
        reg -> InputGate.livenessOnLoad(empty, reg, false));
    assertThat(empty.getLivenessMs()).as("no node yet: still unset").isEqualTo(-1);
  }
}
