package io.locus.cli;
import io.locus.jobs.SchedulerJob;

import io.locus.connectors.DeliveryMode;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Locus on one machine: an in-JVM KRaft broker with every topic, and the scheduler job on a Flink
 * MiniCluster with RocksDB state and checkpoints in a temporary directory. The demo and the
 * whole-system tests run on it; nothing on the decision path is in-memory.
 */
public final class EmbeddedLocus implements AutoCloseable {
  private final Path workDir;
  private final EmbeddedKafka kafka;
  private final JobClient job;
  private final SchedulerJob.Options options;
  private final int metricsPort;

  private EmbeddedLocus(Path workDir, EmbeddedKafka kafka, JobClient job,
      SchedulerJob.Options options, int metricsPort) {
    this.workDir = workDir;
    this.kafka = kafka;
    this.job = job;
    this.options = options;
    this.metricsPort = metricsPort;
  }

  /** Starts the broker, creates the topics, and submits the scheduler job. */
  public static EmbeddedLocus start(SchedulerConfig scheduler, DeliveryMode delivery,
      Duration checkpointInterval) {
    return start(scheduler, delivery, checkpointInterval, "rocksdb", 1, 4);
  }

  /**
   * As {@link #start(SchedulerConfig, DeliveryMode, Duration)}, with the state backend
   * ({@code rocksdb} or {@code hashmap}), the job's parallelism and the MiniCluster's task slots
   * (at least the parallelism): the bench compares backends and scales out pools.
   */
  public static EmbeddedLocus start(SchedulerConfig scheduler, DeliveryMode delivery,
      Duration checkpointInterval, String stateBackend, int parallelism, int taskSlots) {
    return start(scheduler, delivery, checkpointInterval, stateBackend, parallelism, taskSlots,
        -1);
  }

  /**
   * As above, with Flink's Prometheus reporter serving the MiniCluster's metrics (the
   * scheduler's among them) on {@code http://localhost:METRICS_PORT/metrics}; {@code
   * metricsPort} -1: no reporter. {@link #freePort} finds a port.
   */
  public static EmbeddedLocus start(SchedulerConfig scheduler, DeliveryMode delivery,
      Duration checkpointInterval, String stateBackend, int parallelism, int taskSlots,
      int metricsPort) {
    if (metricsPort != -1 && (metricsPort < 1 || metricsPort > 65535)) {
      throw new IllegalArgumentException("metrics port must be 1-65535 (or -1: none), got "
          + metricsPort);
    }
    if (taskSlots < parallelism) {
      throw new IllegalArgumentException("task slots (" + taskSlots + ") must be ≥ parallelism ("
          + parallelism + ")");
    }
    Path dir;
    try {
      dir = Files.createTempDirectory("locus-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), java.util.Map.of());
    try {
      TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
      SchedulerJob.Options o = new SchedulerJob.Options(kafka.bootstrapServers(), new Properties(),
          delivery, scheduler, checkpointInterval, dir.resolve("checkpoints"), stateBackend, parallelism,
          "locus-scheduler", "locus-" + Long.toHexString(System.nanoTime()), 0);
      Configuration conf = SchedulerJob.configuration(o);
      conf.set(RestOptions.BIND_PORT, "0"); // no fixed web port: several instances can run
      conf.set(TaskManagerOptions.NUM_TASK_SLOTS, taskSlots);
      if (metricsPort != -1) {
        // One port, not a range: the MiniCluster's one reporter takes it, so the URL is known.
        SchedulerJob.prometheus(conf, Integer.toString(metricsPort));
      }
      StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(conf);
      SchedulerJob.build(env, o);
      JobClient client = env.executeAsync(SchedulerJob.NAME);
      return new EmbeddedLocus(dir, kafka, client, o, metricsPort);
    } catch (Exception e) {
      kafka.close();
      deleteQuietly(dir);
      throw new IllegalStateException("could not start Locus: " + e.getMessage(), e);
    }
  }

  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /** The Prometheus reporter's port, or -1 when it runs none. */
  public int metricsPort() {
    return metricsPort;
  }

  /** Where the Prometheus reporter serves the metrics, or null when it runs none. */
  public String metricsUrl() {
    return metricsPort == -1 ? null : "http://localhost:" + metricsPort + "/metrics";
  }

  /**
   * The first port of [{@code from}, {@code to}] nobody listens on now (a port the OS picks when
   * {@code from} is 0). Another process may still take it before the reporter binds it: the
   * reporter then fails to start and Flink logs why; the job runs on without it.
   */
  public static int freePort(int from, int to) {
    for (int p = from; p <= to; p++) {
      try (java.net.ServerSocket s = new java.net.ServerSocket()) {
        s.setReuseAddress(false);
        s.bind(new java.net.InetSocketAddress(p));
        return s.getLocalPort();
      } catch (IOException e) {
        // taken: try the next
      }
    }
    throw new IllegalStateException("no free port in " + from + "-" + to);
  }

  public JobClient job() {
    return job;
  }

  public SchedulerJob.Options options() {
    return options;
  }

  /** Fails if the job died (e.g. restart strategy exhausted), with Flink's cause. */
  public void checkJobAlive() {
    try {
      var status = job.getJobStatus().get();
      if (status.isGloballyTerminalState()) {
        Throwable cause = null;
        try {
          job.getJobExecutionResult().get();
        } catch (Exception e) {
          cause = e;
        }
        throw new IllegalStateException("scheduler job is " + status, cause);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("cannot read job status", e);
    }
  }

  @Override
  public void close() {
    try {
      job.cancel().get();
    } catch (Exception e) {
      // already finished or failed: nothing to cancel
    }
    kafka.close();
    deleteQuietly(workDir);
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a temp dir
    }
  }
}
