package io.locus.e2e.chaos;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.Decision;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The delivery checker (in the spirit of Kafka's transactions test and Flink's semantics checks):
 * reads {@code decisions} and {@code task-events} from the beginning ({@code read_committed} for
 * exactly-once pools) and verifies, per task of a pool, that it was placed, started and completed
 * exactly once.
 *
 * <p>One <em>effective completion</em> is a distinct (node, attempt, decision id) of a COMPLETED
 * event: the same event written twice (a producer retry, an agent answering a duplicate decision)
 * counts once; a task completed on two nodes, or by two attempts, is duplicated. A task with no
 * completion is lost. Pure ({@link #verdict}) so that its rules are tested without Kafka; the
 * reading part ({@link #catchUp}) only collects records.
 */
public final class DeliveryChecker implements AutoCloseable {

  /** What the topics say about one pool's expected tasks. */
  public record Verdict(String pool, int expected, int completed, Set<String> lost,
      Map<String, List<String>> duplicated, Set<String> neverPlaced, Set<String> neverStarted,
      Set<String> unexpected, int placements) {

    public boolean exactlyOnce() {
      return lost.isEmpty() && duplicated.isEmpty() && neverPlaced.isEmpty() && neverStarted.isEmpty();
    }

    /** Lost and duplicated task ids (the first 20 of each), for an assertion message. */
    public String summary() {
      return String.format("%s: %d/%d completed exactly once; lost %d %s; duplicated %d %s;"
              + " never placed %d; never started %d; unexpected %d; placements %d",
          pool, completed, expected, lost.size(), first(lost), duplicated.size(),
          first(duplicated.entrySet()), neverPlaced.size(), neverStarted.size(),
          unexpected.size(), placements);
    }

    private static String first(Collection<?> c) {
      return c.stream().limit(20).map(String::valueOf).toList().toString();
    }
  }

  private final List<Decision> decisions = new ArrayList<>();
  private final List<TaskEvent> events = new ArrayList<>();
  private final Map<String, SchedulerMetrics> metrics = new HashMap<>();
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final List<TopicPartition> partitions = new ArrayList<>();

  /** A checker that reads the topics of {@code bootstrap} from the beginning. */
  public DeliveryChecker(String bootstrap, boolean readCommitted) {
    var props = ClientConfigs.consumer(bootstrap, "checker-" + System.nanoTime(), readCommitted);
    consumer = new KafkaConsumer<>(props);
    for (var topic : List.of(Topics.DECISIONS, Topics.TASK_EVENTS, Topics.SCHEDULER_METRICS)) {
      for (int p = 0; p < topic.partitions(); p++) {
        partitions.add(new TopicPartition(topic.name(), p));
      }
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
  }

  /**
   * Reads everything written so far (up to the last stable offset with read_committed). Survives
   * a broker restart: the consumer reconnects; a read cut short is retried by the next call.
   */
  public void catchUp(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<TopicPartition, Long> end;
    try {
      end = consumer.endOffsets(partitions, timeout);
    } catch (org.apache.kafka.common.errors.TimeoutException e) {
      return; // broker away: the caller waits on a deadline and calls again
    }
    while (System.nanoTime() < deadline) {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        add(r);
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

  private void add(ConsumerRecord<byte[], byte[]> r) {
    // An undecodable record here is a finding of its own (the fuzzing test's business): skip it.
    try {
      if (r.topic().equals(Topics.DECISIONS.name())) {
        decisions.add(Topics.DECISIONS.decode(r.value()));
      } else if (r.topic().equals(Topics.TASK_EVENTS.name())) {
        events.add(Topics.TASK_EVENTS.decode(r.value()));
      } else {
        SchedulerMetrics m = Topics.SCHEDULER_METRICS.decode(r.value());
        metrics.put(m.getPool(), m);
      }
    } catch (RuntimeException e) {
      // not ours to judge
    }
  }

  /** The verdict on what has been read so far. */
  public Verdict verdict(String pool, Collection<String> expectedTasks) {
    return verdict(pool, expectedTasks, decisions, events);
  }

  /** The latest metrics the pool published, or null. */
  public SchedulerMetrics metrics(String pool) {
    return metrics.get(pool);
  }

  /**
   * Waits until every expected task has a completion, catching up all the time; returns the
   * verdict at that point or at the deadline (with what is lost). Then, so that a late duplicate
   * is seen too, waits until the pool's metrics (published after the last completion) show an
   * empty queue and nothing running, and reads once more.
   */
  public Verdict awaitCompletion(String pool, Collection<String> expected, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Verdict v;
    do {
      catchUp(Duration.ofSeconds(5));
      v = verdict(pool, expected);
      if (v.completed() + v.lost().size() == v.expected() && v.lost().isEmpty()) {
        break;
      }
      LockSupport.parkNanos(200_000_000L); // waiting for more records (deadline-bounded)
    } while (System.nanoTime() < deadline);
    long quiet = Math.min(deadline, System.nanoTime() + Duration.ofSeconds(20).toNanos());
    while (System.nanoTime() < quiet) {
      SchedulerMetrics m = metrics.get(pool);
      if (m != null && m.getQueueLength() == 0 && m.getRunningTasks() == 0
          && m.getCompletions() >= v.completed()) {
        break;
      }
      catchUp(Duration.ofSeconds(2));
      LockSupport.parkNanos(200_000_000L);
    }
    catchUp(Duration.ofSeconds(5));
    return verdict(pool, expected);
  }

  /** The rules, on records already read. */
  public static Verdict verdict(String pool, Collection<String> expectedTasks,
      List<Decision> decisions, List<TaskEvent> events) {
    Set<String> expected = new LinkedHashSet<>(expectedTasks);
    Set<String> placed = new TreeSet<>();
    int placements = 0;
    Set<String> placementIds = new java.util.HashSet<>();
    for (Decision d : decisions) {
      if (pool.equals(d.getPool()) && d.getAction() instanceof PlaceTask p) {
        placed.add(p.getTaskId());
        if (placementIds.add(d.getDecisionId())) {
          placements++;
        }
      }
    }
    Set<String> started = new TreeSet<>();
    Map<String, Set<String>> completions = new TreeMap<>();
    Set<String> unexpected = new TreeSet<>();
    for (TaskEvent e : events) {
      if (!pool.equals(e.getPool())) {
        continue;
      }
      if (!expected.contains(e.getTaskId())) {
        unexpected.add(e.getTaskId());
        continue;
      }
      if (e.getType() == TaskEventType.STARTED) {
        started.add(e.getTaskId());
      } else if (e.getType() == TaskEventType.COMPLETED) {
        completions.computeIfAbsent(e.getTaskId(), t -> new TreeSet<>())
            .add("attempt " + e.getAttempt() + " on " + e.getNode() + " (" + e.getDecisionId() + ")");
      }
    }
    Set<String> lost = new TreeSet<>();
    Map<String, List<String>> duplicated = new TreeMap<>();
    Set<String> neverPlaced = new TreeSet<>();
    Set<String> neverStarted = new TreeSet<>();
    int completed = 0;
    for (String t : expected) {
      Set<String> c = completions.getOrDefault(t, Set.of());
      if (c.isEmpty()) {
        lost.add(t);
      } else if (c.size() > 1) {
        duplicated.put(t, List.copyOf(c));
      } else {
        completed++;
      }
      if (!placed.contains(t)) {
        neverPlaced.add(t);
      }
      if (!started.contains(t)) {
        neverStarted.add(t);
      }
    }
    return new Verdict(pool, expected.size(), completed, lost, duplicated, neverPlaced,
        neverStarted, unexpected, placements);
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(5));
  }
}
