package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.NodeAgent;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.connectors.DeliveryMode;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.demo.EventRangeLedger;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 5, end to end: a pool of splittable event-range jobs on OUT_OF_ORDER through a real KRaft
 * broker, the scheduler job on a MiniCluster with RocksDB, and simulated one-slot agents that run
 * each event at its planned cost and honour ShrinkTask / SuspendTask at event boundaries. Jobs
 * arrive in three waves over overlapping ranges, so cached pieces queue on (or preempt) their
 * owners and idle nodes steal tails of running subjobs. Every event of every job must be processed
 * exactly once, across subjobs, shrinks and suspensions.
 */
@Tag("integration")
@Timeout(240)
class SplitPoolSystemTest {
  private static final String POOL = "e2e-cern";
  private static final String DATASET = "lhcb-2012";
  private static final int NODES = 4;
  private static final int WAVES = 3;
  private static final int JOBS_PER_WAVE = 8;

  /** Everything the test reads back from the topics, for its pool. */
  private static final class Recorder implements AutoCloseable {
    final List<TaskEvent> events = new ArrayList<>();
    final List<Decision> decisions = new ArrayList<>();
    final List<DeadLetter> rejected = new ArrayList<>();
    volatile SchedulerMetrics metrics;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;
    private volatile RuntimeException failure;

    Recorder(String bootstrap) {
      var props = ClientConfigs.consumer(bootstrap, null, false);
      thread = new Thread(() -> run(props), "split-recorder");
      thread.setDaemon(true);
      thread.start();
    }

