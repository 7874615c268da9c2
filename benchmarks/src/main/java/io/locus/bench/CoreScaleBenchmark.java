package io.locus.bench;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.state.RunningTask;
import java.util.ArrayDeque;
import java.util.List;
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

/**
 * Decisions per second of the policy core at issue 13's scale ({@link ScaleFixture}: 1,000 nodes
 * × 4 slots, 100,000 cached files with 3 holders each, W = 2,500) with a backlog of 100,000 queued
 * one-file tasks ({@code queueDepth}: local-queue positions per node). One operation is one completion (the oldest running task) plus one arrival, as
 * in {@link DispatchBenchmark}; {@code placements} counts the tasks placed.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g"})
public class CoreScaleBenchmark {
  @Param({"FA", "MCU", "MCH", "GCC"})
  public String policy;

  @Param({"100000"})
  public int backlog;

  /** Local-queue positions per node beyond its 4 slots (0: no late binding). */
  @Param({"0"})
  public int queueDepth;

  /** Cached files, each held by {@code holders} nodes (many holders: issue 25's no-idle case). */
  @Param({"100000"})
  public int files = ScaleFixture.FILES;

  @Param({"3"})
  public int holders = ScaleFixture.HOLDERS;

  private Scheduler scheduler;
  private SplittableRandom rnd;
  private long seq;
  private final ArrayDeque<RunningTask> running = new ArrayDeque<>();

  @Setup(Level.Trial)
  public void setup() {
    rnd = new SplittableRandom(1);
    scheduler = ScaleFixture.pool(policy, queueDepth, files, holders);
    // every slot (and local-queue position) busy, then the backlog
    int slots = ScaleFixture.NODES * (ScaleFixture.SLOTS + queueDepth);
    while (scheduler.state().queueLength() < backlog) {
      record(scheduler.onJobArrival(ScaleFixture.task(++seq, rnd, files), seq * 0.001));
      if (seq > backlog + 10L * slots) {
        throw new IllegalStateException("backlog does not build up under " + policy);
      }
    }
  }

  /** Nodes in the free pool now (both tiers), and of them those with a free slot. */
  public int[] freeNodes() {
    return new int[] {scheduler.state().freePool().size(),
        scheduler.state().freeSlotPool().size()};
  }

  /** Remembers the placements among {@code cmds}; returns how many there were. */
  private int record(List<Command> cmds) {
    int n = 0;
    for (Command c : cmds) {
      if (c instanceof Command.Run r) {
        running.add(scheduler.state().running(r.task().taskId()));
        n++;
      }
    }
    return n;
  }

  /** One completion and one arrival; returns the placements made. */
  @Benchmark
  public int completeAndArrive(Placements counter) {
    RunningTask done = running.poll();
    double now = seq * 0.001;
    int placed = 0;
    if (done != null) {
      placed += record(scheduler.onTaskCompleted(done.task().taskId(), done.task().attempt(),
          done.node(), ScaleFixture.FILE_BYTES, 0, 0, now));
    }
    placed += record(scheduler.onJobArrival(ScaleFixture.task(++seq, rnd, files), now));
    counter.placements += placed;
    return placed;
  }
}
