package io.locus.cli.demo;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.NodeAgent;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.cli.EmbeddedLocus;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.SchedulerMetrics;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One split pool's run through the whole system: one-slot simulated agents register over Kafka
 * (a split pool runs one subjob per node), the {@link SplitDemoWorkload} event-range jobs are
 * published to job-arrivals at their arrival times, the scheduler job splits, places, shrinks and
 * suspends subjobs, the agents process each event at its planned cost and report the ranges they
 * processed. It ends when every event of every job was reported processed (or the deadline
 * passed), then waits for the scheduler to see the pool idle, and checks with an {@link
 * EventRangeLedger} that every event of every job was processed exactly once.
 */
public final class SplitDemoRun {
  /** The spec's event counts divided by this (mean job 400 events, D = 33,333 events). */
  public static final long SCALE = 100;
  public static final String DATASET = "demo-events";

  /**
   * Settings of one run.
   *
   * @param timeScale wall seconds per model second, for the agents (the pool's {@code timeScale}
   *     split parameter must be the same)
   */
  public record Config(String pool, int nodes, SplitDemoWorkload.Spec workload, double timeScale,
      boolean readCommitted, Duration timeout) {}

  /** What a run achieved. */
  public record Result(String pool, String policy, EventRangeLedger.Check check,
      EventRangeLedger.Counts counts, long failed, long refused, boolean settled,
      double wallSeconds) {
    public int jobs() {
      return check.jobs();
    }

    /** Every job completed, every event exactly once, no attempt failed or was refused. */
    public boolean ok() {
      return check.completedJobs() == check.jobs() && check.exactlyOnce() && failed == 0
          && refused == 0;
    }
  }

  private SplitDemoRun() {}

