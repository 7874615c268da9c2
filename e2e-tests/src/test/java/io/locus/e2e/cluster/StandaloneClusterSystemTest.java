package io.locus.e2e.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.NodeAgent;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.connectors.DeliveryMode;
import io.locus.cli.chaos.DeliveryChecker;
import io.locus.cli.LocusCli;
import io.locus.cli.demo.DemoWorkload;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 14's "on a real Flink cluster": a standalone Flink session cluster of child processes (one
 * JobManager, two TaskManagers of two slots) from Maven Central jars; {@code locus run
 * --flink-rest} submits the scheduler at parallelism 2 with three pools of different policies;
 * simulated agents and a paced workload per pool run through an embedded broker; after the
 * job's first completed checkpoint one TaskManager that runs the scheduler is killed with
 * {@code kill -9}. The job must restart from its checkpoint (REST: RUNNING again, a restored
 * checkpoint id &gt; 0), on the surviving TaskManager's two slots (no replacement is started),
 * and every task of every pool must complete exactly once (exactly-once delivery, read
 * committed; the chaos package's DeliveryChecker).
 */
@Tag("integration")
@Timeout(180)
class StandaloneClusterSystemTest {
  /** Pool → policy: three pools, three policies, over two scheduler subtasks. */
  private static final Map<String, String> POOLS = new LinkedHashMap<>(Map.of(
      "cl-mch", "MCH", "cl-gcc", "GCC", "cl-fa", "FA"));
  private static final int TASKS_PER_POOL = 45;
  private static final double TASKS_PER_SECOND = 3;

  @Test
  void theSchedulerOnAStandaloneClusterSurvivesAKilledTaskManagerAndCompletesEveryTaskOnce(
      @TempDir Path dir) throws Exception {
    StandaloneFlink flink = null;
    List<AgentHost<NodeAgent>> agents = new ArrayList<>();
    EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), Map.of());
    try {
      String bootstrap = kafka.bootstrapServers();
      TopicAdmin.ensureTopics(bootstrap, Topics.ALL);
      flink = StandaloneFlink.start(dir.resolve("flink"), 2, 2, Map.of(), Duration.ofSeconds(90));
      StandaloneFlink cluster = flink;
      for (String pool : POOLS.keySet()) {
        agents.add(AgentHost.start(HostConfig.builder(bootstrap)
                .nodeIds(HostConfig.nodeIds(pool + "-n", 4)).ensureTopics(false).build(),
            new SimulatedAgents(AgentConfig.builder(pool).slots(2).timeScale(0.01)
                .heartbeatMs(500).build())));
      }

      String jobId = submit(bootstrap, flink.restAddress(), dir.resolve("state"));
      flink.await(() -> allRunning(cluster, jobId), Duration.ofSeconds(60),
          () -> "job " + jobId + " running: " + cluster.get("/jobs/" + jobId));
      for (AgentHost<NodeAgent> a : agents) {
        assertThat(a.awaitRegistered(Duration.ofSeconds(30))).isTrue();
      }

      try (DeliveryChecker checker = new DeliveryChecker(bootstrap, true);
          Feed feed = new Feed(bootstrap)) {
        // Mid-run: a checkpoint completed, tasks completing, jobs still arriving.
        flink.await(() -> completedCheckpoints(cluster, jobId) > 0
                && completed(checker, feed) >= 15, Duration.ofSeconds(60),
            () -> "a completed checkpoint and 15 completions: " + completed(checker, feed));
        int publishedAtKill = feed.published.get();
        assertThat(publishedAtKill).as("killed mid-workload").isLessThan(feed.total());
        Set<String> before = schedulerTaskManagers(flink, jobId);
        String victim = before.iterator().next();
        long t0 = System.nanoTime();
        flink.killTaskManager(victim);

        flink.await(() -> restoredCheckpoint(cluster, jobId) > 0 && allRunning(cluster, jobId),
            Duration.ofSeconds(60), () -> "job " + jobId + " restored from a checkpoint and"
                + " running again: " + cluster.get("/jobs/" + jobId + "/checkpoints"));
        long restored = restoredCheckpoint(flink, jobId);
        System.out.printf("standalone cluster: killed %s (ran the scheduler on %s) after %d of %d"
                + " jobs published; running again from checkpoint %d after %d ms%n", victim,
            before, publishedAtKill, feed.total(), restored, (System.nanoTime() - t0) / 1_000_000);
        assertThat(restored).isPositive();
        assertThat(flink.isAlive(victim)).isFalse();
        assertThat(schedulerTaskManagers(flink, jobId)).as("runs on the survivor's slots")
            .doesNotContain(victim).hasSize(1);

        for (String pool : POOLS.keySet()) {
          DeliveryChecker.Verdict v = checker.awaitCompletion(pool, feed.taskIds(pool),
              Duration.ofSeconds(60));
          System.out.println("standalone cluster (" + POOLS.get(pool) + "): " + v.summary());
          assertThat(v.keeps(DeliveryMode.EXACTLY_ONCE)).as(v.summary()).isTrue();
          assertThat(v.completed()).isEqualTo(TASKS_PER_POOL);
        }
      }
    } catch (Throwable t) {
      if (flink != null) {
        System.out.println("standalone cluster logs:\n" + flink.logTails());
      }
      throw t;
    } finally {
      // agents before the broker: an agent says goodbye through it (else 10 s each)
      for (AgentHost<NodeAgent> a : agents) {
        a.close();
      }
      if (flink != null) {
        flink.close();
      }
      kafka.close();
    }
  }

  /** {@code locus run --flink-rest} in this JVM: it submits and returns (detached). */
  private static String submit(String bootstrap, String rest, Path state) {
    List<String> args = new ArrayList<>(List.of("run", "--bootstrap-servers", bootstrap,
        "--flink-rest", rest, "--state-dir", state.toString(), "--parallelism", "2",
        "--checkpoint-interval", "PT1S", "--metrics-interval-ms", "500",
        "--restart-attempts", "20", "--transactional-id-prefix", "standalone-" + state.hashCode(),
        "--no-create-topics"));
    POOLS.forEach((pool, policy) -> args.addAll(List.of("--pool-policy", pool + "=" + policy)));
    CommandLine cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args.toArray(String[]::new));
    assertThat(code).as("locus run:\n" + out + err).isZero();
    String start = out.toString().lines().filter(l -> l.startsWith("locus run: starting from"))
        .findFirst().orElseThrow();
    assertThat(start).contains("Flink http://" + rest + " (session cluster")
        .contains("*=MCH, cl-fa=FA, cl-gcc=GCC, cl-mch=MCH").contains("parallelism 2")
        .contains("checkpoints " + state.resolve("checkpoints").toAbsolutePath());
    String submitted = out.toString().lines().filter(l -> l.contains(" submitted; web UI "))
        .findFirst().orElseThrow(() -> new AssertionError("no job id printed:\n" + out));
    return submitted.replaceAll("^locus run: job (\\w+) submitted.*$", "$1");
  }

  private static boolean allRunning(StandaloneFlink flink, String jobId) {
    JsonNode job = flink.get("/jobs/" + jobId);
    if (job == null || !"RUNNING".equals(job.path("state").asText())) {
      return false;
    }
    for (JsonNode v : job.path("vertices")) {
      if (!"RUNNING".equals(v.path("status").asText())) {
        return false;
      }
    }
    return true;
  }

  private static int completedCheckpoints(StandaloneFlink flink, String jobId) {
    JsonNode c = flink.get("/jobs/" + jobId + "/checkpoints");
    return c == null ? 0 : c.path("counts").path("completed").asInt();
  }

  /** The id of the checkpoint the job last restored from, or -1. */
  private static long restoredCheckpoint(StandaloneFlink flink, String jobId) {
    JsonNode c = flink.get("/jobs/" + jobId + "/checkpoints");
    JsonNode r = c == null ? null : c.path("latest").path("restored");
    return r == null || r.isMissingNode() || r.isNull() ? -1 : r.path("id").asLong(-1);
  }

  /** The TaskManagers (resource ids) that run a subtask of the scheduler operator. */
  private static Set<String> schedulerTaskManagers(StandaloneFlink flink, String jobId) {
    Set<String> out = new TreeSet<>();
    for (JsonNode v : flink.get("/jobs/" + jobId).path("vertices")) {
      if (v.path("name").asText().contains("scheduler")) {
        JsonNode tms = flink.get("/jobs/" + jobId + "/vertices/" + v.path("id").asText()
            + "/taskmanagers");
        for (JsonNode tm : tms.path("taskmanagers")) {
          if ("RUNNING".equals(tm.path("status").asText())) {
            out.add(tm.path("taskmanager-id").asText());
          }
        }
      }
    }
    assertThat(out).as("TaskManagers running the scheduler").isNotEmpty();
    return out;
  }

  private static int completed(DeliveryChecker checker, Feed feed) {
    checker.catchUp(Duration.ofSeconds(2));
    int n = 0;
    for (String pool : POOLS.keySet()) {
      n += checker.verdict(pool, feed.taskIds(pool)).completed();
    }
    return n;
  }

  /** Every pool's generated jobs, published round-robin at a steady pace from a thread. */
  private static final class Feed implements AutoCloseable {
    final Map<String, List<JobSubmitted>> jobs = new LinkedHashMap<>();
    final AtomicInteger published = new AtomicInteger();
    private final Thread thread;
    private volatile boolean stop;
    private volatile Throwable failure;

    Feed(String bootstrap) {
      long seed = 14;
      for (String pool : POOLS.keySet()) {
        jobs.put(pool, DemoWorkload.generate(pool,
            DemoWorkload.Spec.demo(TASKS_PER_POOL, 20, seed++)));
      }
      thread = new Thread(() -> publish(bootstrap), "standalone-feed");
      thread.setDaemon(true);
      thread.start();
    }

    int total() {
      return jobs.values().stream().mapToInt(List::size).sum();
    }

    List<String> taskIds(String pool) {
      if (failure != null) {
        throw new IllegalStateException("feed failed", failure);
      }
      return jobs.get(pool).stream().map(JobSubmitted::getJobId).toList();
    }

    private void publish(String bootstrap) {
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(ClientConfigs.producer(bootstrap))) {
        long start = System.nanoTime();
        for (int i = 0; i < TASKS_PER_POOL && !stop; i++) {
          long due = start + (long) (i / TASKS_PER_SECOND * 1e9);
          while (System.nanoTime() < due && !stop) {
            LockSupport.parkNanos(Math.min(due - System.nanoTime(), 20_000_000L)); // pacing
          }
          for (Map.Entry<String, List<JobSubmitted>> e : jobs.entrySet()) {
            JobSubmitted j = e.getValue().get(i);
            j.setSubmitTimeMs(System.currentTimeMillis());
            producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
                Topics.JOB_ARRIVALS.key(e.getKey()), Topics.JOB_ARRIVALS.value(j)));
            published.incrementAndGet();
          }
        }
        producer.flush();
      } catch (Throwable t) {
        failure = t;
      }
    }

    @Override
    public void close() throws InterruptedException {
      stop = true;
      thread.join(30_000);
    }
  }
}
