package io.locus.e2e.chaos;

import io.locus.connectors.DeliveryMode;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.CancelTask;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.Decision;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
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
 * reads {@code decisions}, {@code task-events}, {@code dead-letters} and {@code scheduler-metrics}
 * from the beginning ({@code read_committed} for exactly-once pools) and verifies, per task of a
 * pool, that it was placed, started and had exactly one <em>effective completion</em>.
 *
 * <p>A <em>completion</em> is a distinct (node, attempt, decision id) of a COMPLETED event: the
 * same event written twice (a producer retry, an agent answering a duplicate decision) is one
 * completion. A completion is <em>effective</em> when the scheduler accepted it: at least one of
 * its records has no dead letter (dead letters name their source by topic, partition and offset).
 * The protocol makes the scheduler accept the first completion of an attempt and dead-letter any
 * later one ({@code unknown-task}, with a CancelTask to the other node), so in at-least-once a task
 * may <em>execute</em> twice (measured: {@link Verdict#executedTwice}) yet complete once
 * effectively. One exception: a COMPLETED read before its task's arrival was replayed (after a
 * restore) is dead-lettered <em>and remembered</em>; the task is finished when its arrival comes,
 * so a task whose only completions are remembered ones has one effective completion. The
 * scheduler's own count ({@code completions} of its metrics) must equal the expected tasks: that
 * catches a remembered completion that never became effective.
 *
 * <p>Pure ({@link #verdict}) so that its rules are tested without Kafka; the reading part
 * ({@link #catchUp}) only collects records.
 */
public final class DeliveryChecker implements AutoCloseable {
  /** The dead-letter code of a COMPLETED the scheduler keeps until its task arrives. */
  static final String REMEMBERED = DeadLetterCodes.EARLY_COMPLETION;

  /** A task event and where it was read (dead letters name their source by partition, offset). */
  public record Seen(TaskEvent event, int partition, long offset) {}

  /** What the topics say about one pool's expected tasks. */
  public record Verdict(String pool, int expected, int completed, Set<String> lost,
      Map<String, List<String>> duplicated, Map<String, List<String>> executedTwice,
      Set<String> neverPlaced, Set<String> neverStarted, Set<String> unexpected, int placements,
      int deadLettered, int cancels, long schedulerCompletions) {

    /**
     * One effective completion per task (none lost, none effective twice), every task placed and
     * started, and the scheduler's own count agrees (when its metrics were read).
     */
    public boolean effectivelyOnce() {
      return lost.isEmpty() && duplicated.isEmpty() && neverPlaced.isEmpty()
          && neverStarted.isEmpty()
          && (schedulerCompletions < 0 || schedulerCompletions == expected);
    }

    /** Effectively once, and no task executed to completion twice. */
    public boolean executedOnce() {
      return effectivelyOnce() && executedTwice.isEmpty();
    }

    /**
     * What a delivery mode promises: exactly-once never runs a task twice; at-least-once may run
     * one twice after a failover (measured), but completes it effectively once.
     */
    public boolean keeps(DeliveryMode mode) {
      return mode == DeliveryMode.EXACTLY_ONCE ? executedOnce() : effectivelyOnce();
    }

    /** Lost and duplicated task ids (the first 20 of each), for an assertion message. */
    public String summary() {
      return String.format("%s: %d/%d completed effectively once; lost %d %s; effective twice %d"
              + " %s; executed twice %d %s; dead-lettered completions %d; cancels %d; never placed"
              + " %d; never started %d; unexpected %d; placements %d; scheduler completions %d",
          pool, completed, expected, lost.size(), first(lost), duplicated.size(),
          first(duplicated.entrySet()), executedTwice.size(), first(executedTwice.entrySet()),
          deadLettered, cancels, neverPlaced.size(), neverStarted.size(), unexpected.size(),
          placements, schedulerCompletions);
    }

    private static String first(Collection<?> c) {
      return c.stream().limit(20).map(String::valueOf).toList().toString();
    }
  }

  private final List<Decision> decisions = new ArrayList<>();
  private final List<Seen> events = new ArrayList<>();
  private final List<DeadLetter> deadLetters = new ArrayList<>();
  private final Map<String, SchedulerMetrics> metrics = new HashMap<>();
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final List<TopicPartition> partitions = new ArrayList<>();

  /** A checker that reads the topics of {@code bootstrap} from the beginning. */
  public DeliveryChecker(String bootstrap, boolean readCommitted) {
    var props = ClientConfigs.consumer(bootstrap, "checker-" + System.nanoTime(), readCommitted);
    consumer = new KafkaConsumer<>(props);
    for (var topic : List.of(Topics.DECISIONS, Topics.TASK_EVENTS, Topics.DEAD_LETTERS,
        Topics.SCHEDULER_METRICS)) {
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
    // Not Await: a read cut short (broker away) returns quietly; the caller's wait retries.
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
        events.add(new Seen(Topics.TASK_EVENTS.decode(r.value()), r.partition(), r.offset()));
      } else if (r.topic().equals(Topics.DEAD_LETTERS.name())) {
        DeadLetter d = Topics.DEAD_LETTERS.decode(r.value());
        if (Topics.TASK_EVENTS.name().equals(d.getSourceTopic())) {
          deadLetters.add(d);
        }
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
    SchedulerMetrics m = metrics.get(pool);
    return verdict(pool, expectedTasks, decisions, events, deadLetters,
        m == null ? -1 : m.getCompletions());
  }

  /** The latest metrics the pool published, or null. */
  public SchedulerMetrics metrics(String pool) {
    return metrics.get(pool);
  }

  /**
   * Waits until every expected task has an effective completion, catching up all the time;
   * then, so that a late duplicate is seen too, until the pool's metrics (published after the last
   * completion) show an empty queue, nothing running and every task completed, and reads once
   * more. Returns the verdict at that point or at the deadline (with what is lost).
   */
  public Verdict awaitCompletion(String pool, Collection<String> expected, Duration timeout) {
    // Not Await: at the deadline it returns the verdict (naming what is lost) instead of failing.
    long deadline = System.nanoTime() + timeout.toNanos();
    Verdict v;
    do {
      catchUp(Duration.ofSeconds(5));
      v = verdict(pool, expected);
      if (v.lost().isEmpty()) {
        break;
      }
      LockSupport.parkNanos(200_000_000L); // waiting for more records (deadline-bounded)
    } while (System.nanoTime() < deadline);
    long quiet = Math.min(deadline, System.nanoTime() + Duration.ofSeconds(20).toNanos());
    while (System.nanoTime() < quiet) {
      SchedulerMetrics m = metrics.get(pool);
      if (m != null && m.getQueueLength() == 0 && m.getRunningTasks() == 0
          && m.getCompletions() >= expected.size()) {
        break;
      }
      catchUp(Duration.ofSeconds(2));
      LockSupport.parkNanos(200_000_000L);
    }
    catchUp(Duration.ofSeconds(5));
    return verdict(pool, expected);
  }

  /**
   * The rules, on records already read. {@code schedulerCompletions} is the pool's latest
   * {@code completions} metric, or -1 when unknown.
   */
  public static Verdict verdict(String pool, Collection<String> expectedTasks,
      List<Decision> decisions, List<Seen> events, List<DeadLetter> deadLetters,
      long schedulerCompletions) {
    Set<String> expected = new LinkedHashSet<>(expectedTasks);
    Set<String> placed = new TreeSet<>();
    int placements = 0;
    int cancels = 0;
    Set<String> decisionIds = new HashSet<>();
    for (Decision d : decisions) {
      if (!pool.equals(d.getPool()) || !decisionIds.add(d.getDecisionId())) {
        continue; // another pool, or the same decision written again (a replay)
      }
      if (d.getAction() instanceof PlaceTask p) {
        placed.add(p.getTaskId());
        placements++;
      } else if (d.getAction() instanceof CancelTask) {
        cancels++;
      }
    }
    // source offset of a task event -> the codes it was dead-lettered with
    Map<String, List<String>> dead = new HashMap<>();
    for (DeadLetter d : deadLetters) {
      if (Topics.TASK_EVENTS.name().equals(d.getSourceTopic())) {
        dead.computeIfAbsent(d.getPartition() + "@" + d.getOffset(), k -> new ArrayList<>())
            .add(d.getCode());
      }
    }
    Set<String> started = new TreeSet<>();
    // task -> completion (node, attempt, decision id) -> its records' dead-letter state
    Map<String, Map<String, Completion>> completions = new TreeMap<>();
    Set<String> unexpected = new TreeSet<>();
    for (Seen s : events) {
      TaskEvent e = s.event();
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
        String key = "attempt " + e.getAttempt() + " on " + e.getNode() + " ("
            + e.getDecisionId() + ")";
        completions.computeIfAbsent(e.getTaskId(), t -> new TreeMap<>())
            .computeIfAbsent(key, k -> new Completion())
            .record(dead.get(s.partition() + "@" + s.offset()));
      }
    }
    Set<String> lost = new TreeSet<>();
    Map<String, List<String>> duplicated = new TreeMap<>();
    Map<String, List<String>> executedTwice = new TreeMap<>();
    Set<String> neverPlaced = new TreeSet<>();
    Set<String> neverStarted = new TreeSet<>();
    int completed = 0;
    int deadLettered = 0;
    for (String t : expected) {
      Map<String, Completion> c = completions.getOrDefault(t, Map.of());
      List<String> effective = new ArrayList<>();
      boolean remembered = false;
      for (var entry : c.entrySet()) {
        if (entry.getValue().accepted) {
          effective.add(entry.getKey());
        } else {
          deadLettered++;
          remembered |= entry.getValue().remembered;
        }
      }
      if (effective.isEmpty() && remembered) {
        effective.add("remembered, finished on its arrival");
      }
      if (effective.isEmpty()) {
        lost.add(t);
      } else if (effective.size() > 1) {
        duplicated.put(t, effective);
      } else {
        completed++;
      }
      if (c.size() > 1) {
        executedTwice.put(t, List.copyOf(c.keySet()));
      }
      if (!placed.contains(t)) {
        neverPlaced.add(t);
      }
      if (!started.contains(t)) {
        neverStarted.add(t);
      }
    }
    return new Verdict(pool, expected.size(), completed, lost, duplicated, executedTwice,
        neverPlaced, neverStarted, unexpected, placements, deadLettered, cancels,
        schedulerCompletions);
  }

  /** The records of one completion: accepted when one of them has no dead letter. */
  private static final class Completion {
    boolean accepted;
    boolean remembered;

    void record(List<String> deadCodes) {
      if (deadCodes == null) {
        accepted = true;
      } else {
        remembered |= deadCodes.contains(REMEMBERED);
      }
    }
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(5));
  }
}
