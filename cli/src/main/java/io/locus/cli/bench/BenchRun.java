package io.locus.cli.bench;

import io.locus.connectors.DeliveryMode;
import io.locus.cli.EmbeddedLocus;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.JobSubmitted;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One bench configuration end to end: the embedded broker and the scheduler job in this JVM, the
 * simulated agents in separate processes (one per pool), then a rising arrival rate in steps until
 * the last step or until the scheduler falls behind (backlog past the cap).
 */
public final class BenchRun {
  private static final long REGISTER_TIMEOUT_NANOS = 180_000_000_000L;
  /** Placements/s and completions/s of a step are measured over all but its first 1/5. */
  static final int WARMUP_FRACTION = 5;

  /** A configuration's steps, and the agents' log files. */
  public record Result(BenchConfig config, List<StepResult> steps, List<Path> agentLogs) {
    /** The highest offered rate that was kept up (0 if none). */
    public StepResult sustained() {
      StepResult best = null;
      for (StepResult s : steps) {
        // an overload step is a multiple of the sustained rate, never a new one
        if (s.keptUp() && !s.isOverload() && (best == null || s.offeredPerSecond() > best.offeredPerSecond())) {
          best = s;
        }
      }
      return best;
    }
  }

  private BenchRun() {}

  /**
   * Pool names whose keys Flink assigns to different subtasks (as far as there are subtasks), so
   * that K pools at parallelism K really run on K operator instances.
   */
  static List<String> poolNames(String policy, int pools, int parallelism) {
    int maxPar = KeyGroupRangeAssignment.computeDefaultMaxParallelism(parallelism);
    List<String> names = new ArrayList<>();
    java.util.Set<Integer> used = new java.util.HashSet<>();
    for (int n = 0; names.size() < pools; n++) {
      String name = "bench-" + policy.toLowerCase(Locale.ROOT) + "-" + n;
      int sub = KeyGroupRangeAssignment.assignKeyToParallelOperator(name, maxPar, parallelism);
      if (used.size() >= parallelism || used.add(sub)) {
        names.add(name);
      }
    }
    return names;
  }

  /** The most jobs a configuration can publish: the warm-up and every step at full rate, plus slack. */
  static int capacity(BenchConfig cfg) {
    double secs = cfg.step().toNanos() / 1e9;
    double total = cfg.rates().get(0) * cfg.warmup().toNanos() / 1e9 + 1000;
    for (double r : cfg.rates()) {
      total += r * secs + 1000;
    }
    double top = cfg.rates().get(cfg.rates().size() - 1);
    for (double f : cfg.overload()) {
      total += f * top * secs + 1000; // the sustained rate is at most the top rate
    }
    if (total > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("rates × step too large: " + (long) total + " jobs");
    }
    return (int) total;
  }

