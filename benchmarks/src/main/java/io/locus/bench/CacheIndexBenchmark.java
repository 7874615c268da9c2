package io.locus.bench;

import io.locus.core.Scheduler;
import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import java.util.ArrayList;
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

/**
 * Cost of the cache index at issue 13's scale ({@link ScaleFixture}, 100,000 queued tasks, the
 * data-aware queue index built): one cache event (a node reports a file added, or evicted) and
 * the lookups a decision makes (holders of a file, maxCached of a task). Average time per
 * operation.
 *
 * <p>{@code readers} and {@code holders} shape the file the events are about: uniform files have
 * about one queued reader and three holders; a hot file (the demo's Zipf head) has 1,000 queued
 * readers and 100 holders, the case whose events used to cost readers × holders².
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g"})
public class CacheIndexBenchmark {
  /** Queued tasks reading the event's file: 0 means uniform random files (about one reader). */
  @Param({"0", "1000"})
  public int readers;

  /** Nodes holding the hot file (with readers > 0). */
  @Param({"100"})
  public int holders;

  private PoolState state;
  private SplittableRandom rnd;
  private List<Task> queued;
  private long cacheSeq = 10;
  private int hotNext;

  @Setup(Level.Trial)
  public void setup() {
    rnd = new SplittableRandom(1);
    Scheduler sched = ScaleFixture.pool("MCH");
    state = sched.state();
    // no free slot, so arrivals only queue: 100,000 tasks (readers of them on the hot file)
    for (int i = 0; i < ScaleFixture.NODES * ScaleFixture.SLOTS; i++) {
      sched.onJobArrival(ScaleFixture.task(i + 1, rnd), 0);
    }
    long seq = ScaleFixture.NODES * ScaleFixture.SLOTS;
    for (int i = 0; i < 100_000; i++) {
      seq++;
      Task t = i < readers ? ScaleFixture.task(seq, "hot") : ScaleFixture.task(seq, rnd);
      sched.onJobArrival(t, 0);
    }
    if (readers > 0) {
      for (int k = 0; k < holders; k++) {
        state.applyCacheDelta(ScaleFixture.node(k * 7), ++cacheSeq,
            Map.of("hot", ScaleFixture.FILE_BYTES), List.of());
      }
    }
    state.dispatchIndex();
    queued = new ArrayList<>(state.queue());
    if (queued.size() < 100_000) {
      throw new IllegalStateException("backlog not built: " + queued.size());
    }
  }

  /** One node caches a file it did not hold, then evicts it: two cache events. */
  @Benchmark
  public boolean cacheAddThenEvict() {
    String file;
    String node;
    if (readers > 0) {
      file = "hot";
      node = ScaleFixture.node((hotNext++ % 100) * 7 + 3); // never one of the hot file's holders
    } else {
      int f = rnd.nextInt(ScaleFixture.FILES);
      file = ScaleFixture.file(f);
      node = ScaleFixture.node((ScaleFixture.holder(f, 0) + 1) % ScaleFixture.NODES);
    }
    NodeView n = state.node(node);
    long s = n.lastCacheSeq();
    state.applyCacheDelta(node, s + 1, Map.of(file, ScaleFixture.FILE_BYTES), List.of());
    return state.applyCacheDelta(node, s + 2, Map.of(), List.of(file));
  }

  /** The holders of a random file (the set a data-aware decision walks). */
  @Benchmark
  public int holdersOfFile() {
    return state.holders(ScaleFixture.file(rnd.nextInt(ScaleFixture.FILES))).size();
  }

  /** maxCached of a random queued task. */
  @Benchmark
  public long maxCached() {
    return state.maxCached(queued.get(rnd.nextInt(queued.size())));
  }

  /** cached(t, e) of a random queued task on a random node. */
  @Benchmark
  public long cachedOnNode() {
    Task t = queued.get(rnd.nextInt(queued.size()));
    return state.cached(t, state.node(ScaleFixture.node(rnd.nextInt(ScaleFixture.NODES))));
  }
}
