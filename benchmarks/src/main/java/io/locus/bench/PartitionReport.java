package io.locus.bench;

import io.locus.hypergraph.HMetis;
import io.locus.hypergraph.Partition;
import io.locus.hypergraph.Partitioner;
import io.locus.hypergraph.Partitioners;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Cut, imbalance and time of every partitioner on every instance, as a table; optionally writes
 * the instances in hMETIS format so an external partitioner can be run on exactly the same input.
 *
 * <pre>
 *   java -cp ... io.locus.bench.PartitionReport [--instances a,b] [--partitioners a,b]
 *        [--reps 20] [--warmup 10] [--write-hmetis DIR]
 * </pre>
 *
 * <p>Each (instance, partitioner) pair is run {@code warmup} times, then {@code reps} times with
 * seeds 1..reps. km1 is the mean over those seeds (the deterministic partitioners give one value),
 * imbalance the worst; wall and CPU time are mean ± standard deviation per call. The CPU time of
 * the calling thread is reported too because the wall time on a shared machine includes waiting
 * for a core.
 *
 * <p>{@code --write-hmetis DIR} writes {@code NAME.hgr} (exact weights), {@code NAME.int.hgr}
 * (integer weights as hMETIS/KaHyPar require: non-integral vertex weights × 1000, i.e. in ms;
 * net costs are MiB, already integers), {@code NAME.fix} when the instance has fixed vertices,
 * and {@code NAME.txt} with k and ε. An external tool's partition file can be scored with
 * {@code HMetis.readPartition}.
 */
public final class PartitionReport {
  private PartitionReport() {}

  public static void main(String[] args) throws IOException {
    List<String> instances = HypergraphInstances.DEFAULT;
    List<String> partitioners = List.of("MultilevelKm1", "GreedyKm1", "Greedy", "RandomBalanced");
    int reps = 20;
    int warmup = 10;
    Path hmetisDir = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String v = i + 1 < args.length ? args[i + 1] : null;
      switch (a) {
        case "--instances" -> instances = Arrays.asList(need(a, v).split(","));
        case "--partitioners" -> partitioners = Arrays.asList(need(a, v).split(","));
        case "--reps" -> reps = Integer.parseInt(need(a, v));
        case "--warmup" -> warmup = Integer.parseInt(need(a, v));
        case "--write-hmetis" -> hmetisDir = Path.of(need(a, v));
        case "-h", "--help" -> {
          System.out.println("PartitionReport [--instances a,b] [--partitioners a,b] [--reps N]"
              + " [--warmup N] [--write-hmetis DIR]\ninstances e.g. " + HypergraphInstances.DEFAULT
              + "\npartitioners " + Partitioners.NAMES);
          return;
        }
        default -> throw new IllegalArgumentException("unknown argument " + a);
      }
      i++;
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    System.out.printf(Locale.ROOT, "%-24s %5s %6s %6s %3s  %-15s %12s %9s %5s %17s %17s%n",
        "instance", "n", "m", "pins", "k", "partitioner", "km1", "imbalance", "bal",
        "wall ms", "cpu ms");
    for (String name : instances) {
      HypergraphInstances.Instance in = HypergraphInstances.byName(name);
      if (hmetisDir != null) {
        writeHmetis(in, hmetisDir);
      }
      for (String pn : partitioners) {
        Partitioner p = Partitioners.create(pn);
        for (int i = 0; i < warmup; i++) {
          p.partition(in.h(), in.k(), in.eps(), in.fixed(), 1000 + i);
        }
        double[] wall = new double[reps];
        double[] cpu = new double[reps];
        double km1 = 0;
        double worstImbalance = 0;
        boolean balanced = true;
        for (int r = 0; r < reps; r++) {
          long c0 = mx.getCurrentThreadCpuTime();
          long t0 = System.nanoTime();
          Partition x = p.partition(in.h(), in.k(), in.eps(), in.fixed(), r + 1);
          wall[r] = (System.nanoTime() - t0) / 1e6;
          cpu[r] = (mx.getCurrentThreadCpuTime() - c0) / 1e6;
          km1 += x.km1() / reps;
          worstImbalance = Math.max(worstImbalance, x.imbalance());
          balanced &= x.isBalanced(in.eps()) && x.respects(in.fixed());
        }
        System.out.printf(Locale.ROOT,
            "%-24s %5d %6d %6d %3d  %-15s %12.1f %9.4f %5s %9.2f ± %5.2f %9.2f ± %5.2f%n",
            name, in.h().numVertices(), in.h().numNets(), in.h().numPins(), in.k(), p.name(),
            km1, worstImbalance, balanced ? "yes" : "NO", mean(wall), sd(wall), mean(cpu),
            sd(cpu));
      }
    }
  }

  private static String need(String flag, String value) {
    if (value == null) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return value;
  }

  private static double mean(double[] x) {
    double s = 0;
    for (double v : x) {
      s += v;
    }
    return s / x.length;
  }

  private static double sd(double[] x) {
    if (x.length < 2) {
      return 0;
    }
    double m = mean(x);
    double s = 0;
    for (double v : x) {
      s += (v - m) * (v - m);
    }
    return Math.sqrt(s / (x.length - 1));
  }

  static void writeHmetis(HypergraphInstances.Instance in, Path dir) throws IOException {
    Files.createDirectories(dir);
    try (Writer w = Files.newBufferedWriter(dir.resolve(in.name() + ".hgr"))) {
      HMetis.write(in.h(), w);
    }
    boolean integral = true;
    for (int v = 0; v < in.h().numVertices(); v++) {
      integral &= in.h().weight(v) == Math.rint(in.h().weight(v));
    }
    try (Writer w = Files.newBufferedWriter(dir.resolve(in.name() + ".int.hgr"))) {
      HMetis.write(in.h(), w, integral ? 1 : 1000, 1);
    }
    if (in.fixed() != null) {
      try (Writer w = Files.newBufferedWriter(dir.resolve(in.name() + ".fix"))) {
        HMetis.writeFixed(in.h().numVertices(), in.fixed(), w);
      }
    }
    List<String> info = new ArrayList<>();
    info.add("k=" + in.k());
    info.add("eps=" + in.eps());
    Files.write(dir.resolve(in.name() + ".txt"), info);
  }
}
