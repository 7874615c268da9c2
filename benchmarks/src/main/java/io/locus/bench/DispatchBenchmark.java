package io.locus.bench;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.policy.Policies;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Warmup;

/** Placements per second of the plain-Java policy core (no Flink, no state backend). */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class DispatchBenchmark {
  @Param({"FA", "FCA", "MCU", "MCH", "GCC"})
  public String policy;

  /** Tasks waiting in the queue (the window W = 2500 scans at most this many). */
  @Param({"5000"})
  public int backlog;

  private Scheduler scheduler;
  private SplittableRandom rnd;
  private long seq;
  private final ArrayDeque<RunningTask> running = new ArrayDeque<>();

  @Setup(Level.Trial)
  public void setup() {
    rnd = new SplittableRandom(1);
    PoolState s = new PoolState();
    scheduler = new Scheduler("bench", s, Policies.create(policy, Map.of()));
    for (int i = 0; i < PoolFixture.NODES; i++) {
      scheduler.onNodeRegistered(PoolFixture.node(i), PoolFixture.SLOTS, 4_000_000_000L, null, 0);
      java.util.Map<String, Long> files = new java.util.HashMap<>();
      for (int k = 0; k < PoolFixture.CACHED_PER_NODE; k++) {
        files.put(PoolFixture.file(rnd.nextInt(PoolFixture.FILES)), PoolFixture.FILE_BYTES);
      }
      s.applyCacheSnapshot(PoolFixture.node(i), 1, files);
    }
    for (int i = 0; i < backlog; i++) {
      record(scheduler.onJobArrival(PoolFixture.task(++seq, rnd), seq * 0.001));
    }
  }

  /** Nodes in the free pool now (both tiers), and of them those with a free slot. */
  public int[] freeNodes() {
    return new int[] {scheduler.state().freePool().size(),
        scheduler.state().freeSlotPool().size()};
  }

  private void record(List<Command> cmds) {
    for (Command c : cmds) {
      if (c instanceof Command.Run r) {
        running.add(scheduler.state().running(r.task().taskId()));
      }
    }
  }

  /** One completion (oldest running task) and one arrival; returns the placements made. */
  @Benchmark
  public int completeAndArrive(Placements counter) {
    RunningTask done = running.poll();
    double now = seq * 0.001;
    int placed = 0;
    if (done != null) {
      List<Command> a = scheduler.onTaskCompleted(done.task().taskId(), done.task().attempt(),
          done.node(), PoolFixture.FILE_BYTES, 0, 0, now);
      record(a);
      placed += a.size();
    }
    List<Command> b = scheduler.onJobArrival(PoolFixture.task(++seq, rnd), now);
    record(b);
    counter.placements += placed + b.size();
    return placed + b.size();
  }
}
