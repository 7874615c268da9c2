package io.locus.bench;

import io.locus.core.model.Task;
import io.locus.core.policy.OnlineHpsGraph;
import io.locus.core.staging.CostModel;
import io.locus.hypergraph.Partition;
import io.locus.hypergraph.Partitioner;
import io.locus.hypergraph.Partitioners;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
 * What one ONLINE_HPS re-partition costs at issue 13's scale: the hypergraph of {@code pending}
 * one-file jobs over {@link ScaleFixture}'s 100,000 files plus 1,000 running nodes (each fixed to
 * its part, its 300 cached files joining the nets), then a 1,000-way partition (GreedyKm1, the
 * spec's default, ε = 0.10) — exactly the work of {@code OnlineHps.repartition}. ONLINE_HPS does
 * this at every dispatch by default (spec D1), so its decision rate at that queue size is one
 * over this time, unless a re-partitioning budget spaces them out.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g"})
public class RepartitionScaleBenchmark {
  @Param({"1000", "10000", "100000"})
  public int pending;

  @Param({"GreedyKm1"})
  public String partitioner;

  private List<Task> jobs;
  private List<OnlineHpsGraph.RunningNode> running;
  private Partitioner p;

  @Setup(Level.Trial)
  public void setup() {
    SplittableRandom rnd = new SplittableRandom(3);
    jobs = new ArrayList<>(pending);
    for (int i = 0; i < pending; i++) {
      jobs.add(ScaleFixture.task(i + 1, rnd));
    }
    List<Set<String>> caches = new ArrayList<>();
    for (int i = 0; i < ScaleFixture.NODES; i++) {
      caches.add(new HashSet<>());
    }
    for (int f = 0; f < ScaleFixture.FILES; f++) {
      for (int k = 0; k < ScaleFixture.HOLDERS; k++) {
        caches.get(ScaleFixture.holder(f, k)).add(ScaleFixture.file(f));
      }
    }
    running = new ArrayList<>();
    for (int i = 0; i < ScaleFixture.NODES; i++) {
      Task job = ScaleFixture.task(pending + i + 1L, rnd);
      running.add(new OnlineHpsGraph.RunningNode(i, job, caches.get(i), Set.of(), 0));
    }
    p = Partitioners.create(partitioner);
  }

  @Benchmark
  public Partition repartition() {
    OnlineHpsGraph.Built g = OnlineHpsGraph.build(jobs, running, CostModel.DEFAULT,
        ScaleFixture.NODES, 0);
    return p.partition(g.graph(), ScaleFixture.NODES, 0.10, g.fixed(), 0);
  }
}
