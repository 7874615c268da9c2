package io.locus.cli.chaos;

import io.locus.connectors.DeliveryMode;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.CancelTask;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.Decision;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
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
 * ({@link #catchUp}) folds each record into a per-task tally as it is read, so memory grows with
 * the tasks, not with the records (a chaos run of 100,000 tasks reads several records per task).
 * It also reads {@code node-reports}, for the instance ids a forging injection needs.
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

  private final Tally tally = new Tally();
  private final Map<String, SchedulerMetrics> metrics = new HashMap<>();
  /** pool -> node -> the instance id of its latest REGISTER (small: one entry per node). */
  private final Map<String, Map<String, String>> instances = new HashMap<>();
  /** Records injected on purpose, watched for their dead letters: "topic/partition@offset". */
  private final Map<String, List<String>> watched = new HashMap<>();
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final List<TopicPartition> partitions = new ArrayList<>();

  /** A checker that reads the topics of {@code bootstrap} from the beginning. */
  public DeliveryChecker(String bootstrap, boolean readCommitted) {
    var props = ClientConfigs.consumer(bootstrap, "checker-" + System.nanoTime(), readCommitted);
    consumer = new KafkaConsumer<>(props);
    for (var topic : List.of(Topics.DECISIONS, Topics.TASK_EVENTS, Topics.DEAD_LETTERS,
        Topics.SCHEDULER_METRICS, Topics.NODE_REPORTS)) {
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
  public synchronized void catchUp(Duration timeout) {
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
        tally.decision(Topics.DECISIONS.decode(r.value()));
      } else if (r.topic().equals(Topics.TASK_EVENTS.name())) {
        tally.event(Topics.TASK_EVENTS.decode(r.value()), r.partition(), r.offset());
      } else if (r.topic().equals(Topics.DEAD_LETTERS.name())) {
        DeadLetter d = Topics.DEAD_LETTERS.decode(r.value());
        List<String> w = watched.get(d.getSourceTopic() + "/" + d.getPartition() + "@"
            + d.getOffset());
        if (w != null) {
          w.add(d.getCode() + ": " + d.getReason());
        }
        tally.deadLetter(d);
      } else if (r.topic().equals(Topics.NODE_REPORTS.name())) {
        NodeReport n = Topics.NODE_REPORTS.decode(r.value());
        if (n.getType() == NodeReportType.REGISTER && n.getInstanceId() != null) {
          instances.computeIfAbsent(n.getPool(), p -> new HashMap<>())
              .put(n.getNode(), n.getInstanceId());
        }
      } else {
        SchedulerMetrics m = Topics.SCHEDULER_METRICS.decode(r.value());
        metrics.put(m.getPool(), m);
      }
    } catch (RuntimeException e) {
      // not ours to judge
    }
  }

  /**
   * Marks a record this process wrote on purpose (an injected forgery, a skewed report): a task
   * event so marked is left out of the verdict (it is not the system's work), and the codes of
   * its dead letters, read from then on, are kept ({@link #deadLetterCodes}). Call before the
   * checker can read the record's dead letter, i.e. right after the write was acknowledged.
   */
  public synchronized void watch(String topic, int partition, long offset) {
    watched.putIfAbsent(topic + "/" + partition + "@" + offset, new ArrayList<>());
    if (topic.equals(Topics.TASK_EVENTS.name())) {
      tally.ignore(partition, offset);
    }
  }

  /**
   * The dead letters read so far for a {@link #watch watched} record, each as "code: reason"
   * (empty: none yet).
   */
  public synchronized List<String> deadLetterCodes(String topic, int partition, long offset) {
    return List.copyOf(watched.getOrDefault(topic + "/" + partition + "@" + offset, List.of()));
  }

  /** The instance id of a node's latest REGISTER read so far, or null. */
  public synchronized String instanceId(String pool, String node) {
    return instances.getOrDefault(pool, Map.of()).get(node);
  }

  /**
   * The latest placements read whose task has no COMPLETED event yet (newest last, at most
   * {@link Tally#RECENT}): what a forging node could try to complete.
   */
  public synchronized List<Placement> openPlacements(String pool) {
    return tally.openPlacements(pool);
  }

  /** Tasks of {@code pool} with at least one COMPLETED event read (any: a cheap progress count). */
  public synchronized int completedAny(String pool) {
    return tally.completedAny(pool);
  }

  /** The verdict on what has been read so far. */
  public synchronized Verdict verdict(String pool, Collection<String> expectedTasks) {
    SchedulerMetrics m = metrics.get(pool);
    return tally.verdict(pool, expectedTasks, m == null ? -1 : m.getCompletions());
  }

  /** The latest metrics the pool published, or null. */
  public synchronized SchedulerMetrics metrics(String pool) {
    return metrics.get(pool);
  }

  /**
   * Waits until every expected task has an effective completion (or the scheduler's metrics say
   * that it counts every task completed, with nothing queued or running: a task still missing
   * then will not come), catching up all the time;
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
      if (v.lost().isEmpty() || allDone(pool, expected.size())) {
        break; // all there, or the scheduler counts every task done: what is missing stays so
      }
      LockSupport.parkNanos(200_000_000L); // waiting for more records (deadline-bounded)
    } while (System.nanoTime() < deadline);
    long quiet = Math.min(deadline, System.nanoTime() + Duration.ofSeconds(20).toNanos());
    while (System.nanoTime() < quiet) {
      if (allDone(pool, expected.size())) {
        break;
      }
      catchUp(Duration.ofSeconds(2));
      LockSupport.parkNanos(200_000_000L);
    }
    catchUp(Duration.ofSeconds(5));
    return verdict(pool, expected);
  }

  /** The pool's latest metrics show an empty queue, nothing running and every task completed. */
  private boolean allDone(String pool, int expected) {
    SchedulerMetrics m = metrics(pool);
    return m != null && m.getQueueLength() == 0 && m.getRunningTasks() == 0
        && m.getCompletions() >= expected;
  }

  /**
   * The rules, on records already read. {@code schedulerCompletions} is the pool's latest
   * {@code completions} metric, or -1 when unknown.
   */
  public static Verdict verdict(String pool, Collection<String> expectedTasks,
      List<Decision> decisions, List<Seen> events, List<DeadLetter> deadLetters,
      long schedulerCompletions) {
    Tally t = new Tally();
    decisions.forEach(t::decision);
    events.forEach(s -> t.event(s.event(), s.partition(), s.offset()));
    deadLetters.forEach(t::deadLetter);
    return t.verdict(pool, expectedTasks, schedulerCompletions);
  }

  /** A placement as the forging injection needs it: whose work it is, and its identity. */
  public record Placement(String pool, String taskId, String jobId, int attempt, String node,
      String decisionId, long epoch, String instanceId) {}

  /**
   * What the records say, folded as they are read, in memory proportional to the tasks (not to
   * the records): per task, whether it was placed and started and its completions (node, attempt,
   * decision id) with the offsets of their records; the dead-lettered task-event offsets; the
   * decision ids seen (a replayed decision is counted once). Records of several topics are read in
   * no particular order relative to each other, so a dead letter may be read before its event:
   * completions are judged at {@link #verdict} time.
   */
  static final class Tally {
    static final int RECENT = 256;
    private final Set<String> decisionIds = new HashSet<>();
    /** pool -> task -> state. */
    private final Map<String, Map<String, TaskState>> tasks = new HashMap<>();
    private final Map<String, int[]> counts = new HashMap<>();
    /** task-events "partition@offset" -> dead-letter codes. */
    private final Map<String, List<String>> dead = new HashMap<>();
    private final Set<String> ignored = new HashSet<>();
    private final Map<String, java.util.ArrayDeque<Placement>> recent = new HashMap<>();

    private TaskState task(String pool, String task) {
      return tasks.computeIfAbsent(pool, p -> new HashMap<>())
          .computeIfAbsent(task, k -> new TaskState());
    }

    /** [0] placements, [1] cancels, [2] tasks with a COMPLETED event. */
    private int[] counts(String pool) {
      return counts.computeIfAbsent(pool, p -> new int[3]);
    }

    void decision(Decision d) {
      if (!decisionIds.add(d.getPool() + "\u0000" + d.getDecisionId())) {
        return; // the same decision written again (a replay)
      }
      if (d.getAction() instanceof PlaceTask p) {
        task(d.getPool(), p.getTaskId()).placed = true;
        counts(d.getPool())[0]++;
        var r = recent.computeIfAbsent(d.getPool(), k -> new java.util.ArrayDeque<>());
        r.addLast(new Placement(d.getPool(), p.getTaskId(), p.getJobId(), p.getAttempt(),
            d.getNode(), d.getDecisionId(), d.getEpoch(), d.getInstanceId()));
        if (r.size() > RECENT) {
          r.removeFirst();
        }
      } else if (d.getAction() instanceof CancelTask) {
        counts(d.getPool())[1]++;
      }
    }

    void ignore(int partition, long offset) {
      ignored.add(partition + "@" + offset);
    }

    void event(TaskEvent e, int partition, long offset) {
      String at = partition + "@" + offset;
      if (ignored.contains(at)) {
        return;
      }
      if (e.getType() == TaskEventType.STARTED) {
        task(e.getPool(), e.getTaskId()).started = true;
      } else if (e.getType() == TaskEventType.COMPLETED) {
        TaskState t = task(e.getPool(), e.getTaskId());
        if (t.completions == null) {
          t.completions = new TreeMap<>();
          counts(e.getPool())[2]++;
        }
        String key = "attempt " + e.getAttempt() + " on " + e.getNode() + " ("
            + e.getDecisionId() + ")";
        t.completions.computeIfAbsent(key, k -> new ArrayList<>(1)).add(at);
      }
    }

    void deadLetter(DeadLetter d) {
      if (Topics.TASK_EVENTS.name().equals(d.getSourceTopic())) {
        dead.computeIfAbsent(d.getPartition() + "@" + d.getOffset(), k -> new ArrayList<>(1))
            .add(d.getCode());
      }
    }

    int completedAny(String pool) {
      return counts(pool)[2];
    }

    List<Placement> openPlacements(String pool) {
      List<Placement> out = new ArrayList<>();
      Map<String, TaskState> ts = tasks.getOrDefault(pool, Map.of());
      for (Placement p : recent.getOrDefault(pool, new java.util.ArrayDeque<>())) {
        TaskState t = ts.get(p.taskId());
        if (t == null || t.completions == null) {
          out.add(p);
        }
      }
      return out;
    }

    Verdict verdict(String pool, Collection<String> expectedTasks, long schedulerCompletions) {
      Set<String> expected = new LinkedHashSet<>(expectedTasks);
      Map<String, TaskState> ts = tasks.getOrDefault(pool, Map.of());
      Set<String> unexpected = new TreeSet<>();
      for (var e : ts.entrySet()) {
        if ((e.getValue().started || e.getValue().completions != null)
            && !expected.contains(e.getKey())) {
          unexpected.add(e.getKey());
        }
      }
      Set<String> lost = new TreeSet<>();
      Map<String, List<String>> duplicated = new TreeMap<>();
      Map<String, List<String>> executedTwice = new TreeMap<>();
      Set<String> neverPlaced = new TreeSet<>();
      Set<String> neverStarted = new TreeSet<>();
      int completed = 0;
      int deadLettered = 0;
      for (String id : expected) {
        TaskState t = ts.get(id);
        Map<String, List<String>> c =
            t == null || t.completions == null ? Map.of() : t.completions;
        List<String> effective = new ArrayList<>();
        boolean remembered = false;
        for (var entry : c.entrySet()) {
          boolean accepted = false;
          for (String at : entry.getValue()) {
            List<String> codes = dead.get(at);
            if (codes == null) {
              accepted = true;
            } else {
              remembered |= codes.contains(REMEMBERED);
            }
          }
          if (accepted) {
            effective.add(entry.getKey());
          } else {
            deadLettered++;
          }
        }
        if (effective.isEmpty() && remembered) {
          effective.add("remembered, finished on its arrival");
        }
        if (effective.isEmpty()) {
          lost.add(id);
        } else if (effective.size() > 1) {
          duplicated.put(id, effective);
        } else {
          completed++;
        }
        if (c.size() > 1) {
          executedTwice.put(id, List.copyOf(c.keySet()));
        }
        if (t == null || !t.placed) {
          neverPlaced.add(id);
        }
        if (t == null || !t.started) {
          neverStarted.add(id);
        }
      }
      int[] n = counts(pool);
      return new Verdict(pool, expected.size(), completed, lost, duplicated, executedTwice,
          neverPlaced, neverStarted, unexpected, n[0], deadLettered, n[1],
          schedulerCompletions);
    }
  }

  /** One task's records, folded. */
  private static final class TaskState {
    boolean placed;
    boolean started;
    /** completion (node, attempt, decision id) -> the task-event offsets of its records. */
    Map<String, List<String>> completions;
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(5));
  }
}
