package io.locus.bench;

import io.locus.hypergraph.Partition;
import io.locus.hypergraph.Partitioner;
import io.locus.hypergraph.Partitioners;
import java.util.Locale;
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
 * Time per partition of one hypergraph (issue 4: 2,000 vertices / 12,000 nets / k = 64 in
 * ≤ 200 ms), per partitioner and instance ({@link HypergraphInstances}). The cut and imbalance
 * of the partition are printed once per trial; {@link PartitionReport} tabulates them for all
 * pairs.
 *
 * <pre>
 *   bin/locus-bench PartitionBenchmark -p instance=random-2000-12000-k64 \
 *       -p partitioner=MultilevelKm1
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class PartitionBenchmark {
  @Param({"random-2000-12000-k64", "random-500-3000-k16", "planted-2000-12000-k64",
      "khanna-high-1600-k4", "khanna-high-1600-k16", "khanna-medium-800-k4",
      "khanna-snapshot-200-k4"})
  public String instance;

  @Param({"MultilevelKm1", "GreedyKm1", "Greedy", "RandomBalanced"})
  public String partitioner;

  private HypergraphInstances.Instance in;
  private Partitioner p;

  @Setup(Level.Trial)
  public void setup() {
    in = HypergraphInstances.byName(instance);
    p = Partitioners.create(partitioner);
    Partition x = partition();
    System.out.printf(Locale.ROOT, "%n[%s on %s: n=%d m=%d pins=%d k=%d eps=%.2f] km1=%.1f "
            + "imbalance=%.4f balanced=%s%n", p.name(), in.name(), in.h().numVertices(),
        in.h().numNets(), in.h().numPins(), in.k(), in.eps(), x.km1(), x.imbalance(),
        x.isBalanced(in.eps()));
  }

  @Benchmark
  public Partition partition() {
    return p.partition(in.h(), in.k(), in.eps(), in.fixed(), 1);
  }
}
