package io.locus.cli.demo;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.AgentIdentity;
import io.locus.agent.EpochStore;
import io.locus.agent.HostConfig;
import io.locus.agent.real.RealAgentConfig;
import io.locus.agent.real.RealAgents;
import io.locus.agent.real.StorageSettings;
import io.locus.agent.real.TaskTemplate;
import io.locus.agent.sim.LocalPeerDirectory;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.cli.EmbeddedLocus;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.auth.NodeKeys;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One pool's run through the whole system: simulated agents register over Kafka, a generated
 * workload is published to job-arrivals at a set rate, the scheduler job places the tasks, the
 * agents run them and report back; it ends when every task completed (or the deadline passed).
 */
public final class DemoRun {

  /**
   * Settings of one run. Rates are real (wall-clock) tasks per second. With {@code realStorage} set,
   * the agents are real: they stage real files from that directory (written by
   * {@link DemoWorkload#writeStorage}) and peers, and run {@code sha256sum} over each task's inputs;
   * otherwise they are simulated with modelled times. {@code queueDepth}: placements each agent
   * holds beyond its slots (late binding; 0: none).
   */
  public record Config(String pool, int nodes, int slots, long cacheBytes,
      DemoWorkload.Spec workload, double arrivalRate, double timeScale, double storageBandwidth,
      double peerBandwidth, double localBandwidth, boolean readCommitted, Duration timeout,
      java.nio.file.Path realStorage, int queueDepth) {

    public Config(String pool, int nodes, int slots, long cacheBytes, DemoWorkload.Spec workload,
        double arrivalRate, double timeScale, double storageBandwidth, double peerBandwidth,
        double localBandwidth, boolean readCommitted, Duration timeout,
        java.nio.file.Path realStorage) {
      this(pool, nodes, slots, cacheBytes, workload, arrivalRate, timeScale, storageBandwidth,
          peerBandwidth, localBandwidth, readCommitted, timeout, realStorage, 0);
    }

    public Config(String pool, int nodes, int slots, long cacheBytes, DemoWorkload.Spec workload,
        double arrivalRate, double timeScale, double storageBandwidth, double peerBandwidth,
        double localBandwidth, boolean readCommitted, Duration timeout) {
      this(pool, nodes, slots, cacheBytes, workload, arrivalRate, timeScale, storageBandwidth,
          peerBandwidth, localBandwidth, readCommitted, timeout, null);
    }

    public Config withSlots(int n) {
      return new Config(pool, nodes, n, cacheBytes, workload, arrivalRate, timeScale,
          storageBandwidth, peerBandwidth, localBandwidth, readCommitted, timeout, realStorage,
          queueDepth);
    }
  }

  /** What the run needs of an agent host, simulated or real. */
  private record Agents(Awaiter awaiter, java.util.function.Supplier<Throwable> failure,
      Runnable closer) implements AutoCloseable {
    interface Awaiter {
      boolean await(Duration timeout) throws InterruptedException;
    }

    boolean awaitRegistered(Duration timeout) throws InterruptedException {
      return awaiter.await(timeout);
    }

    Throwable consumerFailure() {
      return failure.get();
    }

    @Override
    public void close() {
      closer.run();
    }
  }

  /** What a run achieved. */
  public record Result(String pool, String policy, int tasks, TaskEventTracker.Stats stats,
      double wallSeconds, long placements) {
    public boolean allCompleted() {
      return stats.completed == tasks;
    }

    public double placementsPerSecond() {
      return wallSeconds <= 0 ? 0 : placements / wallSeconds;
    }
  }

  private DemoRun() {}

