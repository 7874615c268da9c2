package io.locus.cli.demo;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import io.locus.schemas.Decision;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;
import io.locus.schemas.TaskEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Follows the task-events and scheduler-metrics topics and keeps, per pool, what a person (or a test) wants to know:
 * completions (and any duplicate), the most tasks ever running at once on each node, bytes by
 * source, and response times of jobs whose submit time it was told. For split pools it also reads
 * the decisions topic and keeps an {@link EventRangeLedger} per pool: the event ranges processed
 * and the placements, shrinks and suspends sent.
 */
public final class TaskEventTracker implements AutoCloseable {

  /** Per-pool figures; read them through {@link #stats(String)} (a consistent copy). */
  public static final class Stats {
    public long completed;
    public long duplicateCompletions;
    public long failed;
    public long refused;
    /**
     * Late binding: attempts withdrawn from an agent's local queue (WITHDRAWN), and withdraws the
     * agent refused because the attempt had started (a REFUSED answering a cancel decision). Neither
     * is a refused placement.
     */
    public long withdrawn;
    public long withdrawsRefused;
    /** Event-range subjobs suspended (SUSPENDED) and shrink acknowledgements (SHRUNK). */
    public long suspended;
    public long shrunk;
    public long bytesLocal;
    public long bytesPeer;
    public long bytesStorage;
    public double responseSecondsSum;
    public long responses;
    public int maxConcurrentOnANode;
    public final Map<String, Integer> maxConcurrent = new HashMap<>();
    public final List<String> refusals = new ArrayList<>();

    public double hitRatio() {
      long total = bytesLocal + bytesPeer + bytesStorage;
      return total == 0 ? 0 : (double) bytesLocal / total;
    }

    public double meanResponseSeconds() {
      return responses == 0 ? 0 : responseSecondsSum / responses;
    }

    Stats copy() {
      Stats s = new Stats();
      s.completed = completed;
      s.duplicateCompletions = duplicateCompletions;
      s.failed = failed;
      s.refused = refused;
      s.withdrawn = withdrawn;
      s.withdrawsRefused = withdrawsRefused;
      s.suspended = suspended;
      s.shrunk = shrunk;
      s.bytesLocal = bytesLocal;
      s.bytesPeer = bytesPeer;
      s.bytesStorage = bytesStorage;
      s.responseSecondsSum = responseSecondsSum;
      s.responses = responses;
      s.maxConcurrentOnANode = maxConcurrentOnANode;
      s.maxConcurrent.putAll(maxConcurrent);
      s.refusals.addAll(refusals);
      return s;
    }
  }

  private final Map<String, Stats> pools = new HashMap<>();
  private final Map<String, Integer> completions = new HashMap<>();
  private final Map<String, Integer> runningOnNode = new HashMap<>();
  /** Attempts seen STARTED and not ended yet (pool/node/task#attempt). */
  private final java.util.Set<String> startedAttempts = new java.util.HashSet<>();
  private final Map<String, Long> submitTimes = new ConcurrentHashMap<>();
  private final Map<String, SchedulerMetrics> metrics = new ConcurrentHashMap<>();
  private final Map<String, Long> maxLocallyQueued = new ConcurrentHashMap<>();
  private final Map<String, EventRangeLedger> ledgers = new ConcurrentHashMap<>();
  private final TopicTail tail;

  /** Starts following the topics from their beginning; records that do not decode are skipped. */
  public TaskEventTracker(String bootstrap) {
    tail = TopicTail.builder(ClientConfigs.consumer(bootstrap, null, false))
        .name("task-event-tracker")
        .follow(Topics.TASK_EVENTS, (e, meta) -> apply(e))
        .follow(Topics.SCHEDULER_METRICS, (m, meta) -> metrics(m))
        .follow(Topics.DECISIONS, (d, meta) -> decision(d))
        .start();
  }

  /** Lets the tracker compute response times: completion time − this submit time. */
  public void submitted(String taskId, long submitTimeMs) {
    submitTimes.put(taskId, submitTimeMs);
  }

  /**
   * The most placed attempts the scheduler's metrics ever showed waiting in the pool's agents'
   * local queues (placed − busy slots); 0 without late binding.
   */
  public long maxLocallyQueued(String pool) {
    return maxLocallyQueued.getOrDefault(pool, 0L);
  }

  /** The latest metrics the scheduler published for the pool, or null. */
  public SchedulerMetrics latestMetrics(String pool) {
    return metrics.get(pool);
  }

