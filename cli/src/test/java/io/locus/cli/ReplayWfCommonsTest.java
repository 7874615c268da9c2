package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.WorkflowState;
import io.locus.schemas.WorkflowStatus;
import io.locus.schemas.WorkflowSubmitted;
import io.locus.testkit.Await;
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
 * project's own {@code WfInstanceWriter}) and submits each as one workflow through a real broker:
 * the test plays the scheduler job and the agents (it reads the workflow's parts, completes every
 * task and says the workflow succeeded); every task of each instance is in the parts with its
 * parents, inputs and outputs, and the replay exits 0 with a summary.
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
        for (JobSubmitted j : published) {
          String task = j.getJobId().substring(instance.length() + 1);
          assertThat(j.getJobId()).startsWith(instance + "/");
          assertThat(j.getPool()).isEqualTo("pool-" + instance);
          // the DAG goes whole: each task names its parents, the scheduler job releases it
          assertThat(j.getParents()).as("%s: parents of %s", version, task)
              .containsExactlyInAnyOrderElementsOf(parentsOf.get(task).stream()
                  .map(p -> instance + "/" + p).toList());
          WfTask t = wf.tasks().stream().filter(x -> x.id().equals(task)).findFirst().orElseThrow();
          assertThat(j.getInputs()).as(version).hasSize(t.inputs().size());
          assertThat(j.getOutputs()).as(version).hasSize(t.outputs().size());
          assertThat(j.getOutputs()).allMatch(o -> o.getId().startsWith(instance + "/"));
        }
        assertThat(Files.readString(dir.resolve(instance + ".csv"))).contains("makespan");
      }
    }
  }

  /**
   * Runs the CLI replay, plays the scheduler job for the workflow it submits (every task
   * completes, then the workflow succeeds) and returns the workflow's jobs.
   */
  private static List<JobSubmitted> replay(String bootstrap, Path file, String pool, Path csv)
      throws Exception {
    List<JobSubmitted> seen = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
            ClientConfigs.consumer(bootstrap, null, false));
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(bootstrap))) {
      List<TopicPartition> parts = new ArrayList<>();
      for (int p = 0; p < Topics.WORKFLOWS.partitions(); p++) {
        parts.add(new TopicPartition(Topics.WORKFLOWS.name(), p));
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
      String[] workflowId = {null};
      Await.atMost(Duration.ofSeconds(60)).pollEvery(Duration.ZERO).until(
          () -> "the workflow's parts; replay: " + out + err, () -> {
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
              WorkflowSubmitted w = Topics.WORKFLOWS.decode(r.value());
              workflowId[0] = w.getWorkflowId();
              seen.addAll(w.getJobs());
            }
            return !seen.isEmpty() && seen.get(0).getPool().equals(pool);
          });
      long now = System.currentTimeMillis();
      for (JobSubmitted j : seen) {
        producer.send(new ProducerRecord<>(Topics.TASK_EVENTS.name(),
            Topics.TASK_EVENTS.key(j.getPool()), Topics.TASK_EVENTS.value(TaskEvent.newBuilder()
                .setPool(j.getPool()).setTaskId(j.getJobId()).setJobId(j.getJobId())
                .setAttempt(0).setNode("n1").setType(TaskEventType.COMPLETED).setTimeMs(now)
                .setStartTimeMs(now).setEndTimeMs(now).setBytesStorage(1).build())));
      }
      producer.send(new ProducerRecord<>(Topics.WORKFLOW_STATUS.name(),
          Topics.WORKFLOW_STATUS.key(workflowId[0]), Topics.WORKFLOW_STATUS.value(
              WorkflowStatus.newBuilder().setWorkflowId(workflowId[0])
                  .setState(WorkflowState.SUCCEEDED).setJobs(seen.size())
                  .setCompleted(seen.size()).setTimeMs(now).build())));
      producer.flush();
      int code = run.get(60, TimeUnit.SECONDS);
      assertThat(code).as("replay of %s: %s %s", file, out, err).isZero();
      assertThat(out.toString()).contains("workflow " + workflowId[0] + ": " + seen.size()
          + " jobs in 1 part(s) published to workflows");
    }
    return seen;
  }
}