  public static Result run(EmbeddedLocus locus, TaskEventTracker tracker, Config cfg,
      PrintStream progress) throws InterruptedException {
    List<JobSubmitted> jobs = DemoWorkload.generate(cfg.pool(), cfg.workload());
    long start = System.nanoTime();
    try (Agents agents = startAgents(locus.bootstrapServers(), cfg,
            locus.options().scheduler().nodeSecret());
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()))) {
      if (!agents.awaitRegistered(Duration.ofSeconds(30))) {
        throw new IllegalStateException("agents did not register within 30 s");
      }
      long deadline = System.nanoTime() + cfg.timeout().toNanos();
      long nextReport = System.nanoTime();
      int published = 0;
      long publishStart = System.nanoTime();
      while (true) {
        long now = System.nanoTime();
        // Publish what is due at the arrival rate (evenly spaced arrivals).
        int due = (int) Math.min(jobs.size(), (now - publishStart) / 1e9 * cfg.arrivalRate() + 1);
        for (; published < due; published++) {
          JobSubmitted j = jobs.get(published);
          long t = System.currentTimeMillis();
          j.setSubmitTimeMs(t);
          tracker.submitted(j.getJobId(), t);
          producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
              Topics.JOB_ARRIVALS.key(cfg.pool()), Topics.JOB_ARRIVALS.value(j)));
        }
        TaskEventTracker.Stats s = tracker.stats(cfg.pool());
        if (now >= nextReport) {
          progress.println(progressLine(cfg.pool(), s, published, jobs.size(),
              tracker.latestMetrics(cfg.pool()), (now - start) / 1e9));
          nextReport = now + 2_000_000_000L;
          locus.checkJobAlive();
          if (agents.consumerFailure() != null) {
            throw new IllegalStateException("agent host failed", agents.consumerFailure());
          }
        }
        if (s.completed >= jobs.size() || now > deadline) {
          break;
        }
        // Pace the loop: publish in small steps, re-check progress often.
        java.util.concurrent.locks.LockSupport.parkNanos(5_000_000L);
      }
      producer.flush();
    }
    double wall = (System.nanoTime() - start) / 1e9;
    TaskEventTracker.Stats s = tracker.stats(cfg.pool());
    SchedulerMetrics m = tracker.latestMetrics(cfg.pool());
    long placements = m == null ? s.completed : m.getPlacements();
    return new Result(cfg.pool(), m == null ? "?" : m.getPolicy(), jobs.size(), s, wall,
        Math.max(placements, s.completed));
  }

  /**
   * The demo's agents; with the scheduler's cluster node secret ({@code nodeSecret}, null: none)
   * each simulated node signs with its own key, as {@code locus agent sim --cluster-secret-file}
   * does.
   */
  private static Agents startAgents(String bootstrap, Config cfg, byte[] nodeSecret) {
    AgentConfig template = AgentConfig.builder(cfg.pool())
        .slots(cfg.slots())
        .queueDepth(cfg.queueDepth())
        .cacheCapacityBytes(cfg.cacheBytes())
        .storageBandwidth(cfg.storageBandwidth())
        .peerBandwidth(cfg.peerBandwidth())
        .localBandwidth(cfg.localBandwidth())
        .timeScale(cfg.timeScale())
        .build();
    HostConfig host = HostConfig.builder(bootstrap)
        .nodeIds(HostConfig.nodeIds(cfg.pool() + "-node-", cfg.nodes()))
        .readCommitted(cfg.readCommitted())
        .startFrom(HostConfig.StartFrom.EARLIEST)
        .ensureTopics(false)
        .build();
    AgentHost<?> h;
    if (cfg.realStorage() == null) {
      NodeKeys keys = nodeSecret == null ? null : new NodeKeys(nodeSecret);
      h = AgentHost.start(host, new SimulatedAgents(template, new LocalPeerDirectory(),
          node -> new AgentIdentity(AgentIdentity.newInstanceId(), EpochStore.inMemory(),
              keys == null ? null : keys.signer(node))));
    } else {
      if (nodeSecret != null) {
        // Real agents take their key from their config file (security.node-key-file).
        throw new IllegalArgumentException("a demo with real storage runs its agents unsigned: "
            + "start its scheduler without a node secret");
      }
      RealAgentConfig real = RealAgentConfig.of(template)
          .withStorage(StorageSettings.rootedAt(cfg.realStorage().toUri()))
          .withTemplate(TaskTemplate.of("checksum", List.of("sha256sum", "{inputs}")), true);
      h = AgentHost.start(host,
          new RealAgents(real, cfg.realStorage().resolveSibling(cfg.pool() + "-nodes")));
    }
    return new Agents(h::awaitRegistered, h::consumerFailure, h::close);
  }

  static String progressLine(String pool, TaskEventTracker.Stats s, int published, int total,
      SchedulerMetrics m, double seconds) {
    String queue = m == null ? "-" : Long.toString(m.getQueueLength());
    String busy = m == null ? "-" : m.getBusySlots() + "/" + m.getTotalSlots();
    double rate = m == null || seconds <= 0 ? 0 : m.getPlacements() / seconds;
    return String.format(Locale.ROOT,
        "[%s %5.1fs] done %d/%d  published %d  queued %s  busy slots %s  placements/s %.0f  "
            + "cache hit %.1f%%",
        pool, seconds, s.completed, total, published, queue, busy, rate, 100 * s.hitRatio());
  }
}
