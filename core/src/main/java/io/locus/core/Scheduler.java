package io.locus.core;

import io.locus.core.model.Command;
import io.locus.core.model.Task;
import io.locus.core.policy.ChoosesPerTask;
import io.locus.core.policy.Dispatch;
import io.locus.core.policy.Policy;
import io.locus.core.policy.QueueDispatch;
import io.locus.core.policy.WithdrawRule;
import io.locus.core.share.FairShare;
import io.locus.core.share.LocalityWait;
import io.locus.core.share.PoolCapacity;
import io.locus.core.share.Preemption;
import io.locus.core.share.QueueLedger;
import io.locus.core.share.QueueTree;
import io.locus.core.state.PoolState;
import io.locus.core.state.PreemptionRound;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The one entry point both drivers (the Flink operator and the simulator) use for a pool: apply
 * an event to the state, then let the policy dispatch. Drivers that batch events with equal
 * timestamps (spec D1) call the {@code apply*} methods for all of them and then {@link #dispatch}
 * once; the {@code on*} methods are apply + dispatch for one event.
 *
 * <p><b>Driving the Khanna policies (MET, MCT, SA, JDPDLL).</b> Nodes have 1 slot; register them
 * with {@link #onNodeRegistered} (capacity in bytes; 15 GiB in the paper). Every file's
 * {@code location} names its storage node ("SN3" → 3, see {@code CostModel.storageOf}). Agent cache
 * reports are not needed: these policies keep their own caches ({@code PoolState.staging()}).
 * Then, in time order:
 * <ol>
 *   <li>A job arrives at t: {@link #onJobArrival} (or {@link #applyJobArrival}, then
 *       {@link #dispatch}(t)).</li>
 *   <li>Execute the returned commands in list order:
 *     <ul>
 *       <li>{@code Evict(node, files)}: drop the files from the node (never one in flight, never
 *           one of a starting or running job).</li>
 *       <li>{@code Run(node, task, inputs, reason, plannedCompletion)}, MET/MCT/SA: every STORAGE
 *           input carries a {@code Reservation(storageNode, start, end)}; run each transfer exactly
 *           over [start, end) and call {@link #onTransferEnd}(file, node, end) at its end. The job
 *           reads and computes from the last end (or t if nothing is fetched) and completes at
 *           {@code plannedCompletion}: call {@link #onTaskCompleted}(taskId, attempt, node, …, at
 *           that time).</li>
 *       <li>{@code Run}, JDPDLL ({@code plannedCompletion} NaN, no reservations): submit the STORAGE
 *           inputs, in list order, to the {@code TransferEngine}; call {@link #onTransferEnd} when
 *           each ends. An input marked LOCAL may still be in flight (a replica): the read phase
 *           starts once every input is on the node, and the job completes Σ size·(1/LBW + C)
 *           later; then call {@link #onTaskCompleted}.</li>
 *       <li>{@code Replicate(node, unit, STORAGE, null, "DLL")} (JDPDLL): submit to the
 *           {@code TransferEngine} from the unit's storage node after the preceding commands'
 *           transfers; call {@link #onTransferEnd} when it ends.</li>
 *     </ul></li>
 *   <li>Equal timestamps: apply every transfer end, completion and arrival of that instant first
 *       ({@link #applyTransferEnd}, {@link #applyTaskCompleted}, {@link #applyJobArrival}), then
 *       {@link #dispatch} once, then let the {@code TransferEngine} start what it can.</li>
 * </ol>
 * Time enters only as {@code now}; the policies read no clock and no unseeded randomness.
 */
public final class Scheduler {
  private final String pool;
  private final PoolState state;
  private Policy policy;
  /** The cap on a queue head's locality wait (pools with queues only). */
  private LocalityWait localityWait = new LocalityWait(LocalityWait.DEFAULT_MAX_LOCALITY_WAIT);
  /**
   * The preemption round run after each fair-share dispatch (pools with queues; null: no
   * preemption). Default: on, with a grace of {@link io.locus.core.share.Preemption#DEFAULT_GRACE_SECONDS}.
   */
  private PreemptionRound preemption =
      new PreemptionRound(Preemption.DEFAULT_GRACE_SECONDS);
  /** The last dispatch's queue dispatcher (pools with queues), for its wake-up time. */
  private QueueDispatch lastQueueDispatch;

  public Scheduler(String pool, PoolState state, Policy policy) {
    this.pool = pool;
    this.state = state;
    this.policy = policy;
  }

  /**
   * The facade over a pool's node registry only, with no file policy: it applies registrations,
   * departures and drains but never dispatches. A split pool keeps its nodes this way, so that a
   * change of policy family keeps them.
   */
  public static Scheduler registry(String pool, PoolState state) {
    return new Scheduler(pool, state, null);
  }

  public String pool() {
    return pool;
  }

  public PoolState state() {
    return state;
  }

  public Policy policy() {
    return policy;
  }

  public void setPolicy(Policy policy) {
    this.policy = policy;
  }

  /**
   * Gives the pool its queue tree (issue 24), or takes it away (null: the pool is one queue in
   * priority and arrival order, deciding bit for bit as before). The pool's per-queue book is
   * rebuilt from its queued and placed tasks; call it again after a restore.
   */
  public void setQueues(QueueTree tree) {
    state.setQueueTree(tree);
  }

  /** Caps every queue head's locality wait at {@code seconds} (default 3 s; pools with queues). */
  public void setMaxLocalityWait(double seconds) {
    localityWait = new LocalityWait(seconds);
  }

  /**
   * Preemption for a pool with queues (issue 24): a preempted process gets {@code graceSeconds}
   * to stop before it is killed; NaN turns preemption off (queues below their guarantee then wait
   * for running tasks to end).
   */
  public void setPreemptionGrace(double graceSeconds) {
    preemption = Double.isNaN(graceSeconds) ? null : new PreemptionRound(graceSeconds);
  }

  /** The preemption grace period in seconds, NaN when preemption is off. */
  public double preemptionGrace() {
    return preemption == null ? Double.NaN : preemption.graceSeconds();
  }

  /**
   * When a queue head the last dispatch held for locality may stop waiting (event time), so a
   * driver with nothing else to wake it (the simulator) dispatches again then; NaN when none is
   * held or the pool has no queues.
   */
  public double nextQueueWakeup() {
    return lastQueueDispatch == null ? Double.NaN : lastQueueDispatch.wakeup();
  }

  /** The pool's queues now ({@code now}: event time, for the maximum waits); null without a tree. */
  public FairShare queueShare(double now) {
    QueueLedger ledger = state.queueLedger();
    return ledger == null ? null : ledger.share(PoolCapacity.slots(state.registeredSlots()), now);
  }

  public List<Command> dispatch(double now) {
    if (policy == null) {
      throw new IllegalStateException("pool " + pool + " has no file policy to dispatch with");
    }
    // failed tasks whose retry backoff ended by now are placeable again, at their positions
    state.releaseDue(now);
    Dispatch d = new Dispatch(pool, state, now);
    lastQueueDispatch = null;
    if (state.queueBook() != null && policy instanceof ChoosesPerTask perTask) {
      // queues: fair share picks whose task, the policy where (docs/policies.md, "Sharing a pool")
      lastQueueDispatch = new QueueDispatch(perTask, localityWait);
      if (!lastQueueDispatch.dispatch(d)) {
        lastQueueDispatch = null;
        policy.dispatch(d); // EFT on staged caches: its own order, as without queues
      }
    } else {
      policy.dispatch(d);
    }
    WithdrawRule.apply(d); // late binding: a slot left free may take a queued attempt back
    if (lastQueueDispatch == null || preemption == null) {
      return d.commands();
    }
    // Only after a fair-share dispatch: there a freed slot goes to the queue below its share
    // (under the pool's own order a preempted task, re-queued at its old position, would take
    // its slot back and the round would preempt again and again).
    List<Command.Preempt> stops = preemption.run(state, state.queueBook().tree(),
        PoolCapacity.slots(state.registeredSlots()), state.queueLedger().loads(), now);
    if (stops.isEmpty()) {
      return d.commands();
    }
    List<Command> out = new ArrayList<>(d.commands());
    out.addAll(stops);
    return out;
  }

  // -- state changes only (batching drivers); each is followed, eventually, by one dispatch(now)

  /** Queues an arriving task; false if a task with that id is already queued or running. */
  public boolean applyJobArrival(Task t) {
    return state.enqueue(t);
  }

  public PoolState.EndOutcome applyTaskCompleted(String taskId, int attempt, String node,
      long bytesLocal, long bytesPeer, long bytesStorage) {
    return state.complete(taskId, attempt, node, bytesLocal, bytesPeer, bytesStorage);
  }

  /**
   * Reconciliation: a queued task's attempt already runs on {@code node} (a STARTED replayed
   * before the placement); see {@link PoolState#adopt}. Null when it does not apply.
   */
  public io.locus.core.state.RunningTask applyTaskAdopted(String taskId, int attempt, String node,
      String decisionId, double now) {
    return state.adopt(taskId, attempt, node, decisionId, now);
  }

  /**
   * Reconciliation: a queued task's attempt already completed; it is finished, never placed (see
   * {@link PoolState#completeQueued}).
   */
  public boolean applyQueuedTaskCompleted(String taskId, int attempt, long bytesLocal,
      long bytesPeer, long bytesStorage) {
    return state.completeQueued(taskId, attempt, bytesLocal, bytesPeer, bytesStorage);
  }

  /**
   * The attempt was refused: re-queued at once (unless out of retries). A failure is {@link
   * #applyTaskFailed(String, int, String, double)}.
   */
  public PoolState.EndOutcome applyTaskFailed(String taskId, int attempt, String node) {
    return state.fail(taskId, attempt, node);
  }

  /**
   * The attempt failed at {@code now}: unless out of retries, the next attempt waits out the
   * pool's retry backoff, then goes back to its queue position ({@link PoolState#fail(String,
   * int, String, double)}); the first {@link #dispatch} at or after its release time releases it.
   */
  public PoolState.EndOutcome applyTaskFailed(String taskId, int attempt, String node,
      double now) {
    return state.fail(taskId, attempt, node, now);
  }

  /**
   * TransferEnd(f, k): a staged or replicated file is now PRESENT on the node (Khanna family).
   * False if the pool was not staging that file to that node.
   */
  public boolean applyTransferEnd(String file, String node) {
    return state.hasStaging() && state.staging().transferEnded(file, node);
  }

  /**
   * A node registers, or re-registers after its agent restarted (what it ran goes back to the
   * queue). Returns the re-queued tasks.
   */
  public List<Task> applyNodeRegistered(String node, int slots, long cacheCapacity,
      String endpoint, double now) {
    return state.registerNode(node, slots, cacheCapacity, endpoint, now);
  }

  /** As above, with the local-queue positions the pool uses on the node (late binding). */
  public List<Task> applyNodeRegistered(String node, int slots, int queueDepth,
      long cacheCapacity, String endpoint, double now) {
    return state.registerNode(node, slots, queueDepth, cacheCapacity, endpoint, now);
  }

  /** A heartbeat advertised another local-queue depth. */
  public void applyQueueDepth(String node, int queueDepth) {
    state.setQueueDepth(node, queueDepth);
  }

  /** The node reported STARTED for the attempt (it left the local queue); false if not placed there. */
  public boolean applyTaskStarted(String taskId, int attempt, String node) {
    return state.markStarted(taskId, attempt, node);
  }

  /**
   * The node stopped the attempt for its preemption (PREEMPTED): re-queued at its original
   * position as a spared attempt, counted once in its queue's preempted count ({@link
   * PoolState#preempted}); IGNORED when that attempt is not being preempted on that node.
   */
  public PoolState.EndOutcome applyTaskPreempted(String taskId, int attempt, String node) {
    return state.preempted(taskId, attempt, node);
  }

  /**
   * The node withdrew the attempt from its local queue (WITHDRAWN): re-queued at its original
   * position as a spared attempt (see {@link PoolState#withdrawn}).
   */
  public PoolState.EndOutcome applyTaskWithdrawn(String taskId, int attempt, String node) {
    return state.withdrawn(taskId, attempt, node);
  }

  /**
   * The node refused the withdraw of the attempt (it started, or is not there): the in-flight
   * mark goes, nothing else changes. False if that attempt was not being withdrawn.
   */
  public boolean applyWithdrawRefused(String taskId, int attempt) {
    io.locus.core.state.RunningTask r = state.running(taskId);
    if (r == null || r.task().attempt() != attempt || !state.isWithdrawing(taskId)) {
      return false;
    }
    state.clearWithdrawing(taskId);
    return true;
  }

  /** A node left or was released: its running tasks are re-queued, its cache leaves the index. */
  public List<Task> applyNodeReleased(String node) {
    return state.removeNode(node);
  }

  /**
   * An agent's cache delta; false when it is a duplicate (sequence at or below the last applied)
   * or the node is unknown. For the Khanna family, each added file the pool was staging there
   * ends its transfer (TransferEnd(f, k)).
   */
  public boolean applyCacheDelta(String node, long seq, Map<String, Long> added,
      Collection<String> removed) {
    if (!state.applyCacheDelta(node, seq, added, removed)) {
      return false;
    }
    if (state.hasStaging()) {
      for (String f : added.keySet()) {
        applyTransferEnd(f, node);
      }
    }
    return true;
  }

  /** Replaces the node's cache view with a full snapshot. */
  public void applyCacheSnapshot(String node, long seq, Map<String, Long> files) {
    state.applyCacheSnapshot(node, seq, files);
  }

  /** A draining node takes no new work; its running tasks finish. */
  public void applyDrain(String node, boolean draining) {
    state.setDraining(node, draining);
  }

  // -- events; each returns the commands of the dispatch that follows it

  public List<Command> onJobArrival(Task t, double now) {
    state.enqueue(t);
    return dispatch(now);
  }

  public List<Command> onTaskCompleted(String taskId, int attempt, String node, long bytesLocal,
      long bytesPeer, long bytesStorage, double now) {
    state.complete(taskId, attempt, node, bytesLocal, bytesPeer, bytesStorage);
    return dispatch(now);
  }

  public List<Command> onTaskFailed(String taskId, int attempt, String node, double now) {
    state.fail(taskId, attempt, node, now);
    return dispatch(now);
  }

  /** A staged or replicated transfer of {@code file} to {@code node} ended at {@code now}. */
  public List<Command> onTransferEnd(String file, String node, double now) {
    applyTransferEnd(file, node);
    return dispatch(now);
  }

  /** A timer the driver set fired (the policies here set none; kept for the core API). */
  public List<Command> onTimer(double now) {
    return dispatch(now);
  }

  public List<Command> onNodeRegistered(String node, int slots, long cacheCapacity,
      String endpoint, double now) {
    applyNodeRegistered(node, slots, cacheCapacity, endpoint, now);
    return dispatch(now);
  }

  public List<Command> onNodeReleased(String node, double now) {
    applyNodeReleased(node);
    return dispatch(now);
  }

  public List<Command> onCacheDelta(String node, long seq, Map<String, Long> added,
      Collection<String> removed, double now) {
    applyCacheDelta(node, seq, added, removed);
    return dispatch(now);
  }

  public List<Command> onCacheSnapshot(String node, long seq, Map<String, Long> files,
      double now) {
    applyCacheSnapshot(node, seq, files);
    return dispatch(now);
  }

  public List<Command> onDrain(String node, boolean draining, double now) {
    applyDrain(node, draining);
    return dispatch(now);
  }
}
