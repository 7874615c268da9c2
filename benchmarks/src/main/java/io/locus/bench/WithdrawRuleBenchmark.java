package io.locus.bench;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.policy.MaxCacheHit;
import io.locus.core.state.PoolState;
import java.util.List;
import java.util.Map;
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

/**
 * One dispatch round of a late-binding file pool in the shape that stalled the 1,000-node demo
 * (issue 22): every holder is overfull (slot and local queue taken by attempts on its own data)
 * and {@code free} nodes with empty caches have free slots, so no attempt qualifies for a
 * withdraw and the round ends with none. Before the withdraw rule skipped free nodes equivalent
 * to one already found fruitless, each of them re-scanned every overfull node's attempts; the
 * round runs on every task event.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class WithdrawRuleBenchmark {
  /** Overfull holders (1 slot + 3 queue positions each, all taken). */
  @Param({"1000"})
  public int holders;

  /** Free nodes holding none of the queued attempts' data. */
  @Param({"100"})
  public int free;

  private Scheduler scheduler;

  @Setup(Level.Trial)
  public void setup() {
    scheduler = new Scheduler("bench", new PoolState(), new MaxCacheHit(100));
    for (int i = 0; i < holders; i++) {
      String node = String.format("h%04d", i);
      scheduler.applyNodeRegistered(node, 1, 3, 4_000_000_000L, null, 0);
      scheduler.applyCacheSnapshot(node, 1, Map.of("f" + i, 1_000_000L));
    }
    long seq = 0;
    for (int i = 0; i < holders; i++) {
      for (int k = 0; k < 4; k++) { // MCH puts each on the one holder of its file
        seq++;
        scheduler.onJobArrival(Task.of("t" + seq, seq, 0, 1.0, InputFile.of("f" + i, 1_000_000L)),
            0);
      }
    }
    for (int i = 0; i < free; i++) {
      scheduler.onNodeRegistered(String.format("e%04d", i), 4, 4_000_000_000L, null, 0);
    }
    if (scheduler.state().overfull().size() != holders
        || scheduler.state().freeSlotPool().size() < free) {
      throw new IllegalStateException("fixture: " + scheduler.state().overfull().size()
          + " overfull, " + scheduler.state().freeSlotPool().size() + " free");
    }
    if (!round().isEmpty()) {
      throw new IllegalStateException("fixture: the round must find no withdraw");
    }
  }

  private List<Command> round() {
    return scheduler.onTimer(1.0);
  }

  /** A dispatch round: nothing queued, nothing to withdraw; the state does not change. */
  @Benchmark
  public List<Command> fruitlessRound() {
    return round();
  }
}
