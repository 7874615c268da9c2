package io.locus.core.state;

import io.locus.core.model.InputFetch;
import io.locus.core.model.Task;
import io.locus.core.share.QueueLedger;
import io.locus.core.share.QueueTree;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything a pool's scheduler knows: registered nodes and their load, the cache index (file →
 * holders, node → files, both hints from agent reports), the wait queue (priority, then FIFO),
 * running tasks, and
 * counters. Policies read it; the {@code Dispatch} context and the drivers change it. Every change
 * is told to the {@link StateJournal}. Iteration orders that decisions depend on (queue, free pool)
 * are explicit (sequence numbers), so a state rebuilt from durable storage decides identically.
 * The Khanna-family policies add a {@link StagingState} ({@link #staging()}), which this state
 * keeps in step with its queue, running tasks and nodes.
 *
 * <p>Parts of it live in their own classes: the free pool's two tiers ({@link FreePool}), the
 * placed attempts per node and the withdraws in flight ({@link PlacementBook}), the cache index
 * ({@link CacheIndex}), the data-aware policies' queue index ({@link DispatchIndex}), and the
 * failed tasks waiting out their retry backoff ({@link BackoffQueue}, {@link RetryBackoff}).
 *
 * <p>Why it is ~1,090 lines (issue 23 added the cancel transitions and the retry backoff, whose
 * queue is {@link BackoffQueue}; issue 24 the queue book's one-line hooks in every transition —
 * the book itself is {@link QueueBook} — and the preemption marks with the PREEMPTED transition):
 * what remains are one-line queries and the transitions that must move those parts together in
 * one step (a placement changes the queue, the index, the book, the queue book, the free pool and
 * the journal at once). It has outgrown one sitting: the next cut is one class per transition
 * family (arrival and placement; endings: completion, failure, withdraw, preemption, cancel; late
 * binding), each given the parts it moves, with PoolState keeping the queries.
 */
public final class PoolState implements io.locus.core.cache.FileDemand {
  /** Spec "replay policy": a failed task is re-dispatched at most this many times. */
  public static final int DEFAULT_MAX_RETRIES = 3;

  private final Map<String, NodeView> nodes = new LinkedHashMap<>();
  /**
   * The wait queue by {@link Task#queueRank()}: priority first (higher first), then arrival order
   * (seq). At priority 0 the rank is the seq, so a pool without priorities keeps its FIFO order.
   */
  private final TreeMap<Long, Task> queue = new TreeMap<>();
  /** Queued task id → its queue rank. */
  private final Map<String, Long> queuedSeq = new HashMap<>();
  private final Map<String, RunningTask> running = new HashMap<>();
  /**
   * Per task, the attempts it was given that no failure of its own caused (its node was lost or
   * re-registered): they do not count toward {@code maxRetries}. Absent means none.
   */
  private final Map<String, Integer> spared = new HashMap<>();
  /**
   * Placed attempts of cancelled tasks (task id → attempt): the task is finished for the pool
   * (CANCELLED), but the attempt keeps its slot until its node answers the cancel (any end of that
   * attempt) or leaves, so no new work lands on a slot a dying process still holds. Its end then
   * only frees the slot: never a completion, a retry or a re-queue.
   */
  private final Map<String, Integer> cancelling = new HashMap<>();
  /**
   * Placed attempts being preempted (task id → attempt; issue 24): asked to stop so that a queue
   * below its guarantee gets the slot. The attempt keeps its slot until its node answers
   * (PREEMPTED: {@link #preempted}) or it ends otherwise; it is never planned twice. Sorted, so
   * whoever walks it (the preemption round) walks it in the same order after a restore.
   */
  private final Map<String, Integer> preempting = new TreeMap<>();
  /** Free nodes, two tiers (a free slot, then only a local-queue position free), FIFO each. */
  private final FreePool free = new FreePool();
  /** Placed attempts per node, overfull nodes, slots in use, withdraws in flight. */
  private final PlacementBook book = new PlacementBook();
  private final CacheIndex cacheIndex;
  private final StateJournal journal;
  private final int maxRetries;
  /** How long a failed task's next attempt waits before it may be placed. */
  private final RetryBackoff backoff;
  /** Next attempts of failed tasks waiting out their backoff: not in the queue, not placeable. */
  private final BackoffQueue parked = new BackoffQueue();

  private int registeredSlots;
  private final Counters counters = new Counters();
  /** The Khanna family's extra state; created on first use, so other pools pay nothing for it. */
  private StagingState staging;
  /** The data-aware policies' queue index: a cache, created on first use, dropped on restore. */
  private DispatchIndex index;
  /** The pool's queues (issue 24) when it has a queue tree, else null: one FIFO as before. */
  private QueueBook queues;

  /** Cumulative counters, persisted by the driver with the pool's scalars. */
  public static final class Counters {
    public long placements;
    public long completions;
    public long failures;
    public long retries;
    public long bytesLocal;
    public long bytesPeer;
    public long bytesStorage;
    /** Khanna: storage→compute transfers committed for jobs (spec D33), and DLL replicas. */
    public long stagingTransfers;
    public long replicationTransfers;
  }

  /** What became of a task end: applied, or ignored as a duplicate / unknown attempt. */
  public enum EndOutcome {
    COMPLETED,
    REQUEUED,
    FAILED_PERMANENTLY,
    IGNORED,
    /** The attempt of a cancelled task ended: its slot is free, nothing else changed. */
    CANCELLED
  }

  public PoolState() {
    this(StateJournal.NONE, DEFAULT_MAX_RETRIES);
  }

  /** No retry backoff: a failed task is placeable again at once (the spec's replay policy). */
  public PoolState(StateJournal journal, int maxRetries) {
    this(journal, maxRetries, RetryBackoff.NONE);
  }

  /** With a retry backoff: a failed task's next attempt waits {@link RetryBackoff#delay}. */
  public PoolState(StateJournal journal, int maxRetries, RetryBackoff backoff) {
    this.journal = journal;
    this.maxRetries = maxRetries;
    this.backoff = backoff;
    this.cacheIndex = new CacheIndex(this, nodes, journal);
  }

  // ---------------------------------------------------------------- queries

  public Counters counters() {
    return counters;
  }

  /**
   * The staging state of the Khanna-family policies (scheduler-managed caches, Gantt charts,
   * per-node queues), created on first use; this pool keeps it in step with its own changes.
   */
  public StagingState staging() {
    if (staging == null) {
      staging = new StagingState(this, journal);
      for (Task t : queue.values()) {
        staging.taskQueued(t);
      }
    }
    return staging;
  }

  public boolean hasStaging() {
    return staging != null;
  }

  /**
   * The index of queued tasks by cached data that MCU, MCH and GCC decide with, built from the
   * queue and the holder index on first use and kept in step with every change from then on.
   */
  public DispatchIndex dispatchIndex() {
    if (index == null) {
      index = new DispatchIndex(this, queue);
    }
    return index;
  }

  /**
   * A policy change (SET_POLICY): the structures a policy derived from the queue are dropped, so
   * the next dispatch (the new policy's) evaluates every queued task afresh: the data-aware queue
   * index is rebuilt from the queue on first use, and the Khanna family's per-node mappings are
   * undone (each pending task is mapped again by the new policy). Running tasks are untouched.
   * Returns how many tasks are queued, i.e. re-evaluated.
   */
  public int reevaluateQueue() {
    index = null;
    if (staging != null) {
      staging.unmapAll();
    }
    return queue.size();
  }

  /**
   * Gives the pool a queue tree (null: none, the pool is one queue as before). The per-queue book
   * is rebuilt from the queue and the placed attempts, keeping the preempted counts of the queues
   * the new tree still has. O(queue + placed), once per configuration or restore.
   */
  public void setQueueTree(QueueTree tree) {
    queues = tree == null ? null
        : QueueBook.build(tree, queue.values(), running.values(),
            queues == null ? null : queues.ledger());
  }

  /** The pool's per-queue book, or null when it has no queue tree. */
  public QueueBook queueBook() {
    return queues;
  }

  /** The pool's per-queue loads, or null when it has no queue tree. */
  public QueueLedger queueLedger() {
    return queues == null ? null : queues.ledger();
  }

  /** The dispatch index if it is built, else null (it is kept in step only once built). */
  DispatchIndex indexIfBuilt() {
    return index;
  }

  public NodeView node(String id) {
    return nodes.get(id);
  }

  public Collection<NodeView> nodes() {
    return Collections.unmodifiableCollection(nodes.values());
  }

  public int queueLength() {
    return queue.size();
  }

  public Collection<Task> queue() {
    return Collections.unmodifiableCollection(queue.values());
  }

  public boolean isQueued(String taskId) {
    return queuedSeq.containsKey(taskId);
  }

  public RetryBackoff retryBackoff() {
    return backoff;
  }

  /** Failed tasks waiting out their retry backoff (not in {@link #queueLength}). */
  public int backoffLength() {
    return parked.size();
  }

  /** The tasks waiting out their retry backoff, in release order. */
  public Collection<BackoffQueue.Entry> backoffQueue() {
    return parked.all();
  }

  /** The task's next attempt waiting out its backoff, with its release time; null if not parked. */
  public BackoffQueue.Entry parked(String taskId) {
    return parked.get(taskId);
  }

  /** The earliest release time of a parked task (record clock, seconds), or NaN when none. */
  public double nextRelease() {
    return parked.next();
  }

  /**
   * The task's own failures so far (attempts that ended FAILED or REFUSED, not those its node's
   * loss or a withdraw caused), given the attempt it is at now.
   */
  public int failuresOf(Task t) {
    return t.attempt() - sparedAttempts(t.taskId());
  }

  public RunningTask running(String taskId) {
    return running.get(taskId);
  }

  /** The queued task with that id, or null. */
  public Task queued(String taskId) {
    Long seq = queuedSeq.get(taskId);
    return seq == null ? null : queue.get(seq);
  }

  /**
   * The attempts of the task that were not caused by its own failures (node lost, node
   * re-registered): a task fails for good only after {@code maxRetries} failures of its own.
   */
  public int sparedAttempts(String taskId) {
    return spared.getOrDefault(taskId, 0);
  }

  /** Whether the task was cancelled while placed and its node has not answered yet. */
  public boolean isCancelling(String taskId) {
    return cancelling.containsKey(taskId);
  }

  public Collection<RunningTask> running() {
    return Collections.unmodifiableCollection(running.values());
  }

  /**
   * Nodes that can take a placement (not draining), those with a free slot first, each tier in
   * the order the nodes entered it.
   */
  public Collection<NodeView> freePool() {
    return free.all();
  }

  /**
   * The first node a placement may go to: the first with a free slot, else the first with only a
   * free local-queue position; null when none.
   */
  public NodeView firstFree() {
    return free.first();
  }

  /** Tier 1 only: nodes with a free slot and not draining, in the order they became free. */
  public Collection<NodeView> freeSlotPool() {
    return free.slotTier();
  }

  /**
   * Whether {@code a} comes before {@code b} in the free pool (a free slot before a local-queue
   * position, then the order they became free).
   */
  public static boolean freeBefore(NodeView a, NodeView b) {
    return FreePool.before(a, b);
  }

  /** Whether the node can take a placement now (a free slot or local-queue position, not draining). */
  public static boolean canTake(NodeView n) {
    return FreePool.canTake(n);
  }

  /** Whether the node is in the free pool (either tier). */
  boolean isFree(NodeView n) {
    return free.contains(n);
  }

  /** Nodes with placements beyond their slots (some may wait in the agent's local queue). */
  public Collection<NodeView> overfull() {
    return book.overfull();
  }

  /** The attempts placed on a node (running or in its local queue), in no particular order. */
  public List<RunningTask> placedOn(String node) {
    Set<String> ids = book.on(node);
    List<RunningTask> out = new ArrayList<>(ids.size());
    for (String id : ids) {
      out.add(running.get(id));
    }
    return out;
  }

  /** Whether a withdraw of the task's placed attempt is in flight. */
  public boolean isWithdrawing(String taskId) {
    return book.isWithdrawing(taskId);
  }

  /** Withdraws in flight on behalf of {@code node}'s free slots. */
  public int withdrawsTo(String node) {
    return book.withdrawsTo(node);
  }

  /** Withdraws in flight of attempts placed on {@code node}. */
  public int withdrawsFrom(String node) {
    return book.withdrawsFrom(node);
  }

  public Set<String> holders(String file) {
    return cacheIndex.holders(file);
  }

  /**
   * Demand-aware eviction's query: queued tasks reading {@code file}, from the queue index (built
   * on first use, like the data-aware policies build it).
   */
  @Override
  public int queuedReaders(String file) {
    return dispatchIndex().queuedReaders(file);
  }

  /** Demand-aware eviction's query: how many nodes the cache index says hold {@code file}. */
  @Override
  public int copies(String file) {
    return cacheIndex.holders(file).size();
  }

  public int registeredSlots() {
    return registeredSlots;
  }

  public int busySlots() {
    return book.busySlots();
  }

  /**
   * Busy slots / registered slots; 0 with no node (spec: util). A node counts min(busy, slots):
   * attempts waiting in its local queue take no slot.
   */
  public double utilization() {
    return registeredSlots == 0 ? 0.0 : (double) book.busySlots() / registeredSlots;
  }

  /** cached(t, e): bytes of the task's inputs the node holds. */
  public long cached(Task t, NodeView n) {
    cachedCalls++;
    return CacheIndex.cached(t, n);
  }

  /** Calls of {@link #cached} so far (tests: a decision's work, counted). */
  long cachedCalls;

  /** maxCached(t): the most bytes of the task any registered node (free or busy) holds. */
  public long maxCached(Task t) {
    return cacheIndex.maxCached(t);
  }

  /** Holders visited by {@link #maxCached} so far (tests: a decision's work, counted). */
  long maxCachedVisits() {
    return cacheIndex.maxCachedVisits;
  }

  /**
   * Where each input would come from if the task ran on {@code node}: local cache, the least busy
   * peer holding it (spec D9: fewest concurrent outbound reads, tie lowest id), else storage.
   * Without {@code caching} (FA) every input is read from storage and not kept.
   */
  public List<InputFetch> plan(Task t, NodeView node, boolean caching) {
    return cacheIndex.plan(t, node, caching);
  }

  // ---------------------------------------------------------------- nodes

  /**
   * A node registers (or re-registers after its agent restarted: whatever it was running is lost
   * and goes back to the queue). Returns the tasks put back in the queue.
   */
  public List<Task> registerNode(String id, int slots, long cacheCapacity, String endpoint,
      double now) {
    return registerNode(id, slots, 0, cacheCapacity, endpoint, now);
  }

  /** As above, with the local-queue positions the pool uses on the node beyond its slots. */
  public List<Task> registerNode(String id, int slots, int queueDepth, long cacheCapacity,
      String endpoint, double now) {
    checkQueueDepth(id, queueDepth);
    if (slots < 1) {
      throw new IllegalArgumentException("node " + id + " must have at least one slot");
    }
    NodeView n = nodes.get(id);
    List<Task> requeued = List.of();
    if (n == null) {
      n = new NodeView(id);
      n.registeredAt = now;
      nodes.put(id, n);
    } else {
      requeued = requeueRunningOn(id);
      registeredSlots -= n.slots;
    }
    n.slots = slots;
    n.queueDepth = queueDepth;
    n.cacheCapacity = cacheCapacity;
    n.endpoint = endpoint;
    registeredSlots += slots;
    refreshFree(n);
    journal.nodeUpdated(n);
    if (staging != null) {
      staging.nodeRegistered(id, cacheCapacity);
    }
    return requeued;
  }

  /** A node leaves: its running tasks are re-queued and its cache entries dropped. */
  public List<Task> removeNode(String id) {
    NodeView n = nodes.get(id);
    if (n == null) {
      return List.of();
    }
    List<Task> requeued = requeueRunningOn(id);
    cacheIndex.reset(n);
    if (free.remove(n) && index != null) {
      index.freeChanged(n, false);
    }
    registeredSlots -= n.slots;
    nodes.remove(id);
    if (index != null) {
      index.nodeRemoved(id);
    }
    journal.nodeRemoved(id);
    if (staging != null) {
      staging.nodeRemoved(id);
    }
    return requeued;
  }

  /** The node's local-queue depth changed (a heartbeat advertised another one). */
  public void setQueueDepth(String id, int queueDepth) {
    checkQueueDepth(id, queueDepth);
    NodeView n = require(id);
    if (n.queueDepth == queueDepth) {
      return;
    }
    n.queueDepth = queueDepth;
    refreshFree(n);
    journal.nodeUpdated(n);
  }

  public void setDraining(String id, boolean draining) {
    NodeView n = require(id);
    n.draining = draining;
    refreshFree(n);
    journal.nodeUpdated(n);
  }

  private List<Task> requeueRunningOn(String node) {
    List<RunningTask> lost = new ArrayList<>(placedOn(node));
    lost.sort((a, b) -> Long.compare(a.task().seq(), b.task().seq()));
    List<Task> requeued = new ArrayList<>();
    for (RunningTask r : lost) {
      if (endRunning(r) && !endCancelling(r)) {
        requeued.add(requeueSpared(r));
      }
    }
    return requeued;
  }

  /**
   * The ended attempt {@code r} was not the task's fault (its node was lost, or it was preempted):
   * the task goes back to its queue position as a new attempt (new decision id), spared, i.e. not
   * counted as a failure nor a retry.
   */
  private Task requeueSpared(RunningTask r) {
    Task next = r.task().withAttempt(r.task().attempt() + 1);
    setSpared(next.taskId(), sparedAttempts(next.taskId()) + 1);
    enqueue(next);
    return next;
  }

  private void setSpared(String taskId, int n) {
    if (n == 0) {
      if (spared.remove(taskId) == null) {
        return;
      }
    } else {
      spared.put(taskId, n);
    }
    journal.taskSpared(taskId, n);
  }

  // ---------------------------------------------------------------- tasks

  /** Adds an arriving task to the queue; false if a task with that id is already queued or running. */
  public boolean enqueue(Task t) {
    if (queuedSeq.containsKey(t.taskId()) || running.containsKey(t.taskId())
        || parked.contains(t.taskId())) {
      return false;
    }
    long rank = t.queueRank();
    if (queue.containsKey(rank)) {
      throw new IllegalStateException("queue position " + t.seq() + " already taken");
    }
    queue.put(rank, t);
    queuedSeq.put(t.taskId(), rank);
    if (index != null) {
      index.added(t);
    }
    if (queues != null) {
      queues.queued(t);
    }
    journal.taskUpdated(t, null);
    if (staging != null) {
      staging.taskQueued(t);
    }
    return true;
  }

  /** Takes a slot of {@code node} for a queued task. Called by the dispatch context only. */
  public RunningTask assign(Task t, String nodeId, List<InputFetch> plan, String decisionId,
      double now) {
    Long seq = queuedSeq.remove(t.taskId());
    if (seq == null) {
      throw new NoSuchElementException("task " + t.taskId() + " is not queued");
    }
    NodeView n = require(nodeId);
    if (n.freePositions() == 0 || n.draining) {
      queuedSeq.put(t.taskId(), seq);
      throw new IllegalStateException("node " + nodeId + " has no free slot or queue position for "
          + t.taskId());
    }
    queue.remove(seq);
    if (index != null) {
      index.removed(seq);
    }
    RunningTask r = new RunningTask(t, nodeId, decisionId, now, RunningTask.peersOf(plan));
    running.put(t.taskId(), r);
    if (queues != null) {
      queues.started(r);
    }
    book.placed(n, t.taskId(), +1);
    peerReads(r, +1);
    counters.placements++;
    refreshFree(n);
    journal.taskUpdated(t, r);
    journal.nodeUpdated(n);
    if (staging != null) {
      staging.taskStarted(t);
    }
    return r;
  }

  /** A task finished well. Only the running attempt on the reported node counts (duplicates are ignored). */
  public EndOutcome complete(String taskId, int attempt, String node, long bytesLocal,
      long bytesPeer, long bytesStorage) {
    RunningTask r = placed(taskId, attempt, node);
    if (r == null) {
      return EndOutcome.IGNORED;
    }
    endRunning(r);
    if (endCancelling(r)) {
      return EndOutcome.CANCELLED; // a completion racing the cancel: the task stays cancelled
    }
    countCompletion(taskId, bytesLocal, bytesPeer, bytesStorage);
    return EndOutcome.COMPLETED;
  }

  /**
   * Reconciliation (at-least-once replays): the queued task's attempt {@code attempt} already
   * runs on {@code node} (its STARTED came before or without the placement the restored pool
   * would make). It leaves the queue and takes a slot there, even beyond the node's free slots
   * (the agent runs it whatever the pool thinks). Null if the task is not queued at that attempt
   * or the node is unknown.
   */
  public RunningTask adopt(String taskId, int attempt, String nodeId, String decisionId,
      double now) {
    Task t = waiting(taskId);
    NodeView n = nodes.get(nodeId);
    if (t == null || t.attempt() != attempt || n == null) {
      return null;
    }
    unwait(t);
    // adopted from its STARTED: it runs, so it is never withdrawn
    RunningTask r = new RunningTask(t, nodeId, decisionId, now, List.of(), true);
    running.put(taskId, r);
    if (queues != null) {
      queues.running(r);
    }
    book.placed(n, taskId, +1);
    counters.placements++;
    refreshFree(n);
    journal.taskUpdated(t, r);
    journal.nodeUpdated(n);
    return r;
  }

  /**
   * Reconciliation: the queued task's attempt {@code attempt} completed (its COMPLETED came
   * before the placement the restored pool would make): it leaves the queue, finished, and is
   * never placed. False if the task is not queued at that attempt.
   */
  public boolean completeQueued(String taskId, int attempt, long bytesLocal, long bytesPeer,
      long bytesStorage) {
    Task t = waiting(taskId);
    if (t == null || t.attempt() != attempt) {
      return false;
    }
    unwait(t);
    journal.taskRemoved(taskId);
    countCompletion(taskId, bytesLocal, bytesPeer, bytesStorage);
    return true;
  }

  /**
   * Counts a completion of a task the pool does not hold (finished before its arrival was
   * replayed), so the counters stay one completion per task.
   */
  public void countCompletion(String taskId, long bytesLocal, long bytesPeer, long bytesStorage) {
    setSpared(taskId, 0);
    counters.completions++;
    counters.bytesLocal += bytesLocal;
    counters.bytesPeer += bytesPeer;
    counters.bytesStorage += bytesStorage;
  }

  /** The task queued or parked (waiting out its backoff) with that id, or null. */
  private Task waiting(String taskId) {
    Task t = queued(taskId);
    if (t != null) {
      return t;
    }
    BackoffQueue.Entry e = parked.get(taskId);
    return e == null ? null : e.task();
  }

  /** Takes a queued or parked task out of waiting, without a journal removal of the task. */
  private void unwait(Task t) {
    if (parked.remove(t.taskId()) != null) {
      journal.taskParked(t.taskId(), Double.NaN);
    } else {
      dequeue(t);
    }
  }

  /** Takes a queued task off the queue (and its indexes), without a journal removal. */
  private void dequeue(Task t) {
    queuedSeq.remove(t.taskId());
    queue.remove(t.queueRank());
    if (index != null) {
      index.removed(t.queueRank());
    }
    if (queues != null) {
      queues.unqueued(t);
    }
    if (staging != null) {
      staging.taskStarted(t);
    }
  }

  /**
   * A task was refused (or failed where no backoff applies): re-queued at once at its original
   * position, unless out of retries.
   */
  public EndOutcome fail(String taskId, int attempt, String node) {
    return fail(taskId, attempt, node, Double.NaN);
  }

  /**
   * A task's attempt failed at {@code now}: unless out of retries, its next attempt goes back to
   * its original queue position after the retry backoff ({@link RetryBackoff#delay} of its own
   * failures so far), i.e. it is parked until {@code now + delay} ({@link #parked}) and released
   * by the first {@link #releaseDue} at or after that time; at once when the delay is 0 or {@code
   * now} is NaN. REQUEUED either way.
   */
  public EndOutcome fail(String taskId, int attempt, String node, double now) {
    RunningTask r = placed(taskId, attempt, node);
    if (r == null) {
      return EndOutcome.IGNORED;
    }
    endRunning(r);
    if (endCancelling(r)) {
      return EndOutcome.CANCELLED; // the agent's answer to the cancel, or a failure racing it
    }
    return retryOrDrop(r.task(), now) ? EndOutcome.REQUEUED : EndOutcome.FAILED_PERMANENTLY;
  }

  /**
   * Puts back in the queue, at their original positions, the parked tasks whose backoff ended at
   * or before {@code now}, in release order; returns them. The scheduler calls it before every
   * dispatch, so time is the pool's record clock: any input that moves it (a heartbeat, a cache
   * report) releases what is due.
   */
  public List<Task> releaseDue(double now) {
    if (parked.size() == 0) {
      return List.of();
    }
    List<Task> out = new ArrayList<>();
    for (BackoffQueue.Entry e : parked.takeDue(now)) {
      journal.taskParked(e.task().taskId(), Double.NaN);
      enqueue(e.task());
      out.add(e.task());
    }
    return out;
  }

  private boolean endRunning(RunningTask r) {
    if (running.remove(r.task().taskId()) == null) {
      return false;
    }
    if (queues != null) {
      queues.ended(r);
    }
    clearWithdrawing(r.task().taskId());
    if (preempting.remove(r.task().taskId()) != null) {
      journal.taskPreempting(r.task().taskId(), -1);
    }
    NodeView n = nodes.get(r.node());
    if (n != null) {
      book.placed(n, r.task().taskId(), -1);
      refreshFree(n);
      journal.nodeUpdated(n);
    }
    peerReads(r, -1);
    journal.taskRemoved(r.task().taskId());
    if (staging != null) {
      staging.taskEnded(r.node(), r.task().taskId());
    }
    return true;
  }

  private boolean retryOrDrop(Task t, double now) {
    int failures = failuresOf(t) + 1; // this one included
    if (failures > maxRetries) {
      counters.failures++;
      setSpared(t.taskId(), 0);
      return false;
    }
    counters.retries++;
    Task next = t.withAttempt(t.attempt() + 1);
    double wait = Double.isNaN(now) ? 0 : backoff.delay(failures);
    if (wait > 0) {
      parked.park(next, now + wait);
      journal.taskUpdated(next, null);
      journal.taskParked(next.taskId(), now + wait);
    } else {
      enqueue(next);
    }
    return true;
  }

  // ---------------------------------------------------------------- cancel

  /**
   * A user cancelled a queued task, or one waiting out its retry backoff: it leaves the queue
   * (or the backoff) and every index, finished (not a failure, not a retry). Null if the task is
   * neither.
   */
  public Task cancelQueued(String taskId) {
    Task t = waiting(taskId);
    if (t == null) {
      return null;
    }
    unwait(t);
    journal.taskRemoved(taskId);
    setSpared(taskId, 0);
    return t;
  }

  /**
   * A user cancelled a placed (or running) task: the task is finished, its attempt keeps its slot
   * until the node answers the cancel ({@link #isCancelling}). Null if the task is not placed or
   * is already being cancelled.
   */
  public RunningTask cancelPlaced(String taskId) {
    RunningTask r = running.get(taskId);
    if (r == null || cancelling.containsKey(taskId)) {
      return null;
    }
    cancelling.put(taskId, r.task().attempt());
    journal.taskCancelling(taskId, r.task().attempt());
    return r;
  }

  /** If {@code r} (just ended) was a cancelled attempt: forgets the mark; true if it was. */
  private boolean endCancelling(RunningTask r) {
    String id = r.task().taskId();
    if (!cancelling.containsKey(id)) {
      return false;
    }
    cancelling.remove(id);
    journal.taskCancelling(id, -1);
    setSpared(id, 0);
    return true;
  }

  // ---------------------------------------------------------------- late binding

  /**
   * The node reported STARTED for the placed attempt: it left the local queue and can no longer
   * be withdrawn. False if that attempt is not placed on that node.
   */
  public boolean markStarted(String taskId, int attempt, String node) {
    RunningTask r = placed(taskId, attempt, node);
    if (r == null) {
      return false;
    }
    if (!r.started()) {
      RunningTask s = r.asStarted();
      running.put(taskId, s);
      NodeView n = nodes.get(node);
      // Only an attempt on a node with a local queue can be withdrawn: elsewhere the flag is not
      // worth a state write per task (a pool restored without it at worst asks for a withdraw
      // that the agent refuses).
      if (n != null && n.queueDepth() > 0) {
        journal.taskUpdated(s.task(), s);
      }
    }
    return true;
  }

  /** A withdraw of the placed attempt is sent on behalf of {@code forNode}'s free slot. */
  public void markWithdrawing(String taskId, String forNode) {
    if (!running.containsKey(taskId)) {
      throw new NoSuchElementException("task " + taskId + " is not placed");
    }
    book.markWithdrawing(taskId, forNode);
  }

  /** The withdraw of the task's attempt is answered (or moot): the in-flight mark goes. */
  public void clearWithdrawing(String taskId) {
    book.clearWithdrawing(taskId);
  }

  /**
   * The node took the attempt out of its local queue (WITHDRAWN): the attempt ends and the task
   * goes back to the queue at its original position as attempt + 1, spared (neither a failure
   * nor a retry). IGNORED if that attempt is not placed on that node.
   */
  public EndOutcome withdrawn(String taskId, int attempt, String node) {
    RunningTask r = placed(taskId, attempt, node);
    if (r == null) {
      return EndOutcome.IGNORED;
    }
    endRunning(r);
    if (endCancelling(r)) {
      return EndOutcome.CANCELLED;
    }
    Task next = r.task().withAttempt(attempt + 1);
    setSpared(taskId, sparedAttempts(taskId) + 1);
    enqueue(next);
    return EndOutcome.REQUEUED;
  }

  // ---------------------------------------------------------------- preemption

  /** Whether the task's placed attempt is being preempted (its node has not answered yet). */
  public boolean isPreempting(String taskId) {
    return preempting.containsKey(taskId);
  }

  /** The task ids of the attempts being preempted, in id order. */
  public Set<String> preempting() {
    return Collections.unmodifiableSet(preempting.keySet());
  }

  /**
   * A preemption of the task's placed attempt is sent: it keeps its slot until its node answers,
   * and is not planned again.
   */
  public void markPreempting(String taskId) {
    RunningTask r = running.get(taskId);
    if (r == null) {
      throw new NoSuchElementException("task " + taskId + " is not placed");
    }
    preempting.put(taskId, r.task().attempt());
    journal.taskPreempting(taskId, r.task().attempt());
  }

  /**
   * The node stopped the attempt for its preemption (PREEMPTED): the attempt ends, its slot is
   * free, and the task goes back to its queue at its original position as attempt + 1, spared
   * (as when its node is lost: neither a failure nor a retry). CANCELLED when the task was
   * cancelled meanwhile (only the slot frees). IGNORED, changing nothing, when that attempt is
   * not placed on that node or is not being preempted.
   */
  public EndOutcome preempted(String taskId, int attempt, String node) {
    RunningTask r = placed(taskId, attempt, node);
    if (r == null || !preempting.containsKey(taskId)) {
      return EndOutcome.IGNORED;
    }
    endRunning(r);
    if (queues != null) {
      String leaf = queues.leafOf(r.task());
      queues.ledger().countPreempted(leaf); // once: the mark is gone now
      journal.queuePreempted(leaf, queues.ledger().preempted(leaf));
    }
    if (endCancelling(r)) {
      return EndOutcome.CANCELLED;
    }
    requeueSpared(r);
    return EndOutcome.REQUEUED;
  }

  /** Re-adds a persisted preemption in flight ({@link #isPreempting}); after its running task. */
  public void restorePreempting(String taskId, int attempt) {
    RunningTask r = running.get(taskId);
    if (r != null && r.task().attempt() == attempt) {
      preempting.put(taskId, attempt);
    }
  }

  // ---------------------------------------------------------------- cache index

  /**
   * Applies an agent's cache delta. Deltas at or below the last applied sequence number are
   * duplicates and ignored; a gap is applied anyway (the index is only a hint). Returns whether
   * it was applied.
   */
  public boolean applyCacheDelta(String nodeId, long seq, Map<String, Long> added,
      Collection<String> removed) {
    NodeView n = nodes.get(nodeId);
    if (n == null || seq <= n.lastCacheSeq) {
      return false;
    }
    cacheIndex.applyDelta(n, seq, added, removed);
    return true;
  }

  /** Replaces the node's cache view with a full snapshot. */
  public void applyCacheSnapshot(String nodeId, long seq, Map<String, Long> files) {
    cacheIndex.applySnapshot(require(nodeId), seq, files);
  }

  // ---------------------------------------------------------------- restore (driver use)

  /** Re-adds a persisted node, its cached files and running tasks are restored separately. */
  public void restoreNode(NodeView n) {
    index = null;
    nodes.put(n.id(), n);
    registeredSlots += n.slots;
    free.restoreCounter(n.freeSeq);
  }

  public void restoreCacheEntry(String nodeId, String file, long bytes) {
    index = null;
    cacheIndex.restoreEntry(require(nodeId), file, bytes);
  }

  public void restoreQueued(Task t) {
    index = null;
    queue.put(t.queueRank(), t);
    queuedSeq.put(t.taskId(), t.queueRank());
    if (staging != null) {
      staging.taskQueued(t);
    }
  }

  /**
   * Re-adds a persisted task waiting out its backoff until {@code until}, instead of {@link
   * #restoreQueued} (it is not in the queue).
   */
  public void restoreParked(Task t, double until) {
    parked.park(t, until);
  }

  /** Re-adds a persisted cancelled attempt ({@link #isCancelling}); after its running task. */
  public void restoreCancelling(String taskId, int attempt) {
    RunningTask r = running.get(taskId);
    if (r != null && r.task().attempt() == attempt) {
      cancelling.put(taskId, attempt);
    }
  }

  /** Re-adds a persisted count of spared attempts ({@link #sparedAttempts}). */
  public void restoreSpared(String taskId, int n) {
    if (n > 0) {
      spared.put(taskId, n);
    }
  }

  public void restoreRunning(RunningTask r) {
    running.put(r.task().taskId(), r);
    NodeView n = require(r.node());
    book.placed(n, r.task().taskId(), +1);
    peerReads(r, +1);
  }

  /** Call once after every restore* call: rebuilds the free pool from the persisted free order. */
  public void finishRestore() {
    index = null; // rebuilt from the restored queue and holders on the next decision
    free.rebuild(nodes.values());
    if (queues != null) {
      setQueueTree(queues.tree()); // the restore* calls bypass the book: rebuild it whole
    }
  }

  // ---------------------------------------------------------------- internals

  /** The task's placed attempt if it is {@code attempt} on {@code node}, else null. */
  private RunningTask placed(String taskId, int attempt, String node) {
    RunningTask r = running.get(taskId);
    return r == null || r.task().attempt() != attempt || !r.node().equals(node) ? null : r;
  }

  /**
   * Keeps the free pool's two tiers in sync with a node's load (a node that just entered a tier
   * goes last in it), and tells the dispatch index when the node enters or leaves the pool.
   */
  private void refreshFree(NodeView n) {
    boolean live = !n.draining && nodes.containsKey(n.id());
    int change = free.refresh(n, live);
    if (change != 0 && index != null) {
      index.freeChanged(n, change > 0);
    }
  }

  /** Counts (+1) or uncounts (-1) the attempt's reads from its peers' caches (spec D9). */
  private void peerReads(RunningTask r, int delta) {
    for (String p : r.peers()) {
      NodeView peer = nodes.get(p);
      if (peer != null && peer.outbound + delta >= 0) {
        peer.outbound += delta;
      }
    }
  }

  private static void checkQueueDepth(String id, int queueDepth) {
    if (queueDepth < 0) {
      throw new IllegalArgumentException("node " + id + " queue depth must be ≥ 0, got "
          + queueDepth);
    }
  }

  private NodeView require(String id) {
    NodeView n = nodes.get(id);
    if (n == null) {
      throw new NoSuchElementException("unknown node " + id);
    }
    return n;
  }
}
