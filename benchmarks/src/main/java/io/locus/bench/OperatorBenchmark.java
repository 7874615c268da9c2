package io.locus.bench;

import io.locus.operators.OperatorHarness;
import io.locus.operators.SchedulerConfig;
import io.locus.operators.SchedulerOperator;
import io.locus.schemas.CachedFile;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The Flink SchedulerOperator alone (Flink's operator test harness, no Kafka), with its state on
 * RocksDB or the heap: one completion event and one arrival event per operation, each written
 * through to keyed state. Measures what the operator can sustain, before sources and sinks.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.locus",
    "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
    "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"})
public class OperatorBenchmark {
  private static final String POOL = "bench";

  @Param({"FA", "MCH", "GCC"})
  public String policy;

  @Param({"rocksdb", "hashmap"})
  public String backend;

  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;
  private SplittableRandom rnd;
  private long seq;
  private long clock;
  private final ArrayDeque<Decision> running = new ArrayDeque<>();

  @Setup(Level.Trial)
  public void setup() throws Exception {
    rnd = new SplittableRandom(1);
    // The tests' harness (keyed by pool, Kryo off) on the backend under comparison.
    harness = OperatorHarness.create(new SchedulerOperator(SchedulerConfig.defaults(policy)),
        backend.equals("rocksdb") ? new EmbeddedRocksDBStateBackend() : new HashMapStateBackend());
    harness.setup();
    harness.open();
    for (int i = 0; i < PoolFixture.NODES; i++) {
      List<CachedFile> files = new ArrayList<>();
      for (int k = 0; k < PoolFixture.CACHED_PER_NODE; k++) {
        files.add(new CachedFile(PoolFixture.file(rnd.nextInt(PoolFixture.FILES)), PoolFixture.FILE_BYTES));
      }
      process(NodeReport.newBuilder().setPool(POOL).setNode(PoolFixture.node(i))
          .setType(NodeReportType.REGISTER).setTimeMs(++clock).setSlots(PoolFixture.SLOTS)
          .setCacheCapacityBytes(4_000_000_000L).setSeq(1).setAdded(dedupe(files)).build());
    }
    for (int i = 0; i < 5000; i++) {
      process(job());
    }
  }

  private static List<CachedFile> dedupe(List<CachedFile> files) {
    java.util.Map<String, CachedFile> m = new java.util.LinkedHashMap<>();
    files.forEach(f -> m.put(f.getFileId(), f));
    return new ArrayList<>(m.values());
  }

  private JobSubmitted job() {
    long id = ++seq;
    return JobSubmitted.newBuilder().setJobId("t" + id).setPool(POOL).setSubmitTimeMs(++clock)
        .setInputs(List.of(DataUnit.newBuilder().setId(PoolFixture.file(rnd.nextInt(PoolFixture.FILES)))
            .setBytes(PoolFixture.FILE_BYTES).build()))
        .setComputeSeconds(0.01).build();
  }

  private int process(Object event) throws Exception {
    harness.processElement(SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build(), clock);
    List<Decision> out = harness.extractOutputValues();
    harness.getOutput().clear();
    running.addAll(out);
    return out.size();
  }

  @Benchmark
  public int completeAndArrive(Placements counter) throws Exception {
    int placed = 0;
    Decision d = running.poll();
    if (d != null) {
      PlaceTask p = (PlaceTask) d.getAction();
      placed += process(TaskEvent.newBuilder().setPool(POOL).setTaskId(p.getTaskId())
          .setJobId(p.getJobId()).setAttempt(p.getAttempt()).setNode(d.getNode())
          .setDecisionId(d.getDecisionId())
          .setType(TaskEventType.COMPLETED).setTimeMs(++clock).setBytesLocal(PoolFixture.FILE_BYTES)
          .build());
    }
    placed += process(job());
    counter.placements += placed;
    return placed;
  }

  @TearDown(Level.Trial)
  public void close() throws Exception {
    harness.close();
  }
}
