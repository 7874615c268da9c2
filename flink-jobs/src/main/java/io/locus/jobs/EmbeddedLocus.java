package io.locus.jobs;

import io.locus.connectors.DeliveryMode;
import io.locus.kafka.EmbeddedKafka;
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

  private EmbeddedLocus(Path workDir, EmbeddedKafka kafka, JobClient job,
      SchedulerJob.Options options) {
    this.workDir = workDir;
    this.kafka = kafka;
    this.job = job;
    this.options = options;
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
      StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(conf);
      SchedulerJob.build(env, o);
      JobClient client = env.executeAsync(SchedulerJob.NAME);
      return new EmbeddedLocus(dir, kafka, client, o);
    } catch (Exception e) {
      kafka.close();
      deleteQuietly(dir);
      throw new IllegalStateException("could not start Locus: " + e.getMessage(), e);
    }
  }

  public String bootstrapServers() {
    return kafka.bootstrapServers();
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