  /**
   * The demo's parameters of a split policy, in model units, before the user's {@code
   * --split-param}s: the spec's per-event costs (§1.1: c_miss 0.8 s, c_hit 0.26 s) and MIN, and
   * every event count and duration of the spec divided by {@link #SCALE}, like the jobs: cache
   * 100 GB per node = 1,667 events, stripe 50 events, period and T_starve 2 d / 100 = 1728 s; for
   * ADAPTIVE_DELAY the spec's example table scaled the same way (illustrative, not calibrated).
   */
  public static Map<String, String> defaultParams(String canonicalPolicy, double timeScale) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("dataset", DATASET);
    p.put("timeScale", Double.toString(timeScale));
    p.put("cacheEvents", Long.toString(Math.round(100e9 / 600_000 / SCALE)));
    switch (canonicalPolicy) {
      case "OUT_OF_ORDER" -> p.put("starve", Long.toString(2 * 86_400 / SCALE));
      case "DELAYED" -> {
        p.put("stripe", Long.toString(5_000 / SCALE));
        p.put("period", Long.toString(2 * 86_400 / SCALE));
      }
      case "ADAPTIVE_DELAY" -> {
        p.put("stripe", Long.toString(5_000 / SCALE));
        p.put("lmaxTable", "0:" + 1.0 * SCALE + "," + 86_400 / SCALE + ":" + 1.5 * SCALE + ","
            + 2 * 86_400 / SCALE + ":" + 2.0 * SCALE);
        p.put("window", Long.toString(24 * 3600 / SCALE));
        p.put("evaluate", Long.toString(3600 / SCALE));
      }
      default -> { }
    }
    return p;
  }

  public static Result run(EmbeddedLocus locus, TaskEventTracker tracker, Config cfg,
      PrintStream progress) throws InterruptedException {
    List<SplitDemoWorkload.Job> jobs = SplitDemoWorkload.generate(cfg.pool(), cfg.workload());
    List<JobSubmitted> sent = new ArrayList<>(jobs.size());
    EventRangeLedger ledger = tracker.ledger(cfg.pool());
    long start = System.nanoTime();
    boolean settled;
    try (AgentHost<NodeAgent> agents = AgentHost.start(
            HostConfig.builder(locus.bootstrapServers())
                .nodeIds(HostConfig.nodeIds(cfg.pool() + "-node-", cfg.nodes()))
                .readCommitted(cfg.readCommitted())
                .startFrom(HostConfig.StartFrom.EARLIEST)
                .ensureTopics(false)
                .build(),
            new SimulatedAgents(AgentConfig.builder(cfg.pool()).slots(1)
                .timeScale(cfg.timeScale())
                // the pool's clock moves with its inputs: frequent heartbeats keep timers prompt
                .heartbeatMs(250).build()));
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()))) {
      if (!agents.awaitRegistered(Duration.ofSeconds(30))) {
        throw new IllegalStateException("agents did not register within 30 s");
      }
      // Jobs sent before the scheduler knows the nodes would only queue: wait for them.
      await(locus, agents, Duration.ofSeconds(60), () -> {
        SchedulerMetrics m = tracker.latestMetrics(cfg.pool());
        return m != null && m.getRegisteredNodes() >= cfg.nodes();
      }, "the scheduler to register the " + cfg.nodes() + " nodes");
      long deadline = System.nanoTime() + cfg.timeout().toNanos();
      long publishStart = System.nanoTime();
      long nextReport = publishStart;
      int published = 0;
      while (true) {
        long now = System.nanoTime();
        double elapsed = (now - publishStart) / 1e9;
        for (; published < jobs.size() && jobs.get(published).atSeconds() <= elapsed;
            published++) {
          JobSubmitted j = jobs.get(published).job();
          j.setSubmitTimeMs(System.currentTimeMillis());
          producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
              Topics.JOB_ARRIVALS.key(cfg.pool()), Topics.JOB_ARRIVALS.value(j)));
          sent.add(j);
        }
        int done = ledger.completedJobs(sent);
        if (now >= nextReport) {
          progress.println(progressLine(cfg.pool(), done, jobs.size(), published,
              ledger.counts(), tracker.latestMetrics(cfg.pool()), (now - start) / 1e9));
          nextReport = now + 2_000_000_000L;
          locus.checkJobAlive();
          if (agents.consumerFailure() != null) {
            throw new IllegalStateException("agent host failed", agents.consumerFailure());
          }
        }
        if ((published == jobs.size() && done == jobs.size()) || now > deadline) {
          break;
        }
        java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L); // loop pace, not a sync
      }
      producer.flush();
      // Settle: the scheduler sees the pool idle (no subjob queued or running), so a late or
      // duplicate range would have been reported, and every processed range's placement was read.
      long idleAfter = System.currentTimeMillis();
      settled = awaitQuietly(locus, agents, Duration.ofSeconds(20), () -> {
        SchedulerMetrics m = tracker.latestMetrics(cfg.pool());
        return m != null && m.getTimeMs() >= idleAfter && m.getRunningTasks() == 0
            && m.getQueueLength() == 0 && ledger.counts().unplacedEvents() == 0;
      });
    }
    double wall = (System.nanoTime() - start) / 1e9;
    List<JobSubmitted> all = new ArrayList<>(jobs.size());
    jobs.forEach(j -> all.add(j.job()));
    TaskEventTracker.Stats s = tracker.stats(cfg.pool());
    SchedulerMetrics m = tracker.latestMetrics(cfg.pool());
    return new Result(cfg.pool(), m == null ? "?" : m.getPolicy(), ledger.check(all),
        ledger.counts(), s.failed, s.refused, settled, wall);
  }

  private static void await(EmbeddedLocus locus, AgentHost<?> agents, Duration timeout,
      BooleanSupplier condition, String what) {
    if (!awaitQuietly(locus, agents, timeout, condition)) {
      throw new IllegalStateException("timed out after " + timeout + " waiting for " + what);
    }
  }

  private static boolean awaitQuietly(EmbeddedLocus locus, AgentHost<?> agents,
      Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      locus.checkJobAlive();
      if (agents.consumerFailure() != null) {
        throw new IllegalStateException("agent host failed", agents.consumerFailure());
      }
      java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L); // polling interval
    }
    return true;
  }

  static String progressLine(String pool, int done, int total, int published,
      EventRangeLedger.Counts c, SchedulerMetrics m, double seconds) {
    String running = m == null ? "-" : Long.toString(m.getRunningTasks());
    String queued = m == null ? "-" : Long.toString(m.getQueueLength());
    return String.format(Locale.ROOT,
        "[%s %5.1fs] jobs done %d/%d  published %d  subjobs placed %d  running %s  queued %s  "
            + "shrinks %d  suspends %d  event cache hit %.1f%%",
        pool, seconds, done, total, published, c.placements(), running, queued, c.shrinks(),
        c.suspends(), 100 * c.hitRatio());
  }
}