    private void run(java.util.Properties props) {
      try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props)) {
        List<TopicPartition> parts = new ArrayList<>();
        for (var t : List.of(Topics.TASK_EVENTS, Topics.DECISIONS, Topics.SCHEDULER_METRICS,
            Topics.DEAD_LETTERS)) {
          for (int p = 0; p < t.partitions(); p++) {
            parts.add(new TopicPartition(t.name(), p));
          }
        }
        c.assign(parts);
        c.seekToBeginning(parts);
        while (!stop.get()) {
          for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(50))) {
            take(r);
          }
        }
      } catch (org.apache.kafka.common.errors.InterruptException e) {
        // closing
      } catch (RuntimeException e) {
        failure = e;
      }
    }

    private synchronized void take(ConsumerRecord<byte[], byte[]> r) {
      String topic = r.topic();
      if (topic.equals(Topics.TASK_EVENTS.name())) {
        TaskEvent e = Topics.TASK_EVENTS.decode(r.value());
        if (e.getPool().equals(POOL)) {
          events.add(e);
        }
      } else if (topic.equals(Topics.DECISIONS.name())) {
        Decision d = Topics.DECISIONS.decode(r.value());
        if (d.getPool().equals(POOL)) {
          decisions.add(d);
        }
      } else if (topic.equals(Topics.SCHEDULER_METRICS.name())) {
        SchedulerMetrics m = Topics.SCHEDULER_METRICS.decode(r.value());
        if (m.getPool().equals(POOL)) {
          metrics = m;
        }
      } else {
        DeadLetter d = Topics.DEAD_LETTERS.decode(r.value());
        if (d.getKey() != null && POOL.equals(StandardCharsets.UTF_8.decode(d.getKey()
            .duplicate()).toString())) {
          rejected.add(d);
        }
      }
    }

    synchronized List<TaskEvent> events() {
      check();
      return new ArrayList<>(events);
    }

    synchronized List<Decision> decisions() {
      check();
      return new ArrayList<>(decisions);
    }

    synchronized List<DeadLetter> rejected() {
      return new ArrayList<>(rejected);
    }

    private void check() {
      if (failure != null) {
        throw failure;
      }
    }

    @Override
    public void close() throws InterruptedException {
      stop.set(true);
      thread.join(10_000);
    }
  }

  /** Processed ranges per job, from COMPLETED, SUSPENDED and FAILED events (the demo's ledger). */
  private static EventRangeLedger ledger(List<TaskEvent> events) {
    EventRangeLedger l = new EventRangeLedger();
    events.forEach(l::taskEvent);
    return l;
  }

  private static long length(List<JobSubmitted> jobs) {
    long n = 0;
    for (JobSubmitted j : jobs) {
      n += j.getEvents().getEnd() - j.getEvents().getStart();
    }
    return n;
  }

  private static void await(String what, Duration timeout, EmbeddedLocus locus,
      BooleanSupplier condition) throws InterruptedException {
    Await.atMost(timeout).until(what, () -> {
      if (condition.getAsBoolean()) {
        return true;
      }
      locus.checkJobAlive(); // fails at once if the job died
      return false;
    });
  }

  /** Overlapping jobs: most start in a hot region, so later waves find earlier waves' data. */
  private static List<List<JobSubmitted>> waves(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<List<JobSubmitted>> waves = new ArrayList<>();
    int n = 0;
    for (int w = 0; w < WAVES; w++) {
      List<JobSubmitted> wave = new ArrayList<>();
      for (int j = 0; j < JOBS_PER_WAVE; j++) {
        long len = 200 + rnd.nextInt(700);
        long start = rnd.nextInt(10) < 7 ? 1_000 + rnd.nextInt(2_000) : rnd.nextInt(7_000);
        wave.add(JobSubmitted.newBuilder().setJobId("cern-" + (n++)).setPool(POOL)
            .setSubmitTimeMs(0).setInputs(List.of()).setSplittable(true)
            .setEvents(new EventRange(DATASET, start, start + len)).build());
      }
      waves.add(wave);
    }
    return waves;
  }

  @Test
  void splittableJobsOnOutOfOrderRunEveryEventExactlyOnceThroughShrinksAndSuspends()
      throws Exception {
    // c_miss = 1 + 4 = 5 ms, c_hit = 1 + 0.5 = 1.5 ms per event, agents at time scale 1
    Map<String, String> params = Map.of("tCpu", "0.001", "tDisk", "0.0005", "tTape", "0.004",
        "cacheEvents", "4000", "min", "20", "dataset", DATASET);
    SchedulerConfig cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec("MCH", Map.of()),
        Map.of(POOL, new SchedulerConfig.PolicySpec("out-of-order", params)), 250, 3);
    List<List<JobSubmitted>> waves = waves(42);
    List<JobSubmitted> all = new ArrayList<>();
    waves.forEach(all::addAll);
    long began = System.nanoTime();
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(2));
        Recorder rec = new Recorder(locus.bootstrapServers());
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers());
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()));
        AgentHost<NodeAgent> agents = AgentHost.start(
            HostConfig.builder(locus.bootstrapServers())
                .nodeIds(HostConfig.nodeIds(POOL + "-node-", NODES))
                .readCommitted(false)
                .startFrom(HostConfig.StartFrom.EARLIEST)
                .ensureTopics(false)
                .build(),
            new SimulatedAgents(
                AgentConfig.builder(POOL).slots(1).timeScale(1.0).heartbeatMs(100).build()))) {
      assertThat(agents.awaitRegistered(Duration.ofSeconds(30))).isTrue();
      await("the scheduler to register every node", Duration.ofSeconds(60), locus,
          () -> rec.metrics != null && rec.metrics.getRegisteredNodes() == NODES);
      long started = System.nanoTime();
      List<JobSubmitted> sent = new ArrayList<>();
      for (List<JobSubmitted> wave : waves) {
        for (JobSubmitted j : wave) {
          j.setSubmitTimeMs(System.currentTimeMillis());
          producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
              Topics.JOB_ARRIVALS.key(POOL), Topics.JOB_ARRIVALS.value(j)));
        }
        producer.flush();
        sent.addAll(wave);
        // The next wave comes while this one runs: 60% of what was sent is processed.
        long target = length(sent) * 6 / 10;
        await("60% of the events sent so far", Duration.ofSeconds(90), locus,
            () -> ledger(rec.events()).processedEvents(sent) >= target);
      }
      await("every event of every job", Duration.ofSeconds(120), locus,
          () -> ledger(rec.events()).processedEvents(all) >= length(all));
      double seconds = (System.nanoTime() - started) / 1e9;
      await("the scheduler to see the pool idle", Duration.ofSeconds(30), locus,
          () -> rec.metrics.getRunningTasks() == 0 && rec.metrics.getQueueLength() == 0
              && rec.metrics.getCompletions() > 0);

      List<TaskEvent> events = rec.events();
      List<Decision> decisions = rec.decisions();

      // 1. Exactly once: each job's processed ranges tile its range, no gap, no overlap.
      EventRangeLedger ledger = ledger(events);
      EventRangeLedger.Check check = ledger.check(all);
      assertThat(check.problems()).isEmpty();
      assertThat(check.exactlyOnce()).isTrue();
      assertThat(check.processedEvents()).isEqualTo(length(all));
      // ... and the agents' own records say the same.
      Map<String, List<String>> byAgents = new TreeMap<>();
      for (NodeAgent a : agents.agents()) {
        for (NodeAgent.ProcessedRange r : a.processedRanges()) {
          byAgents.computeIfAbsent(r.jobId(), k -> new ArrayList<>())
              .add(r.dataset() + "[" + r.start() + "," + r.end() + ")");
        }
      }
      Map<String, List<String>> byEvents = new TreeMap<>();
      ledger.processed().forEach((job, rs) -> rs.forEach(r -> byEvents.computeIfAbsent(job,
          k -> new ArrayList<>()).add(DATASET + "[" + r.start() + "," + r.end() + ")")));
      byAgents.values().forEach(l -> l.sort(null));
      byEvents.values().forEach(l -> l.sort(null));
      assertThat(byAgents).isEqualTo(byEvents);

      // 2. No refusals, no failures, nothing rejected; one subjob at a time per node.
      assertThat(events).filteredOn(e -> e.getType() == TaskEventType.REFUSED).isEmpty();
      assertThat(events).filteredOn(e -> e.getType() == TaskEventType.FAILED).isEmpty();
      assertThat(rec.rejected()).extracting(DeadLetter::getReason).isEmpty();
      Map<String, Integer> runningOn = new HashMap<>();
      int maxOnANode = 0;
      for (TaskEvent e : events) {
        switch (e.getType()) {
          case STARTED -> maxOnANode = Math.max(maxOnANode,
              runningOn.merge(e.getNode(), 1, Integer::sum));
          case COMPLETED, SUSPENDED, FAILED -> runningOn.merge(e.getNode(), -1, Integer::sum);
          default -> { }
        }
      }
      assertThat(maxOnANode).isEqualTo(1);
      assertThat(runningOn.values()).allMatch(n -> n == 0);

      // 3. Shrinks happened, each was acknowledged, and each stolen tail was placed only after
      //    the acknowledgement, starting at the acknowledged end.
      Map<String, PlaceTask> placed = new LinkedHashMap<>();
      Map<String, Decision> placedBy = new HashMap<>();
      List<Decision> shrinks = new ArrayList<>();
      int suspends = 0;
      for (Decision d : decisions) {
        if (d.getAction() instanceof PlaceTask p) {
          placed.put(p.getTaskId() + "#" + p.getAttempt(), p);
          placedBy.put(p.getTaskId() + "#" + p.getAttempt(), d);
        } else if (d.getAction() instanceof ShrinkTask) {
          shrinks.add(d);
        } else if (d.getAction() instanceof SuspendTask) {
          suspends++;
        }
      }
      assertThat(shrinks).as("idle nodes stole tails of running subjobs").isNotEmpty();
      Map<String, TaskEvent> acks = new HashMap<>();
      for (TaskEvent e : events) {
        if (e.getType() == TaskEventType.SHRUNK || e.getType() == TaskEventType.SUSPENDED) {
          acks.put(e.getDecisionId(), e);
        }
      }
      int tails = 0;
      for (Decision d : shrinks) {
        ShrinkTask s = (ShrinkTask) d.getAction();
        TaskEvent ack = acks.get(d.getDecisionId());
        assertThat(ack).as("acknowledgement of %s", d.getDecisionId()).isNotNull();
        assertThat(ack.getType()).isEqualTo(TaskEventType.SHRUNK);
        PlaceTask head = placed.get(s.getTaskId() + "#" + s.getAttempt());
        assertThat(ack.getStopAt()).isBetween(Math.min(s.getNewEnd(), head.getEvents().getEnd()),
            head.getEvents().getEnd());
        if (ack.getStopAt() < head.getEvents().getEnd()) {
          tails++;
          List<Decision> tail = new ArrayList<>();
          placedBy.forEach((k, pd) -> {
            PlaceTask p = (PlaceTask) pd.getAction();
            if (p.getJobId().equals(s.getJobId())
                && p.getEvents().getStart() == ack.getStopAt().longValue()) {
              tail.add(pd);
            }
          });
          assertThat(tail).as("the tail of %s starts at the acknowledged %d", s.getTaskId(),
              ack.getStopAt()).isNotEmpty();
          tail.sort(java.util.Comparator.comparingLong(Decision::getTimeMs));
          assertThat(tail.get(0).getTimeMs()).as("placed after the acknowledgement")
              .isGreaterThanOrEqualTo(ack.getTimeMs());
          // Another placement from the same event can only be the tail again, after it ended
          // with nothing processed: suspended before its first event (OUT_OF_ORDER preempts an
          // uncached piece for a cached one), refused or failed. A CI run saw [2860,2962) of
          // cern-7 placed as cern-7/3 and again as cern-7/5 0.6 s later; the test wanted exactly
          // one placement then.
          for (int i = 1; i < tail.size(); i++) {
            PlaceTask prev = (PlaceTask) tail.get(i - 1).getAction();
            long start = ack.getStopAt();
            assertThat(events).as("%s placed again from %d: %s ended there with nothing "
                + "processed", ((PlaceTask) tail.get(i).getAction()).getTaskId(), start,
                prev.getTaskId()).anySatisfy(e -> {
                  assertThat(e.getTaskId()).isEqualTo(prev.getTaskId());
                  assertThat(e.getAttempt()).isEqualTo(prev.getAttempt());
                  assertThat(e.getType() == TaskEventType.REFUSED
                      || (e.getType() == TaskEventType.FAILED && (e.getEvents() == null
                          || e.getEvents().getEnd() == start))
                      || (e.getType() == TaskEventType.SUSPENDED
                          && e.getStopAt() != null && e.getStopAt() == start)).isTrue();
                });
          }
        }
      }
      assertThat(tails).isPositive();
      long shrunk = events.stream().filter(e -> e.getType() == TaskEventType.SHRUNK).count();
      long suspended = events.stream().filter(e -> e.getType() == TaskEventType.SUSPENDED).count();
      System.out.printf(java.util.Locale.ROOT, "split pool %s: %d jobs, %d events in %.1f s "
              + "(%.1f s with start-up); %d placements, %d shrinks (%d SHRUNK, %d tails placed), "
              + "%d suspends (%d SUSPENDED); local/storage bytes %d/%d%n", POOL, all.size(),
          length(all), seconds, (System.nanoTime() - began) / 1e9, placed.size(), shrinks.size(),
          shrunk, tails, suspends, suspended, rec.metrics.getBytesLocal(),
          rec.metrics.getBytesStorage());
      // The demo's tracker reads the same task events: suspended attempts free their node.
      long completed = events.stream().filter(e -> e.getType() == TaskEventType.COMPLETED).count();
      await("the tracker to read every task event", Duration.ofSeconds(30), locus,
          () -> tracker.stats(POOL).completed == completed
              && tracker.stats(POOL).suspended == suspended);
      TaskEventTracker.Stats ts = tracker.stats(POOL);
      assertThat(ts.maxConcurrentOnANode).isEqualTo(1);
      assertThat(ts.shrunk).isEqualTo(shrunk);
      assertThat(ts.duplicateCompletions).isZero();
      assertThat(rec.metrics.getPolicy()).isEqualTo("OUT_OF_ORDER");
      assertThat(rec.metrics.getBytesLocal()).as("later waves read earlier waves' cached data")
          .isPositive();
    }
  }
}