  /**
   * The event-range ledger of a split pool (empty until the pool's first event-range decision or
   * task event); it is live: the tracker keeps feeding it.
   */
  public EventRangeLedger ledger(String pool) {
    tail.throwIfFailed();
    return ledgers.computeIfAbsent(pool, p -> new EventRangeLedger());
  }

  public synchronized Stats stats(String pool) {
    tail.throwIfFailed();
    return pools.getOrDefault(pool, new Stats()).copy();
  }

  /** Records skipped because they were not records of their topic's type. */
  public long undecodable() {
    return tail.undecodable();
  }

  private void metrics(SchedulerMetrics m) {
    metrics.put(m.getPool(), m);
    // placed attempts beyond the busy slots wait in agents' local queues (late binding)
    maxLocallyQueued.merge(m.getPool(), m.getRunningTasks() - m.getBusySlots(), Math::max);
  }

  private void decision(Decision d) {
    if (isEventRange(d)) {
      ledger(d.getPool()).decision(d);
    }
  }

  private static boolean isEventRange(Decision d) {
    return d.getAction() instanceof PlaceTask p ? p.getEvents() != null
        : d.getAction() instanceof ShrinkTask || d.getAction() instanceof SuspendTask;
  }

  private synchronized void apply(TaskEvent e) {
    if (EventRangeLedger.endsARange(e)) {
      ledger(e.getPool()).taskEvent(e);
    }
    Stats s = pools.computeIfAbsent(e.getPool(), p -> new Stats());
    String nodeKey = e.getPool() + "/" + e.getNode();
    String attemptKey = nodeKey + "/" + e.getTaskId() + "#" + e.getAttempt();
    // Only an attempt that STARTED ran on the node: with local queues an attempt can end (cancel,
    // agent stop) while it only waited, without a STARTED.
    TaskEventType type = e.getType();
    boolean ends = type == TaskEventType.COMPLETED || type == TaskEventType.FAILED
        || type == TaskEventType.SUSPENDED || type == TaskEventType.PREEMPTED;
    boolean ran = ends && startedAttempts.remove(attemptKey);
    switch (e.getType()) {
      case STARTED -> {
        if (!startedAttempts.add(attemptKey)) {
          return; // a repeated STARTED (an agent answering a duplicate decision)
        }
        int now = runningOnNode.merge(nodeKey, 1, Integer::sum);
        s.maxConcurrent.merge(e.getNode(), now, Math::max);
        s.maxConcurrentOnANode = Math.max(s.maxConcurrentOnANode, now);
      }
      case COMPLETED -> {
        if (ran) {
          runningOnNode.merge(nodeKey, -1, Integer::sum);
        }
        int n = completions.merge(e.getPool() + "/" + e.getTaskId(), 1, Integer::sum);
        if (n > 1) {
          s.duplicateCompletions++;
          return;
        }
        s.completed++;
        s.bytesLocal += e.getBytesLocal();
        s.bytesPeer += e.getBytesPeer();
        s.bytesStorage += e.getBytesStorage();
        Long submit = submitTimes.get(e.getTaskId());
        if (submit != null) {
          s.responseSecondsSum += (e.getEndTimeMs() - submit) / 1000.0;
          s.responses++;
        }
      }
      case FAILED -> {
        if (ran) {
          runningOnNode.merge(nodeKey, -1, Integer::sum);
        }
        s.failed++;
      }
      case SUSPENDED -> {
        // a suspended subjob's attempt ended: its slot is free
        if (ran) {
          runningOnNode.merge(nodeKey, -1, Integer::sum);
        }
        s.suspended++;
      }
      case PREEMPTED -> {
        // stopped for a preemption (issue 24): its slot is free, the task runs again later
        if (ran) {
          runningOnNode.merge(nodeKey, -1, Integer::sum);
        }
      }
      case SHRUNK -> s.shrunk++;
      case WITHDRAWN -> s.withdrawn++;
      case REFUSED -> {
        if (e.getDecisionId() != null && e.getDecisionId().contains("/cancel/")) {
          s.withdrawsRefused++; // the answer to a withdraw (or cancel), not to a placement
          return;
        }
        s.refused++;
        if (s.refusals.size() < 20) {
          s.refusals.add(e.getTaskId() + " on " + e.getNode() + ": " + e.getMessage());
        }
      }
    }
  }

  @Override
  public void close() {
    tail.close();
  }
}
