package io.locus.jobs.cli;

import io.locus.jobs.demo.TaskEventTracker;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.DataUnit;
import io.locus.schemas.JobSubmitted;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code locus replay}: publishes a trace (or a generated workload) to job-arrivals at its arrival
 * times, compressed by {@code --speedup}. Staged traces (STAGES18) release a stage once every job of
 * the previous one has completed, watching task-events.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "Publish a trace or a generated workload to the job-arrivals topic of a Kafka cluster.")
public final class ReplayCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Mixin WorkloadSource source;

  @Option(names = "--bootstrap-servers", required = true, paramLabel = "HOST:PORT[,...]",
      description = "Kafka bootstrap servers.")
  String bootstrap;

  @Option(names = "--kafka-properties", paramLabel = "FILE",
      description = "Extra Kafka client properties (security.protocol, sasl.*, ssl.*).")
  Path kafkaProperties;

  @Option(names = "--pool", paramLabel = "POOL",
      description = "Pool of every job (overrides the trace's pool; required when the trace has none).")
  String pool;

  @Option(names = "--speedup", defaultValue = "1",
      description = "Trace seconds per real second; 0 publishes as fast as possible. Default: ${DEFAULT-VALUE}.")
  double speedup;

  @Option(names = "--limit", defaultValue = "-1", description = "Publish at most this many jobs.")
  long limit;

  @Option(names = "--stage-timeout", defaultValue = "PT1H",
      description = "Staged traces: give up when a stage has not completed within this. Default: ${DEFAULT-VALUE}.")
  java.time.Duration stageTimeout;

  @Override
  public Integer call() throws Exception {
    if (speedup < 0 || Double.isNaN(speedup)) {
      throw new IllegalArgumentException("--speedup must be ≥ 0 (0 = as fast as possible)");
    }
    Workload w = source.open();
    PrintWriter out = spec.commandLine().getOut();
    Properties props = ClientConfigs.producer(bootstrap);
    if (kafkaProperties != null) {
      props = ClientConfigs.withOverrides(props, kafkaProperties);
    }
    long published = 0;
    int stage = 0;
    List<String> poolsSeen = new ArrayList<>();
    TaskEventTracker tracker = null;
    long start = System.nanoTime();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
      for (TraceJob job : w) {
        if (limit >= 0 && published >= limit) {
          break;
        }
        String p = pool != null ? pool : job.pool();
        if (p == null) {
          throw new IllegalArgumentException("the trace's jobs have no pool: give --pool");
        }
        if (!poolsSeen.contains(p)) {
          poolsSeen.add(p);
        }
        if (job.stage() > stage) {
          // Stage barrier: wait until every earlier job completed, then restart the clock.
          producer.flush();
          if (tracker == null) {
            tracker = new TaskEventTracker(bootstrap);
          }
          awaitCompleted(tracker, poolsSeen, published, stageTimeout, out);
          stage = job.stage();
          start = System.nanoTime();
        }
        if (speedup > 0) {
          long due = start + (long) (job.arrival() / speedup * 1e9);
          while (System.nanoTime() < due) {
            LockSupport.parkNanos(Math.min(due - System.nanoTime(), 50_000_000L));
          }
        }
        JobSubmitted j = toJob(job, p, System.currentTimeMillis());
        producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(), Topics.JOB_ARRIVALS.key(p),
            Topics.JOB_ARRIVALS.value(j)));
        published++;
        if (published % 10_000 == 0) {
          out.printf("published %d / %d%n", published, w.size());
          out.flush();
        }
      }
      producer.flush();
    } finally {
      if (tracker != null) {
        tracker.close();
      }
    }
    out.printf("published %d jobs of %s (%d stages) to %s%n", published, w.name(),
        stage == 0 ? 1 : stage, Topics.JOB_ARRIVALS.name());
    out.flush();
    return 0;
  }

  private static void awaitCompleted(TaskEventTracker tracker, List<String> pools, long jobs,
      java.time.Duration timeout, PrintWriter out) {
    out.printf("waiting for %d jobs to complete before the next stage%n", jobs);
    out.flush();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (pools.stream().mapToLong(p -> tracker.stats(p).completed).sum() < jobs) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("stage not completed within " + timeout
            + ": are the scheduler and agents running for pools " + pools + "?");
      }
      LockSupport.parkNanos(100_000_000L);
    }
  }

  static JobSubmitted toJob(TraceJob t, String pool, long submitMs) {
    List<DataUnit> inputs = new ArrayList<>(t.inputs().size());
    for (io.locus.core.model.InputFile u : t.inputs()) {
      inputs.add(DataUnit.newBuilder().setId(u.id()).setBytes(u.bytes())
          .setComputeSeconds(u.computeSeconds()).setLocation(u.location())
          .setChecksum(u.checksum()).build());
    }
    return JobSubmitted.newBuilder()
        .setJobId(t.jobId())
        .setPool(pool)
        .setSubmitTimeMs(submitMs)
        .setInputs(inputs)
        .setComputeSeconds(t.computeSeconds())
        // hybrid mixes carry a resource profile as job attributes (cpu, mem, disk)
        .setProfile(io.locus.operators.Conversions.profile(
            io.locus.workloads.HybridMix.profile(t)))
        .build();
  }
}
