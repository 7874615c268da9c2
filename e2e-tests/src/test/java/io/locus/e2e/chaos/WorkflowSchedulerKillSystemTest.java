package io.locus.e2e.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.cli.chaos.ChildJvm;
import io.locus.cli.chaos.Cluster;
import io.locus.cli.chaos.DeliveryChecker;
import io.locus.cli.demo.DemoWorkload;
import io.locus.connectors.DeliveryMode;
import io.locus.jobs.RestorePoint;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.WorkflowFailurePolicy;
import io.locus.schemas.WorkflowState;
import io.locus.schemas.WorkflowStatus;
import io.locus.schemas.WorkflowSubmitted;
import io.locus.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 23's "scheduler kill -9 mid-workflow loses nothing": a workflow of 80 jobs in 8 levels
 * (each job after two of the level before) is submitted once to the workflows topic; {@code
 * locus run} as a child process is killed with {@code kill -9} once some of it completed and a
 * checkpoint is retained, and started again with the same command. The workflow runner's DAG and
 * the scheduler's queue come back from the checkpoint, the runner reads the job-status it had not
 * yet consumed, and the workflow ends SUCCEEDED with every job completed effectively once
 * (DeliveryChecker on the topics); in exactly-once no task runs twice either.
 */
@Tag("integration")
@Timeout(300)
class WorkflowSchedulerKillSystemTest {
  private static final int LEVELS = 8;
  private static final int WIDTH = 10;

  @ParameterizedTest
  @EnumSource(DeliveryMode.class)
  void killNineMidWorkflowThenTheSameCommandFinishesItOnce(DeliveryMode mode, @TempDir Path dir)
      throws Exception {
    String pool = "wf-kill9-" + mode.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    String workflow = pool + "-w1";
    Path state = dir.resolve("state");
    List<JobStatus> statuses = new CopyOnWriteArrayList<>();
    List<WorkflowStatus> progress = new CopyOnWriteArrayList<>();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), Map.of())) {
      String bootstrap = kafka.bootstrapServers();
      TopicAdmin.ensureTopics(bootstrap, Topics.ALL);
      List<String> run = Cluster.runArgs(bootstrap, state, mode, 1, 0);
      List<JobSubmitted> jobs = dag(pool);
      try (ChildJvm scheduler = Cluster.scheduler(run);
          ChildJvm agents = Cluster.agents(bootstrap, pool, List.of(pool + "-n0", pool + "-n1",
              pool + "-n2", pool + "-n3"), dir.resolve("agents"));
          DeliveryChecker checker = new DeliveryChecker(bootstrap,
              mode == DeliveryMode.EXACTLY_ONCE);
          TopicTail tail = TopicTail.builder(ClientConfigs.base(bootstrap))
              .name("wf-kill9-follower")
              .follow(Topics.JOB_STATUS, (s, m) -> statuses.add(s))
              .follow(Topics.WORKFLOW_STATUS, (s, m) -> progress.add(s))
              .start()) {
        scheduler.awaitLine("running", Duration.ofSeconds(90));
        agents.awaitLine("registered", Duration.ofSeconds(90));
        try (KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(bootstrap))) {
          producer.send(new ProducerRecord<>(Topics.WORKFLOWS.name(),
              Topics.WORKFLOWS.key(workflow), Topics.WORKFLOWS.value(WorkflowSubmitted.newBuilder()
                  .setWorkflowId(workflow).setSubmitTimeMs(System.currentTimeMillis())
                  .setOnFailure(WorkflowFailurePolicy.FAIL_DESCENDANTS).setJobs(jobs).build())))
              .get(30, TimeUnit.SECONDS);
        }
        Await.atMost(Duration.ofSeconds(120)).pollEvery(Duration.ofMillis(100)).until(
            () -> "20 jobs completed and a retained checkpoint; scheduler:\n"
                + scheduler.tailText(),
            () -> completed(statuses) >= 20
                && !RestorePoint.latest(state.resolve("checkpoints"), null).isFresh());
        scheduler.kill();
        long completedAtKill = completed(statuses);
        scheduler.restart();
        assertThat(scheduler.awaitLine("locus run: starting from", Duration.ofSeconds(90)))
            .contains("latest retained checkpoint");
        Await.atMost(Duration.ofSeconds(150)).pollEvery(Duration.ofMillis(200)).until(
            () -> "the workflow ended; last status " + (progress.isEmpty() ? "none"
                : progress.get(progress.size() - 1)) + "\nscheduler:\n" + scheduler.tailText(),
            () -> !progress.isEmpty()
                && progress.get(progress.size() - 1).getState() != WorkflowState.RUNNING);
        WorkflowStatus end = progress.get(progress.size() - 1);
        assertThat(end.getState()).as(end.toString()).isEqualTo(WorkflowState.SUCCEEDED);
        assertThat(end.getCompleted()).isEqualTo(LEVELS * WIDTH);
        List<String> ids = jobs.stream().map(JobSubmitted::getJobId).toList();
        DeliveryChecker.Verdict v = checker.awaitCompletion(pool, ids, Duration.ofSeconds(60));
        System.out.println("workflow scheduler kill -9 (" + mode + ", " + completedAtKill
            + " jobs completed at the kill): " + v.summary());
        assertThat(v.keeps(mode)).as(v.summary()).isTrue();
        // no job ran before its parents completed: on the pool's record clock (the topic has
        // several partitions, so the order they are read in says nothing), every child's first
        // PLACED is at or after the COMPLETED of each of its parents
        for (JobSubmitted j : jobs) {
          long placed = firstTime(statuses, j.getJobId(), JobState.PLACED);
          assertThat(placed).as("%s placed", j.getJobId()).isGreaterThanOrEqualTo(0);
          for (String p : j.getParents()) {
            long done = firstTime(statuses, p, JobState.COMPLETED);
            assertThat(done).as("parent %s of %s completed before it was placed", p,
                j.getJobId()).isBetween(0L, placed);
          }
        }
      }
    }
  }

  /** LEVELS x WIDTH jobs; each job of a level after the first depends on two of the one before. */
  private static List<JobSubmitted> dag(String pool) {
    List<JobSubmitted> base = DemoWorkload.generate(pool,
        DemoWorkload.Spec.demo(LEVELS * WIDTH, 30, 23));
    List<JobSubmitted> out = new ArrayList<>();
    for (int level = 0; level < LEVELS; level++) {
      for (int k = 0; k < WIDTH; k++) {
        JobSubmitted j = JobSubmitted.newBuilder(base.get(level * WIDTH + k))
            .setJobId(pool + "-L" + level + "-" + k).build();
        if (level > 0) {
          j.setParents(List.of(pool + "-L" + (level - 1) + "-" + k,
              pool + "-L" + (level - 1) + "-" + ((k + 3) % WIDTH)));
        }
        out.add(j);
      }
    }
    return out;
  }

  private static long completed(List<JobStatus> statuses) {
    return statuses.stream().filter(s -> s.getState() == JobState.COMPLETED)
        .map(JobStatus::getJobId).distinct().count();
  }

  private static long firstTime(List<JobStatus> statuses, String job, JobState state) {
    return statuses.stream().filter(s -> s.getJobId().equals(job) && s.getState() == state)
        .mapToLong(JobStatus::getTimeMs).min().orElse(-1);
  }
}
