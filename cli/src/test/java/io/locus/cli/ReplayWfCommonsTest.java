package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.workloads.wf.SyntheticWorkflows;
import io.locus.workloads.wf.WfInstanceWriter;
import io.locus.workloads.wf.WfTask;
import io.locus.workloads.wf.WfWorkflow;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locus replay} reads WfCommons instances of every WfFormat version (written by the
 * project's own {@code WfInstanceWriter}) and acts as their workflow engine through a real broker:
 * the test plays the agents, completing each job it receives; every task of each instance is
 * published with its inputs and outputs, never before all its parents completed, and the replay
 * exits 0 with a summary.
 */
@Tag("integration")
@Timeout(240)
class ReplayWfCommonsTest {
  static final List<String> VERSIONS = List.of("1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6");

  @Test
  void everyWfFormatVersionReplaysAsADagThroughKafka(@TempDir Path dir) throws Exception {
    WfWorkflow wf = SyntheticWorkflows.genome(1, 3, 2);
    Map<String, Set<String>> parentsOf = new HashMap<>();
    for (WfTask t : wf.tasks()) {
      parentsOf.put(t.id(), new HashSet<>(t.parents()));
    }
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
      for (String version : VERSIONS) {
        String instance = "genome-v" + version.replace('.', '_');
        Path file = Files.createDirectories(dir.resolve(instance)).resolve(instance + ".json");
        WfInstanceWriter.write(wf, version, file);
        List<JobSubmitted> published = replay(kafka.bootstrapServers(), file, "pool-" + instance,
            dir.resolve(instance + ".csv"));

        assertThat(published).as(version).hasSize(wf.tasks().size());
        Set<String> completed = new HashSet<>();
        for (JobSubmitted j : published) {
          String task = j.getJobId().substring(instance.length() + 1);
          assertThat(j.getJobId()).startsWith(instance + "/");
          assertThat(j.getPool()).isEqualTo("pool-" + instance);
          // published only once every parent had completed (the test completes each at receipt)
          assertThat(completed).as("%s: %s published before its parents", version, task)
              .containsAll(parentsOf.get(task));
          WfTask t = wf.tasks().stream().filter(x -> x.id().equals(task)).findFirst().orElseThrow();
          assertThat(j.getInputs()).as(version).hasSize(t.inputs().size());
          assertThat(j.getOutputs()).as(version).hasSize(t.outputs().size());
          assertThat(j.getOutputs()).allMatch(o -> o.getId().startsWith(instance + "/"));
          completed.add(task);
        }
        assertThat(Files.readString(dir.resolve(instance + ".csv"))).contains("makespan");
      }
    }
  }

  /** Runs the CLI replay and completes every job it publishes, in publication order. */
  private static List<JobSubmitted> replay(String bootstrap, Path file, String pool, Path csv)
      throws Exception {
    List<JobSubmitted> seen = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
            ClientConfigs.consumer(bootstrap, null, false));
        KafkaProducer<byte[], byte[]> events =
            new KafkaProducer<>(ClientConfigs.producer(bootstrap))) {
      List<TopicPartition> parts = new ArrayList<>();
      for (int p = 0; p < Topics.JOB_ARRIVALS.partitions(); p++) {
        parts.add(new TopicPartition(Topics.JOB_ARRIVALS.name(), p));
      }
      c.assign(parts);
      c.seekToEnd(parts);
      parts.forEach(c::position); // fix the start before the replay publishes
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> {
        CommandLine cl = LocusCli.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute("replay", "--trace", file.toString(), "--format", "wfcommons",
            "--pool", pool, "--bootstrap-servers", bootstrap, "--speedup", "0", "--quiet",
            "--time-scale", "0.01", "--timeout", "PT60S", "--summary-csv", csv.toString());
      });
      // Not Await: the loop plays the agents (completes each arrival) until the replay ends.
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (!run.isDone() && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
          JobSubmitted j = Topics.JOB_ARRIVALS.decode(r.value());
          seen.add(j);
          long now = System.currentTimeMillis();
          events.send(new ProducerRecord<>(Topics.TASK_EVENTS.name(),
              Topics.TASK_EVENTS.key(j.getPool()), Topics.TASK_EVENTS.value(TaskEvent.newBuilder()
                  .setPool(j.getPool()).setTaskId(j.getJobId()).setJobId(j.getJobId())
                  .setAttempt(0).setNode("n1").setType(TaskEventType.COMPLETED).setTimeMs(now)
                  .setStartTimeMs(now).setEndTimeMs(now).setBytesStorage(1).build())));
        }
        events.flush();
      }
      int code = run.get(30, TimeUnit.SECONDS);
      assertThat(code).as("replay of %s: %s %s", file, out, err).isZero();
    }
    return seen;
  }
}
