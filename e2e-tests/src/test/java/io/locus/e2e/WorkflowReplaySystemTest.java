package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.connectors.DeliveryMode;
import io.locus.core.model.InputFile;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.replay.AckedPublisher;
import io.locus.cli.replay.Progress;
import io.locus.cli.replay.Replayer;
import io.locus.cli.replay.SubmissionWatch;
import io.locus.cli.replay.WorkflowReplay;
import io.locus.schemas.WorkflowFailurePolicy;
import io.locus.cli.replay.TaskEventFeed;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A workflow through the whole system: embedded Kafka, the scheduler (MCH) on a MiniCluster with
 * RocksDB, whose workflow runner releases each task, simulated agents that cache the outputs of
 * the tasks they ran. A three-level workflow submitted by the replay completes; no task is
 * submitted or started before its parents completed (by the events' times); and children read
 * their parents' outputs from the node's cache, where MCH places them.
 */
@Tag("integration")
@Timeout(180)
class WorkflowReplaySystemTest {
  private static final String POOL = "e2e-wf";
  private static final long MB = 1_000_000L;

  private static TraceJob task(String id, List<String> parents, List<InputFile> in,
      List<InputFile> out) {
    return new TraceJob(id, null, 0, in, 2.0, 0, Map.of(), null, parents, out, null, List.of());
  }

  /**
   * Four branches: root i reads a shared raw file and writes o-i; two children read o-i and
   * write p-i-a and p-i-b; a join reads both. 16 tasks on three levels.
   */
  static Workload workflow() {
    List<TraceJob> jobs = new ArrayList<>();
    InputFile raw = InputFile.of("wf/raw", 20 * MB);
    for (int i = 0; i < 4; i++) {
      InputFile o = InputFile.of("wf/o-" + i, 100 * MB);
      jobs.add(task("wf/root-" + i, List.of(), List.of(raw, InputFile.of("wf/in-" + i, 10 * MB)),
          List.of(o)));
    }
    for (int i = 0; i < 4; i++) {
      InputFile o = InputFile.of("wf/o-" + i, 100 * MB);
      for (String b : List.of("a", "b")) {
        jobs.add(task("wf/mid-" + i + b, List.of("wf/root-" + i), List.of(o),
            List.of(InputFile.of("wf/p-" + i + b, 50 * MB))));
      }
    }
    for (int i = 0; i < 4; i++) {
      jobs.add(task("wf/join-" + i, List.of("wf/mid-" + i + "a", "wf/mid-" + i + "b"),
          List.of(InputFile.of("wf/p-" + i + "a", 50 * MB), InputFile.of("wf/p-" + i + "b", 50 * MB)),
          List.of(InputFile.of("wf/final-" + i, MB))));
    }
    return Workload.of("e2e-workflow", "three levels, four branches", jobs);
  }

  @Test
  void aWorkflowCompletesChildrenAfterParentsReadingTheirOutputsLocally() throws Exception {
    Workload w = workflow();
    Map<String, List<String>> parents = new HashMap<>();
    w.forEach(j -> parents.put(j.jobId(), j.parents()));
    try (EmbeddedLocus locus = EmbeddedLocus.start(SchedulerConfig.defaults("MCH"),
        DeliveryMode.AT_LEAST_ONCE, Duration.ofSeconds(2))) {
      String bootstrap = locus.bootstrapServers();
      Replayer.Outcome outcome;
      try (AgentHost<?> agents = startAgents(bootstrap)) {
        assertThat(agents.awaitRegistered(Duration.ofSeconds(30))).isTrue();
        var client = ClientConfigs.base(bootstrap);
        try (TaskEventFeed feed = new TaskEventFeed(client, Set.of(POOL));
            SubmissionWatch watch = new SubmissionWatch(client, "e2e-wf-1", Set.of(POOL));
            AckedPublisher publisher = new AckedPublisher(client)) {
          outcome = new WorkflowReplay(w, j -> POOL, new WorkflowReplay.Settings("e2e-wf-1",
              WorkflowFailurePolicy.FAIL_DESCENDANTS, -1, true, Duration.ofSeconds(60)),
              publisher, watch, feed,
              new Progress(new PrintWriter(System.err), false, Duration.ofSeconds(5),
                  System.nanoTime()),
              new PrintWriter(new StringWriter())).run();
        }
        assertThat(agents.consumerFailure()).isNull();
      }
      assertThat(outcome.ok()).as(String.valueOf(outcome.problem())).isTrue();
      assertThat(outcome.summary().completed()).isEqualTo(16);
      assertThat(outcome.summary().publishFailed()).isZero();
      System.out.print(outcome.summary().table());

      Map<String, Long> submitted = new HashMap<>();
      Map<String, TaskEvent> completed = new HashMap<>();
      Map<String, Long> started = new HashMap<>();
      read(bootstrap, Topics.JOB_ARRIVALS.name(), Topics.JOB_ARRIVALS.partitions(), r -> {
        JobSubmitted j = Topics.JOB_ARRIVALS.decode(r.value());
        if (POOL.equals(j.getPool())) {
          submitted.putIfAbsent(j.getJobId(), j.getSubmitTimeMs());
        }
      }, () -> submitted.size() >= 16);
      read(bootstrap, Topics.TASK_EVENTS.name(), Topics.TASK_EVENTS.partitions(), r -> {
        TaskEvent e = Topics.TASK_EVENTS.decode(r.value());
        if (!POOL.equals(e.getPool())) {
          return;
        }
        if (e.getType() == TaskEventType.COMPLETED) {
          completed.putIfAbsent(e.getTaskId(), e);
        } else if (e.getType() == TaskEventType.STARTED) {
          started.merge(e.getTaskId(), e.getStartTimeMs(), Math::min);
        }
      }, () -> completed.size() >= 16);
      assertThat(completed).hasSize(16);

      long childLocal = 0;
      for (var entry : parents.entrySet()) {
        String child = entry.getKey();
        for (String p : entry.getValue()) {
          long parentEnd = completed.get(p).getEndTimeMs();
          assertThat(submitted.get(child)).as(child + " submitted after " + p + " completed")
              .isGreaterThanOrEqualTo(parentEnd);
          assertThat(started.get(child)).as(child + " started after " + p + " completed")
              .isGreaterThanOrEqualTo(parentEnd);
        }
        if (!entry.getValue().isEmpty()) {
          childLocal += completed.get(child).getBytesLocal();
        }
      }
      // MCH puts children where their parents' outputs are cached: read locally there
      assertThat(childLocal).as("bytes children read from their node's cache").isPositive();
    }
  }

  private static AgentHost<?> startAgents(String bootstrap) {
    AgentConfig template = AgentConfig.builder(POOL)
        .slots(2)
        .cacheCapacityBytes(2_000 * MB)
        .storageBandwidth(50e6)
        .peerBandwidth(100e6)
        .localBandwidth(400e6)
        .timeScale(0.01)
        .build();
    HostConfig host = HostConfig.builder(bootstrap)
        .nodeIds(HostConfig.nodeIds(POOL + "-node-", 4))
        .readCommitted(false)
        .startFrom(HostConfig.StartFrom.EARLIEST)
        .ensureTopics(false)
        .build();
    return AgentHost.start(host, new SimulatedAgents(template));
  }

  /** Reads a whole topic from the beginning until {@code enough} or 30 s passed. */
  private static void read(String bootstrap, String topic, int partitions,
      java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each,
      java.util.function.BooleanSupplier enough) {
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, false))) {
      List<TopicPartition> parts = new ArrayList<>();
      for (int i = 0; i < partitions; i++) {
        parts.add(new TopicPartition(topic, i));
      }
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      // A bounded read, not Await: returns at the deadline and the caller's assertions report
      // what was read.
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(200)).forEach(each);
        boolean atEnd = parts.stream().allMatch(tp -> c.position(tp) >= end.get(tp));
        if (atEnd && enough.getAsBoolean()) {
          return;
        }
      }
    }
  }
}