  /**
   * --window and --theta, for the policies that take them: a policy refuses a parameter it does
   * not know (MET, EFT, ... have no theta), and every file policy can be measured.
   */
  public static Map<String, String> policyParams(String policy, int window, double theta) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("window", Integer.toString(window));
    p.put("theta", Double.toString(theta));
    List<String> takes = io.locus.core.policy.Policies.parameters(policy);
    if (takes != null) {
      p.keySet().retainAll(takes);
    }
    return p;
  }

  public static Result run(BenchConfig cfg, Path workDir, PrintStream out)
      throws InterruptedException {
    List<String> pools = poolNames(cfg.policy(), cfg.pools(), cfg.parallelism());
    SchedulerConfig.PolicySpec spec = new SchedulerConfig.PolicySpec(cfg.policy(),
        policyParams(cfg.policy(), cfg.window(), cfg.theta()));
    Map<String, SchedulerConfig.PolicySpec> specs = new LinkedHashMap<>();
    pools.forEach(p -> specs.put(p, spec));
    SchedulerConfig sc = new SchedulerConfig(spec, specs, 1000, 3);
    boolean eo = cfg.delivery() == DeliveryMode.EXACTLY_ONCE;
    BenchWorkload workload = new BenchWorkload(cfg);
    List<AgentProcess> agents = new ArrayList<>();
    List<Path> logs = new ArrayList<>();
    out.printf(Locale.ROOT, "%n== %s: %d nodes x %d slots in %d pool(s) %s, parallelism %d, "
            + "checkpoints every %d ms, steps of %d s ==%n", cfg.label(), cfg.nodes(), cfg.slots(),
        pools.size(), pools, cfg.parallelism(), cfg.checkpointInterval().toMillis(),
        cfg.step().toSeconds());
    try (EmbeddedLocus locus = EmbeddedLocus.start(sc, cfg.delivery(), cfg.checkpointInterval(),
        cfg.stateBackend(), cfg.parallelism(), cfg.parallelism());
        PlacementWatcher watcher = new PlacementWatcher(locus.bootstrapServers(),
            new java.util.HashSet<>(pools), capacity(cfg), eo)) {
      try {
        for (int i = 0; i < pools.size(); i++) {
          Path log = workDir.resolve("agents-" + pools.get(i) + ".log");
          logs.add(log);
          agents.add(AgentProcess.start("simulated agents of " + pools.get(i),
              List.of("-Xmx1g"), agentArgs(cfg, locus.bootstrapServers(), pools.get(i),
                  cfg.nodesOfPool(i), eo), log));
        }
        awaitRegistered(cfg, pools, locus, watcher, agents);
        out.printf(Locale.ROOT, "   %d agents registered (%d slots)%n", cfg.nodes(),
            (long) cfg.nodes() * cfg.slots());
        List<StepResult> steps = offer(cfg, pools, workload, locus, watcher, agents, out);
        return new Result(cfg, steps, logs);
      } finally {
        for (AgentProcess a : agents) {
          a.close();
        }
      }
    }
  }

  static List<String> agentArgs(BenchConfig cfg, String bootstrap, String pool, int nodes,
      boolean readCommitted) {
    List<String> a = new ArrayList<>(List.of("sim", "--bootstrap-servers", bootstrap,
        "--pool", pool, "--node-prefix", pool + "-node-", "--nodes", Integer.toString(nodes),
        "--slots", Integer.toString(cfg.slots()),
        "--time-scale", Double.toString(cfg.timeScale()),
        "--from", "earliest", "--no-create-topics",
        "--isolation", readCommitted ? "read_committed" : "read_uncommitted",
        // the demo's modelled machine: 2 GB cache, 50 / 100 / 400 MB/s storage / peer / local
        "--cache-bytes", "2000000000", "--storage-bandwidth", "50e6",
        "--peer-bandwidth", "100e6", "--local-bandwidth", "400e6",
        "--stats-interval", "PT10S"));
    if (cfg.workload() == BenchConfig.Workload.NO_IDLE) {
      a.addAll(List.of("--preload-files", Integer.toString(cfg.files()),
          "--preload-bytes", Long.toString(cfg.fileBytes()),
          "--preload-prefix", BenchWorkload.PRELOAD_PREFIX));
    }
    if (cfg.queueDepth() > 0) {
      a.addAll(List.of("--queue-depth", Integer.toString(cfg.queueDepth())));
    }
    return a;
  }

  private static void awaitRegistered(BenchConfig cfg, List<String> pools, EmbeddedLocus locus,
      PlacementWatcher watcher, List<AgentProcess> agents) {
    long deadline = System.nanoTime() + REGISTER_TIMEOUT_NANOS;
    while (true) {
      boolean all = true;
      for (int i = 0; i < pools.size(); i++) {
        all &= watcher.registeredSlots(pools.get(i)) >= (long) cfg.nodesOfPool(i) * cfg.slots();
      }
      if (all) {
        return;
      }
      agents.forEach(AgentProcess::checkAlive);
      locus.checkJobAlive();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the scheduler did not count every agent's slots within "
            + REGISTER_TIMEOUT_NANOS / 1_000_000_000L + " s; end of " + agents.get(0).log()
            + ":\n" + agents.get(0).tail());
      }
      LockSupport.parkNanos(100_000_000L); // polling a condition with a deadline
    }
  }

  /** One measured step: its jobs' numbers and its row (see {@link #measure}). */
  private record Step(long first, long end, double rate, double published, double placed,
      double completed, long backlog, double overload, double sustained) {}

  private static List<StepResult> offer(BenchConfig cfg, List<String> pools,
      BenchWorkload workload, EmbeddedLocus locus, PlacementWatcher watcher,
      List<AgentProcess> agents, PrintStream out) throws InterruptedException {
    var props = ClientConfigs.producer(locus.bootstrapServers());
    props.put("batch.size", "262144");
    List<Step> rows = new ArrayList<>();
    long seq = 0;
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
      Pacer pacer = new Pacer(cfg, pools, workload, locus, watcher, agents, producer);
      if (!cfg.warmup().isZero()) {
        double rate = cfg.rates().get(0);
        seq = publish(cfg, pools, workload, locus, watcher, agents, producer, seq, rate,
            cfg.warmup().toNanos());
        drain(cfg, seq, watcher);
        out.printf(Locale.ROOT, "   warm-up: %,d jobs at %,.0f/s over %d s (not reported)%n", seq,
            rate, cfg.warmup().toSeconds());
      }
      double sustained = 0;
      for (double rate : cfg.rates()) {
        Step st = pacer.measure(seq, rate, 0, 0);
        seq = st.end();
        rows.add(st);
        out.printf(Locale.ROOT, "   offered %,8.0f/s  published %,8.0f/s  placed %,8.0f/s  "
                + "completed %,8.0f/s  backlog %,d%n", rate, st.published(), st.placed(),
            st.completed(), st.backlog());
        if (keptUp(cfg, st)) {
          sustained = rate;
        }
        if (st.backlog() > cfg.backlogCap()) {
          out.printf(Locale.ROOT, "   backlog %,d > cap %,d: the scheduler fell behind; not "
              + "raising the rate further%n", st.backlog(), cfg.backlogCap());
          break;
        }
      }
      if (!cfg.overload().isEmpty()) {
        seq = overload(cfg, pacer, watcher, seq, sustained, rows, out);
      }
    }
    drain(cfg, seq, watcher);
    List<StepResult> steps = new ArrayList<>();
    for (Step r : rows) {
      long[] unplaced = new long[1];
      long[] lat = watcher.latencies(r.first(), r.end(), unplaced);
      steps.add(new StepResult(cfg.label(), r.rate(), r.published(), r.placed(), r.completed(),
          StepResult.quantileMs(lat, 0.50), StepResult.quantileMs(lat, 0.99),
          StepResult.quantileMs(lat, 1.0), r.backlog(), unplaced[0], keptUp(cfg, r),
          r.overload(), r.sustained()));
    }
    return steps;
  }

  private static boolean keptUp(BenchConfig cfg, Step s) {
    return s.placed() >= StepResult.KEPT_UP * s.rate() && s.backlog() <= cfg.backlogCap();
  }

  /**
   * The overload steps: each factor of {@code --overload} × the sustained rate, one step each,
   * in the order given, with no backlog cap (overload is the point). They start from a drained
   * pool (at most --drain of waiting), so the first one measures a burst onto a scheduler that
   * had kept up, and each later one carries the backlog the earlier ones left, as a long burst
   * does. Without a sustained rate there is nothing to multiply: said, and skipped.
   */
  private static long overload(BenchConfig cfg, Pacer pacer, PlacementWatcher watcher, long seq,
      double sustained, List<Step> rows, PrintStream out) throws InterruptedException {
    if (sustained <= 0) {
      out.printf(Locale.ROOT, "   no step was kept up: no sustained rate, so no overload "
          + "steps%n");
      return seq;
    }
    drain(cfg, seq, watcher);
    out.printf(Locale.ROOT, "   overload: steps at %s × the sustained %,.0f/s (backlog %,d at "
        + "the start)%n", cfg.overload(), sustained, seq - watcher.placed());
    for (double f : cfg.overload()) {
      Step st = pacer.measure(seq, f * sustained, f, sustained);
      seq = st.end();
      rows.add(st);
      out.printf(Locale.ROOT, "   offered %,8.0f/s (%s× sustained)  placed %,8.0f/s = %.0f %% of "
              + "sustained  backlog %,d%n", st.rate(), factor(f), st.placed(),
          100 * st.placed() / sustained, st.backlog());
    }
    return seq;
  }

  static String factor(double f) {
    return f == Math.rint(f) ? Long.toString((long) f) : Double.toString(f);
  }

  /** Publishes at a rate for one step and measures it. */
  private record Pacer(BenchConfig cfg, List<String> pools, BenchWorkload workload,
      EmbeddedLocus locus, PlacementWatcher watcher, List<AgentProcess> agents,
      KafkaProducer<byte[], byte[]> producer) {

    /**
     * One step at {@code rate} from job {@code first} on: placements/s and completions/s over
     * its last 4/5 (the change of rate takes the pipeline's latency to reach the decisions, and
     * that transient is not the capacity), and the backlog at its end.
     */
    Step measure(long first, double rate, double overload, double sustained) {
      long stepNanos = cfg.step().toNanos();
      long seq = first;
      long t0 = System.nanoTime();
      long warm = t0 + stepNanos / WARMUP_FRACTION;
      long placed0 = -1;
      long done0 = 0;
      long tw = t0;
      long nextCheck = t0 + 1_000_000_000L;
      while (true) {
        long now = System.nanoTime();
        if (placed0 < 0 && now >= warm) {
          placed0 = watcher.placed();
          done0 = watcher.completed();
          tw = now;
        }
        long elapsed = Math.min(now - t0, stepNanos);
        long due = first + (long) (elapsed / 1e9 * rate) + 1;
        due = Math.min(due, watcher.capacity());
        seq = send(pools, workload, watcher, producer, seq, due);
        if (now - t0 >= stepNanos) {
          break;
        }
        if (now >= nextCheck) {
          agents.forEach(AgentProcess::checkAlive);
          locus.checkJobAlive();
          nextCheck = now + 1_000_000_000L;
        }
        LockSupport.parkNanos(1_000_000L); // pacing: publish what is due every millisecond
      }
      producer.flush();
      long t1 = System.nanoTime();
      double secs = (t1 - t0) / 1e9;
      double measured = (t1 - tw) / 1e9;
      long placed1 = watcher.placed();
      long done1 = watcher.completed();
      return new Step(first, seq, rate, (seq - first) / secs, (placed1 - placed0) / measured,
          (done1 - done0) / measured, seq - placed1, overload, sustained);
    }
  }

  /** Publishes jobs {@code seq} .. {@code due - 1}, round robin over the pools; returns due. */
  private static long send(List<String> pools, BenchWorkload workload, PlacementWatcher watcher,
      KafkaProducer<byte[], byte[]> producer, long seq, long due) {
    for (; seq < due; seq++) {
      String pool = pools.get((int) (seq % pools.size()));
      JobSubmitted j = workload.job(pool, seq);
      long at = System.nanoTime();
      j.setSubmitTimeMs(System.currentTimeMillis());
      watcher.published(seq, at);
      producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
          Topics.JOB_ARRIVALS.key(pool), Topics.JOB_ARRIVALS.value(j)));
    }
    return seq;
  }

  /** Publishes at {@code rate} for {@code nanos} (the warm-up); returns the next job number. */
  private static long publish(BenchConfig cfg, List<String> pools, BenchWorkload workload,
      EmbeddedLocus locus, PlacementWatcher watcher, List<AgentProcess> agents,
      KafkaProducer<byte[], byte[]> producer, long seq, double rate, long nanos) {
    long first = seq;
    long t0 = System.nanoTime();
    long nextCheck = t0 + 1_000_000_000L;
    while (true) {
      long now = System.nanoTime();
      long elapsed = Math.min(now - t0, nanos);
      long due = Math.min(first + (long) (elapsed / 1e9 * rate) + 1, watcher.capacity());
      seq = send(pools, workload, watcher, producer, seq, due);
      if (now - t0 >= nanos) {
        producer.flush();
        return seq;
      }
      if (now >= nextCheck) {
        agents.forEach(AgentProcess::checkAlive);
        locus.checkJobAlive();
        nextCheck = now + 1_000_000_000L;
      }
      LockSupport.parkNanos(1_000_000L); // pacing: publish what is due every millisecond
    }
  }

  /** Waits (up to the drain time) for the decisions of every published job. */
  private static void drain(BenchConfig cfg, long published, PlacementWatcher watcher) {
    long deadline = System.nanoTime() + cfg.drain().toNanos();
    while (watcher.placed() < published && System.nanoTime() < deadline) {
      LockSupport.parkNanos(20_000_000L); // polling a condition with a deadline
    }
  }
}
