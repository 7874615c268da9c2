package io.locus.e2e.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.cli.chaos.ChildJvm;
import io.locus.cli.chaos.Cluster;
import io.locus.cli.chaos.DeliveryChecker;
import io.locus.cli.chaos.JobFeed;
import io.locus.connectors.DeliveryMode;
import io.locus.jobs.RestorePoint;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 12's "done when": {@code locus run} as a child process is killed with {@code kill -9} in
 * the middle of a workload and started again with the same command; it restores the latest
 * retained checkpoint and every task completes effectively once (checked on the topics). In
 * exactly-once no task runs twice either; in at-least-once the decisions made after the checkpoint
 * are made again and a replayed placement may go to another node, so a task can run twice: the
 * scheduler accepts the first completion, dead-letters the second and cancels the other run
 * (measured and printed: "executed twice", "dead-lettered completions", "cancels").
 *
 * <p>The same for a split pool (issue 22, finding 6: OUT_OF_ORDER over event-range jobs, one-slot
 * agents that run each event at its planned cost): a task is a subjob whose id and range the
 * policy chooses, so the check is per job and per event ({@link SplitVerdict}): every event of
 * every job is credited by exactly one accepted completion (or a completion the scheduler kept
 * until the subjob's placement, PROTOCOL-12), nothing is lost, and the scheduler ends idle.
 */
@Tag("integration")
@Timeout(300)
class SchedulerKillSystemTest {

  @ParameterizedTest
  @EnumSource(DeliveryMode.class)
  void killNineMidWorkloadThenTheSameCommandCompletesEveryTaskExactlyOnce(DeliveryMode mode,
      @TempDir Path dir) throws Exception {
    String pool = "kill9-" + mode.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    Path state = dir.resolve("state");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), Map.of())) {
      String bootstrap = kafka.bootstrapServers();
      TopicAdmin.ensureTopics(bootstrap, Topics.ALL);
      List<String> run = Cluster.runArgs(bootstrap, state, mode, 1, 0);
      try (ChildJvm scheduler = Cluster.scheduler(run);
          ChildJvm agents = Cluster.agents(bootstrap, pool, List.of(pool + "-n0", pool + "-n1",
              pool + "-n2", pool + "-n3", pool + "-n4", pool + "-n5"), dir.resolve("agents"));
          DeliveryChecker checker = new DeliveryChecker(bootstrap, mode == DeliveryMode.EXACTLY_ONCE)) {
        assertThat(scheduler.awaitLine("locus run: starting from", Duration.ofSeconds(90)))
            .contains("empty state");
        scheduler.awaitLine("running", Duration.ofSeconds(90));
        agents.awaitLine("registered", Duration.ofSeconds(90));
        try (JobFeed feed = new JobFeed(bootstrap, pool, 200, 17, 20)) {
          Await.atMost(Duration.ofSeconds(120)).pollEvery(Duration.ofMillis(100)).until(
              () -> "50 completions and a retained checkpoint; scheduler:\n"
                  + scheduler.tailText(), () -> {
                checker.catchUp(Duration.ofSeconds(2));
                return checker.verdict(pool, feed.taskIds()).completed() >= 50
                    && !RestorePoint.latest(state.resolve("checkpoints"), null).isFresh();
              });
          scheduler.kill();
          int publishedAtKill = feed.published();
          scheduler.restart();
          assertThat(scheduler.awaitLine("locus run: starting from", Duration.ofSeconds(90)))
              .contains("latest retained checkpoint");
          DeliveryChecker.Verdict v =
              checker.awaitCompletion(pool, feed.taskIds(), Duration.ofSeconds(120));
          System.out.println("scheduler kill -9 (" + mode + ", killed at " + publishedAtKill
              + " published): " + v.summary());
          assertThat(v.keeps(mode)).as(v.summary() + "\nscheduler:\n" + scheduler.tailText())
              .isTrue();
        }
      }
    }
  }

  // ===================================================================== split pools

  private static final String DATASET = "kill9-ds";

  @ParameterizedTest
  @EnumSource(DeliveryMode.class)
  void killNineMidWorkloadOfASplitPoolCreditsEveryEventOnce(DeliveryMode mode,
      @TempDir Path dir) throws Exception {
    String pool = "kill9-split-" + mode.name().toLowerCase(java.util.Locale.ROOT)
        .replace('_', '-');
    Path state = dir.resolve("state");
    List<JobSubmitted> jobs = splitJobs(pool, 60, 23);
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), Map.of())) {
      String bootstrap = kafka.bootstrapServers();
      TopicAdmin.ensureTopics(bootstrap, Topics.ALL);
      // c_miss = 1 + 4 = 5 ms, c_hit = 1.5 ms per event at time scale 1 (the agents' too)
      List<String> run = Cluster.runArgs(bootstrap, state, mode, 1, 0,
          "--pool-policy", pool + "=OUT_OF_ORDER",
          "--split-param", "tCpu=0.001", "--split-param", "tDisk=0.0005",
          "--split-param", "tTape=0.004", "--split-param", "cacheEvents=3000",
          "--split-param", "min=20", "--split-param", "dataset=" + DATASET,
          "--split-param", "timeScale=1");
      List<String> nodes = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        nodes.add(pool + "-n" + i);
      }
      try (ChildJvm scheduler = Cluster.scheduler(run);
          ChildJvm agents = splitAgents(bootstrap, pool, nodes, dir.resolve("agents"));
          SplitRecords records = new SplitRecords(bootstrap, mode == DeliveryMode.EXACTLY_ONCE)) {
        assertThat(scheduler.awaitLine("locus run: starting from", Duration.ofSeconds(90)))
            .contains("empty state");
        scheduler.awaitLine("running", Duration.ofSeconds(90));
        agents.awaitLine("registered", Duration.ofSeconds(90));
        try (SplitFeed feed = new SplitFeed(bootstrap, jobs, 4)) {
          Await.atMost(Duration.ofSeconds(120)).pollEvery(Duration.ofMillis(100)).until(
              () -> "15 jobs done and a retained checkpoint; scheduler:\n"
                  + scheduler.tailText(), () -> {
                records.catchUp(Duration.ofSeconds(2));
                return records.verdict(pool, jobs).completedJobs() >= 15
                    && !RestorePoint.latest(state.resolve("checkpoints"), null).isFresh();
              });
          scheduler.kill();
          int publishedAtKill = feed.published();
          scheduler.restart();
          assertThat(scheduler.awaitLine("locus run: starting from", Duration.ofSeconds(90)))
              .contains("latest retained checkpoint");
          SplitVerdict v = records.awaitCompletion(pool, jobs, Duration.ofSeconds(150));
          System.out.println("split pool, scheduler kill -9 (" + mode + ", killed at "
              + publishedAtKill + " of " + jobs.size() + " jobs published): " + v.summary());
          assertThat(v.keeps(mode)).as(v.summary() + "\n" + records.story(pool, v)
              + "\nscheduler:\n" + scheduler.tailText()).isTrue();
        }
      }
    }
  }

  /** Event-range jobs of 150-600 events over a 6,000-event dataset, most in a hot region. */
  private static List<JobSubmitted> splitJobs(String pool, int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<JobSubmitted> jobs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long len = 150 + rnd.nextInt(450);
      long start = rnd.nextInt(10) < 6 ? 1_000 + rnd.nextInt(1_500) : rnd.nextInt(5_400);
      jobs.add(JobSubmitted.newBuilder().setJobId(String.format("%s-%03d", pool, i))
          .setPool(pool).setSubmitTimeMs(0).setInputs(new ArrayList<>()).setSplittable(true)
          .setEvents(new EventRange(DATASET, start, start + len)).build());
    }
    return jobs;
  }

  /** Simulated one-slot agents (a split pool's nodes have one slot), time scale 1. */
  private static ChildJvm splitAgents(String bootstrap, String pool, List<String> nodes,
      Path stateDir) {
    List<String> a = new ArrayList<>(List.of("sim",
        "--state-dir", stateDir.toString(),
        "--bootstrap-servers", bootstrap,
        "--pool", pool,
        "--slots", "1",
        "--time-scale", "1",
        "--heartbeat-ms", "500",
        "--isolation", "read_committed",
        "--from", "latest",
        "--no-create-topics",
        "--stats-interval", "PT0S"));
    for (String n : nodes) {
      a.add("--node");
      a.add(n);
    }
    return ChildJvm.start("agents-" + pool, 256, "io.locus.agent.AgentCli", a);
  }

  /** Publishes the jobs to job-arrivals at a steady rate from a background thread. */
  private static final class SplitFeed implements AutoCloseable {
    private final java.util.concurrent.atomic.AtomicInteger published =
        new java.util.concurrent.atomic.AtomicInteger();
    private final Thread thread;
    private volatile boolean stop;

    SplitFeed(String bootstrap, List<JobSubmitted> jobs, double perSecond) {
      thread = new Thread(() -> {
        try (KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(bootstrap))) {
          long start = System.nanoTime();
          for (int i = 0; i < jobs.size() && !stop; i++) {
            long due = start + (long) (i / perSecond * 1e9);
            while (System.nanoTime() < due && !stop) {
              LockSupport.parkNanos(Math.min(due - System.nanoTime(), 20_000_000L)); // pacing
            }
            JobSubmitted j = jobs.get(i);
            j.setSubmitTimeMs(System.currentTimeMillis());
            producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
                Topics.JOB_ARRIVALS.key(j.getPool()), Topics.JOB_ARRIVALS.value(j)));
            published.incrementAndGet();
          }
          producer.flush();
        }
      }, "split-feed");
      thread.setDaemon(true);
      thread.start();
    }

    int published() {
      return published.get();
    }

    @Override
    public void close() throws InterruptedException {
      stop = true;
      thread.join(30_000);
    }
  }

  /**
   * What the topics say about a split pool's jobs. A <em>report</em> is a distinct task event that
   * ends an attempt with a processed range (COMPLETED, FAILED or SUSPENDED with {@code events},
   * or a SHRUNK answering a suspend: [the placement's start, stopAt); the same event written
   * twice is one report). It is <em>accepted</em> when one of its records
   * has no dead letter: the scheduler credited its range; <em>kept</em> when its only dead letters
   * are {@code early-completion}: the scheduler credits it when the subjob is placed, or drops it
   * and the subjob runs again. Per job: {@code lost} events are covered by no accepted or kept
   * report; {@code creditedTwice} by two accepted reports (an effective duplicate);
   * {@code executedTwice} by two attempts (measured: at-least-once may run work twice; the
   * reports of one attempt on one node are one execution).
   */
  record SplitVerdict(String pool, int jobs, int completedJobs, Map<String, String> lost,
      Map<String, String> creditedTwice, Map<String, String> executedTwice, Set<String> neverPlaced,
      Set<String> neverStarted, int accepted, int kept, int refused, int cancels,
      SchedulerMetrics metrics) {

    boolean idle() {
      return metrics != null && metrics.getQueueLength() == 0 && metrics.getRunningTasks() == 0;
    }

    boolean effectivelyOnce() {
      return lost.isEmpty() && creditedTwice.isEmpty() && neverPlaced.isEmpty()
          && neverStarted.isEmpty() && idle();
    }

    boolean keeps(DeliveryMode mode) {
      return mode == DeliveryMode.EXACTLY_ONCE ? effectivelyOnce() && executedTwice.isEmpty()
          : effectivelyOnce();
    }

    String summary() {
      return String.format("%s: %d/%d jobs with every event credited once; lost %d %s; credited "
              + "twice %d %s; executed twice %d %s; never placed %d; never started %d; reports "
              + "accepted %d, kept %d, refused %d; cancels %d; scheduler idle %s (%s)", pool,
          completedJobs, jobs, lost.size(), first(lost), creditedTwice.size(), first(creditedTwice),
          executedTwice.size(), first(executedTwice), neverPlaced.size(), neverStarted.size(),
          accepted, kept, refused, cancels, idle(), metrics == null ? "no metrics"
              : "queue " + metrics.getQueueLength() + ", running " + metrics.getRunningTasks()
              + ", completions " + metrics.getCompletions());
    }

    private static String first(Map<String, String> m) {
      return m.entrySet().stream().limit(10).map(String::valueOf).toList().toString();
    }
  }

  /** A task event and where it was read (dead letters name their source by partition, offset). */
  private record Seen(TaskEvent event, int partition, long offset) {}

  /** Reads decisions, task events, dead letters and metrics from the beginning. */
  private static final class SplitRecords implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final List<Decision> decisions = new ArrayList<>();
    private final List<Seen> events = new ArrayList<>();
    private final Map<String, List<String>> deadCodes = new HashMap<>();
    private final List<String> deadReasons = new ArrayList<>();
    private final Map<String, SchedulerMetrics> metrics = new HashMap<>();

    SplitRecords(String bootstrap, boolean readCommitted) {
      consumer = new KafkaConsumer<>(ClientConfigs.consumer(bootstrap,
          "split-checker-" + System.nanoTime(), readCommitted));
      for (var topic : List.of(Topics.DECISIONS, Topics.TASK_EVENTS, Topics.DEAD_LETTERS,
          Topics.SCHEDULER_METRICS)) {
        for (int p = 0; p < topic.partitions(); p++) {
          partitions.add(new TopicPartition(topic.name(), p));
        }
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
    }

    void catchUp(Duration timeout) {
      long deadline = System.nanoTime() + timeout.toNanos();
      Map<TopicPartition, Long> end;
      try {
        end = consumer.endOffsets(partitions, timeout);
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        return;
      }
      while (System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          if (r.topic().equals(Topics.DECISIONS.name())) {
            decisions.add(Topics.DECISIONS.decode(r.value()));
          } else if (r.topic().equals(Topics.TASK_EVENTS.name())) {
            events.add(new Seen(Topics.TASK_EVENTS.decode(r.value()),
                r.partition(), r.offset()));
          } else if (r.topic().equals(Topics.DEAD_LETTERS.name())) {
            DeadLetter d = Topics.DEAD_LETTERS.decode(r.value());
            deadReasons.add(d.getCode() + ": " + d.getReason());
            if (Topics.TASK_EVENTS.name().equals(d.getSourceTopic())) {
              deadCodes.computeIfAbsent(d.getPartition() + "@" + d.getOffset(),
                  k -> new ArrayList<>()).add(d.getCode());
            }
          } else {
            SchedulerMetrics m = Topics.SCHEDULER_METRICS.decode(r.value());
            metrics.put(m.getPool(), m);
          }
        }
        boolean done = true;
        for (TopicPartition tp : partitions) {
          if (consumer.position(tp) < end.get(tp)) {
            done = false;
            break;
          }
        }
        if (done) {
          return;
        }
      }
    }

    /** Until no event is lost and the scheduler is idle (or the deadline); then reads once more. */
    SplitVerdict awaitCompletion(String pool, List<JobSubmitted> jobs, Duration timeout) {
      long deadline = System.nanoTime() + timeout.toNanos();
      SplitVerdict v;
      do {
        catchUp(Duration.ofSeconds(5));
        v = verdict(pool, jobs);
        if (v.lost().isEmpty() && v.idle()) {
          break;
        }
        LockSupport.parkNanos(200_000_000L); // waiting for more records (deadline-bounded)
      } while (System.nanoTime() < deadline);
      catchUp(Duration.ofSeconds(5));
      return verdict(pool, jobs);
    }

    SplitVerdict verdict(String pool, List<JobSubmitted> jobs) {
      Set<String> placed = new TreeSet<>();
      Set<String> seenDecisions = new HashSet<>();
      int cancels = 0;
      for (Decision d : decisions) {
        if (!pool.equals(d.getPool()) || !seenDecisions.add(d.getDecisionId())) {
          continue;
        }
        if (d.getAction() instanceof PlaceTask p) {
          placed.add(p.getJobId());
        } else if (d.getAction() instanceof io.locus.schemas.CancelTask) {
          cancels++;
        }
      }
      // task#attempt -> where its latest placement starts (a SHRUNK answering a suspend credits
      // [that start, stopAt): the agent had stopped the attempt already)
      Map<String, Long> placedStart = new HashMap<>();
      for (Decision d : decisions) {
        if (pool.equals(d.getPool()) && d.getAction() instanceof PlaceTask p
            && p.getEvents() != null) {
          placedStart.put(p.getTaskId() + "#" + p.getAttempt(), p.getEvents().getStart());
        }
      }
      Set<String> started = new TreeSet<>();
      // job -> report key -> [start, end, accepted?, kept?]
      Map<String, Map<String, long[]>> reports = new TreeMap<>();
      for (Seen s : events) {
        TaskEvent e = s.event();
        if (!pool.equals(e.getPool())) {
          continue;
        }
        if (e.getType() == TaskEventType.STARTED) {
          started.add(e.getJobId());
          continue;
        }
        boolean endsRange = e.getType() == TaskEventType.COMPLETED
            || e.getType() == TaskEventType.FAILED || e.getType() == TaskEventType.SUSPENDED;
        long from;
        long to;
        if (endsRange && e.getEvents() != null) {
          from = e.getEvents().getStart();
          to = e.getEvents().getEnd();
        } else if (e.getType() == TaskEventType.SHRUNK && e.getStopAt() != null
            && e.getDecisionId() != null && e.getDecisionId().startsWith(pool + "/suspend/")
            && placedStart.containsKey(e.getTaskId() + "#" + e.getAttempt())) {
          from = placedStart.get(e.getTaskId() + "#" + e.getAttempt());
          to = e.getStopAt();
        } else {
          continue;
        }
        if (to <= from) {
          continue;
        }
        // the attempt first: its reports (a SHRUNK answering a suspend, then its COMPLETED) are
        // one execution
        String key = e.getTaskId() + "#" + e.getAttempt() + " on " + e.getNode() + " "
            + e.getType() + " [" + from + "," + to + ")";
        long[] r = reports.computeIfAbsent(e.getJobId(), k -> new LinkedHashMap<>())
            .computeIfAbsent(key, k -> new long[] {from, to, 0, 0});
        List<String> codes = deadCodes.get(s.partition() + "@" + s.offset());
        if (codes == null) {
          r[2] = 1;
        } else if (codes.stream().allMatch(DeadLetterCodes.EARLY_COMPLETION::equals)) {
          r[3] = 1;
        }
      }
      Map<String, String> lost = new TreeMap<>();
      Map<String, String> twice = new TreeMap<>();
      Map<String, String> executedTwice = new TreeMap<>();
      Set<String> neverPlaced = new TreeSet<>();
      Set<String> neverStarted = new TreeSet<>();
      int completed = 0;
      int accepted = 0;
      int kept = 0;
      int refused = 0;
      for (JobSubmitted j : jobs) {
        String id = j.getJobId();
        long a = j.getEvents().getStart();
        long b = j.getEvents().getEnd();
        int[] credited = new int[(int) (b - a)];
        int[] covered = new int[(int) (b - a)];
        int[] ran = new int[(int) (b - a)];
        Map<String, boolean[]> byAttempt = new HashMap<>();
        for (Map.Entry<String, long[]> e : reports.getOrDefault(id, Map.of()).entrySet()) {
          long[] r = e.getValue();
          boolean[] runs = byAttempt.computeIfAbsent(
              e.getKey().substring(0, e.getKey().lastIndexOf(" [")).replaceAll(" [A-Z]+$", ""),
              k -> new boolean[(int) (b - a)]);
          boolean ok = r[2] == 1;
          boolean keptOnly = !ok && r[3] == 1;
          accepted += ok ? 1 : 0;
          kept += keptOnly ? 1 : 0;
          refused += !ok && !keptOnly ? 1 : 0;
          for (long x = Math.max(a, r[0]); x < Math.min(b, r[1]); x++) {
            int i = (int) (x - a);
            runs[i] = true;
            credited[i] += ok ? 1 : 0;
            covered[i] += ok || keptOnly ? 1 : 0;
          }
        }
        for (boolean[] runs : byAttempt.values()) {
          for (int i = 0; i < runs.length; i++) {
            ran[i] += runs[i] ? 1 : 0;
          }
        }
        String gap = first(covered, a, c -> c == 0);
        String dup = first(credited, a, c -> c > 1);
        String again = first(ran, a, c -> c > 1);
        if (gap != null) {
          lost.put(id, gap);
        } else if (dup == null) {
          completed++;
        }
        if (dup != null) {
          twice.put(id, dup);
        }
        if (again != null) {
          executedTwice.put(id, again);
        }
        if (!placed.contains(id)) {
          neverPlaced.add(id);
        }
        if (!started.contains(id)) {
          neverStarted.add(id);
        }
      }
      return new SplitVerdict(pool, jobs.size(), completed, lost, twice, executedTwice,
          neverPlaced, neverStarted, accepted, kept, refused, cancels, metrics.get(pool));
    }

    /**
     * What the topics say about the jobs a verdict names (lost, credited twice), in order: their
     * decisions, task events (with their dead-letter codes) and the dead letters' reasons.
     */
    String story(String pool, SplitVerdict v) {
      Set<String> jobs = new TreeSet<>(v.lost().keySet());
      jobs.addAll(v.creditedTwice().keySet());
      if (v.creditedTwice().isEmpty() && v.lost().isEmpty()) {
        jobs.addAll(v.executedTwice().keySet());
      }
      StringBuilder b = new StringBuilder();
      for (String job : jobs) {
        b.append("job ").append(job).append(":\n");
        for (Decision d : decisions) {
          String text = String.valueOf(d.getAction());
          if (pool.equals(d.getPool()) && text.contains(job + "/")) {
            b.append("  decision ").append(d.getDecisionId()).append(" epoch ")
                .append(d.getEpoch()).append(" to ").append(d.getNode()).append(": ")
                .append(d.getAction().getClass().getSimpleName()).append(' ')
                .append(d.getAction() instanceof PlaceTask p ? String.valueOf(p.getEvents())
                    : text).append('\n');
          }
        }
        for (Seen s : events) {
          TaskEvent e = s.event();
          if (pool.equals(e.getPool()) && job.equals(e.getJobId())) {
            b.append("  event ").append(e.getType()).append(' ').append(e.getTaskId())
                .append('#').append(e.getAttempt()).append(" on ").append(e.getNode())
                .append(" (").append(e.getDecisionId()).append(", epoch ").append(e.getEpoch())
                .append(") ").append(e.getEvents() == null ? "" : "[" + e.getEvents().getStart()
                    + "," + e.getEvents().getEnd() + ")").append(e.getStopAt() == null ? ""
                    : " stopAt " + e.getStopAt()).append(" dead: ")
                .append(deadCodes.get(s.partition() + "@" + s.offset())).append('\n');
          }
        }
        for (String r : deadReasons) {
          if (r.contains(job + "/")) {
            b.append("  dead letter: ").append(r).append('\n');
          }
        }
      }
      return b.toString();
    }

    /** The first event (and how many) whose count matches, or null. */
    private static String first(int[] counts, long base, java.util.function.IntPredicate p) {
      int n = 0;
      int at = -1;
      for (int i = 0; i < counts.length; i++) {
        if (p.test(counts[i])) {
          n++;
          at = at < 0 ? i : at;
        }
      }
      return n == 0 ? null : n + " event(s) from " + (base + at);
    }

    @Override
    public void close() {
      consumer.close(Duration.ofSeconds(5));
    }
  }
}
